"""SVG diagram of one player's view (§5): their hand face up, the other hand as card backs with
its count, each table (a secret choice as a back), crystals won, piles and the call; or the
referee's, every hand face up (observation.referee_view), as the text screen shows them. Drawn
from the observation data, so it shows exactly what that viewer knows. Each face-up hand card
has its place above it (what a player types to pick it), the called attribute is starred in
bold on every card, and a key under the seats says what the fills and signs mean. Moves can be marked
(engine/marks.py), e.g. a mixed strategy's options: a card to play or boost with is outlined,
its label (a probability) under it and a bar as long as its weight; an attribute to call
gets a box of its own above the seats; other moves draw nothing."""
from __future__ import annotations

from xml.sax.saxutils import escape

from ..marks import COLOUR as MARK, MoveMark, group, on_top, styles
from .cards import CardSet
from .moves import M_CALL, PUT_DOWN, format_move, kind_of, payload_of

CARD_W, CARD_H, GAP, MARGIN, ROW_H = 112, 150, 10, 20, 190
FAMILY_FILL = "#fff8e1"
CREATURE_FILL, BOOST_FILL, BACK_FILL = "#e3f2fd", "#f1f8e9", "#5d4037"
CRYSTAL_FILL = "#7b1fa2"
CALL_W, CALL_H, CALLS_H = 190, 26, 50     # a marked call's box, the row of them
LINE_CHARS = 16                 # characters of 11 px text that fit inside a card
PLACE_H = 18                    # the row of hand places above the cards
KEY_H = 24                      # a row of the key
BEFORE_TOSS = ("deal", "mulligan", "redeal", "toss")    # phases where nobody calls yet


def card_svg(cards: CardSet, number: int, x: float, y: float, cls: str,
             called: int = -1) -> str:
    """A card face up: number and name, families (★ mythic), then its values (a boost
    card: its bonuses), the ``called`` attribute's in bold with a star."""
    card = cards.card(number)
    fill = CREATURE_FILL if card.is_creature else BOOST_FILL
    lines = [(t, False) for t in heading(number, card.name)]
    lines.append((("neutral" if card.neutral else "/".join(card.families))
                  + (" ★" if card.mythic else ""), False))
    for a, (attribute, value) in enumerate(zip(cards.attributes, card.values)):
        if card.is_creature or value:
            lines.append((f"{attribute[:5]} {'' if card.is_creature else '+'}{value}"
                          + ("*" if a == called else ""), a == called))
    text = "".join(f'<text x="{x + 6}" y="{y + 18 + 16 * i}" font-size="11"'
                   + (' font-weight="bold" class="called"' if bold else "")
                   + f'>{escape(t)}</text>' for i, (t, bold) in enumerate(lines))
    return (f'<g class="{cls}" data-card="{number}"><title>#{number} {escape(card.name)}'
            f'</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" '
            f'fill="{fill}" stroke="#424242"/>{text}</g>')


def heading(number: int, name: str) -> list[str]:
    """``#number name`` in lines of at most LINE_CHARS (what fits a card at 11 px), broken
    between words, at most two lines (a longer name ends in '…'; the card's <title> holds
    it whole)."""
    lines, line = [], f"#{number}"
    for word in name.split():
        if len(line) + 1 + len(word) <= LINE_CHARS:
            line += " " + word
        else:
            lines.append(line)
            line = word
    lines.append(line)
    if len(lines) > 2 or len(lines[-1]) > LINE_CHARS:
        lines[1:] = [" ".join(lines[1:])[:LINE_CHARS - 1] + "…"]
    return lines


def back_svg(x: float, y: float, label: str) -> str:
    return (f'<g class="back"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" '
            f'fill="{BACK_FILL}" stroke="#3e2723"/><text x="{x + CARD_W / 2}" '
            f'y="{y + CARD_H / 2}" font-size="20" fill="#fff" text-anchor="middle">'
            f'{escape(label)}</text></g>')


def svg(observation: dict, cards: CardSet, title: str, marks=()) -> str:
    """``observation`` is State.observation(player); ``marks`` MoveMark-like (move, label,
    weight) triples, rank 1 first."""
    marks = [MoveMark(*m) for m in marks]
    players = tuple(seat["player"] for seat in observation["seats"])
    on_card, calls = {}, []
    for rank, (style, mark) in enumerate(zip(styles(marks), marks)):
        text = format_move(mark.move, cards.attributes, players)
        if kind_of(mark.move) in PUT_DOWN:
            on_card.setdefault(payload_of(mark.move), (rank, style, mark, text))
        elif kind_of(mark.move) == M_CALL:
            calls.append((style, mark, text))
    seats = observation["seats"]
    called = (cards.attributes.index(observation["attribute"])
              if observation["attribute"] else -1)
    widest = max(len(s["table"]) + 1 + (s["hand_count"] or 0) for s in seats) + 1
    width = 2 * MARGIN + max(widest * (CARD_W + GAP), 700, len(calls) * (CALL_W + GAP))
    key = key_svg(width, bool(marks))
    height = 2 * MARGIN + 40 + len(seats) * (ROW_H + 40 + PLACE_H) + \
        (CALLS_H if calls else 0) + KEY_H * len(key)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif"><title>{escape(title)}</title>',
             f'<rect width="{width}" height="{height}" fill="{FAMILY_FILL}"/>',
             f'<text x="{MARGIN}" y="{MARGIN + 16}" font-size="16">{escape(headline(observation))}'
             f'</text>']
    y = MARGIN + 40
    if calls:
        parts += call_marks(calls, cards, MARGIN, y)
        y += CALLS_H
    drawn = []
    for seat in seats:
        you = seat["player"] == observation["player"]
        marked = on_card if seat["player"] == observation["actor"] else {}   # the mover's
        parts.append(f'<text x="{MARGIN}" y="{y + 14}" font-size="14">'
                     f'{escape(seat_line(seat, you))}</text>')
        for i in range(seat["won"]):
            parts.append(f'<circle class="crystal" cx="{width - MARGIN - 14 - 20 * i}" '
                         f'cy="{y + 9}" r="8" fill="{CRYSTAL_FILL}"/>')
        x, top = MARGIN, y + 24 + PLACE_H
        for number in seat["table"]:
            parts.append(card_svg(cards, number, x, top, "table", called))
            drawn += card_mark(marked.pop(number, None), x, top)
            x += CARD_W + GAP
        if seat["chosen"] == "hidden":
            parts.append(back_svg(x, top, "chosen"))
            x += CARD_W + GAP
        x += GAP * 3
        if seat["hand"] is not None:
            for place, number in enumerate(seat["hand"], 1):
                parts.append(f'<text class="place" x="{x + CARD_W / 2}" y="{top - 9}" '
                             f'font-size="13" font-weight="bold" text-anchor="middle">'
                             f'{place}</text>')
                parts.append(card_svg(cards, number, x, top, "hand", called))
                drawn += card_mark(marked.pop(number, None), x, top)
                x += CARD_W + GAP
        elif seat["hand_count"]:
            parts.append(back_svg(x, top, f"{seat['hand_count']} in hand"))
        y += ROW_H + 40 + PLACE_H
    parts += on_top([part for _, part in sorted(drawn)])     # drawn by place: rank order
    for row in key:
        parts.append(f'<g class="key" transform="translate({MARGIN},{y})">{"".join(row)}</g>')
        y += KEY_H
    parts.append("</svg>")
    return "".join(parts)


KEY_ITEMS = (("rect", CREATURE_FILL, "creature"), ("rect", BOOST_FILL, "equipment / location"),
             ("rect", BACK_FILL, "face down"), ("circle", CRYSTAL_FILL, "crystal won"),
             ("sign", "★", "mythic"), ("sign", "*", "called attribute (bold)"),
             ("sign", "1", "hand place: type it to pick the card"))
MARK_ITEM = ("mark", MARK, "a marked move: its rank, then its share or score")


def key_svg(width: float, marked: bool) -> list[list[str]]:
    """The key, in rows that fit ``width``: a swatch or sign, then its meaning (11 px text,
    about 6 px a character)."""
    rows, row, x = [], [], 0.0
    for shape, look, words in KEY_ITEMS + ((MARK_ITEM,) if marked else ()):
        size = 22 + 6 * len(words)
        if row and x + size > width - 2 * MARGIN:
            rows.append(row)
            row, x = [], 0.0
        if shape == "rect":
            row.append(f'<rect x="{x}" y="4" width="14" height="14" rx="3" fill="{look}" '
                       f'stroke="#424242"/>')
        elif shape == "circle":
            row.append(f'<circle cx="{x + 7}" cy="11" r="7" fill="{look}"/>')
        elif shape == "mark":
            row.append(f'<rect x="{x}" y="4" width="14" height="14" rx="3" fill="none" '
                       f'stroke="{look}" stroke-width="3"/>')
        else:
            row.append(f'<text x="{x + 7}" y="16" font-size="13" font-weight="bold" '
                       f'text-anchor="middle">{escape(look)}</text>')
        row.append(f'<text x="{x + 20}" y="15" font-size="11">{escape(words)}</text>')
        x += size + 14
    return rows + [row]


def card_mark(marked: tuple | None, x: float, y: float) -> list[tuple[int, list[str]]]:
    """A card's mark, if ``marked`` (rank index, style, mark, move text), with its rank
    index: the card outlined, a bar as long as the mark's weight along its foot, its rank
    and label under it."""
    if marked is None:
        return []
    rank, style, mark, text = marked
    body = [f'<rect class="mark" x="{x - 3}" y="{y - 3}" width="{CARD_W + 6}" '
            f'height="{CARD_H + 6}" rx="10" fill="none" stroke="{MARK}" '
            f'stroke-width="{style.width}"/>',
            weight_bar(x + 6, y + CARD_H - 12, CARD_W - 12, 7, mark.weight)]
    return [(rank, group(style, text, mark.label, body, x + CARD_W / 2, y + CARD_H + 20,
                         size=13))]


def weight_bar(x: float, y: float, length: float, height: float, weight: float) -> str:
    """A bar ``weight`` (0..1) of ``length`` long."""
    return (f'<rect class="line-bar" x="{x}" y="{y}" '
            f'width="{length * max(0.0, min(1.0, weight)):.1f}" height="{height}" '
            f'fill="{MARK}"/>')


def call_marks(calls: list, cards: CardSet, x: float, y: float) -> list[str]:
    """The marked calls in a row of boxes, each naming the attribute (with its gloss), a
    bar as long as its weight, its rank and label."""
    drawn = []
    for style, mark, text in calls:
        name = cards.attribute_label(payload_of(mark.move))
        body = [f'<rect class="mark" x="{x}" y="{y}" width="{CALL_W}" height="{CALL_H}" rx="6" '
                f'fill="white" stroke="{MARK}" stroke-width="{style.width * 0.6:.1f}"/>',
                f'<text x="{x + 8}" y="{y + 17}" font-size="12">call {escape(name)}</text>',
                weight_bar(x + 4, y + CALL_H - 5, CALL_W - 8, 3, mark.weight)]
        drawn.append(group(style, text, mark.label, body, x + CALL_W - 26, y + CALL_H + 8,
                           size=11))
        x += CALL_W + GAP
    return on_top(drawn)


def headline(observation: dict) -> str:
    """Whose view, rounds played (as the notation's ``round=``), the phase, and the call as
    far as it is decided."""
    rounds = observation["round"]
    call = ("the coin toss decides who calls first" if observation["phase"] in BEFORE_TOSS
            else f"caller {observation['caller']}, attribute {observation['attribute'] or '-'}")
    actor = f" ({observation['actor']})" if observation["actor"] else ""
    return (f"{observation['player']}'s view — {rounds} round{'' if rounds == 1 else 's'} "
            f"played, {observation['phase']}{actor}, {call}"
            + (", tie-break" if observation["tiebreak"] else ""))


def seat_line(seat: dict, you: bool) -> str:
    return (f"{seat['player']}{' (you)' if you else ''}: {seat['won']} crystals, value "
            f"{seat['value']}, deck {seat['deck_count']}, discard {len(seat['discard'])}"
            + (", boosted" if seat["boosted"] else "") + (", passed" if seat["passed"] else ""))

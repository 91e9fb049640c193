"""SVG diagram of one player's view (§5): their hand face up, the other hand as card backs with
its count, each table (a secret choice as a back), crystals won, piles and the call. Drawn
from the observation data, so it shows exactly what that player knows."""
from __future__ import annotations

from xml.sax.saxutils import escape

from .cards import CardSet

CARD_W, CARD_H, GAP, MARGIN, ROW_H = 112, 150, 10, 20, 190
FAMILY_FILL = "#fff8e1"
CREATURE_FILL, BOOST_FILL, BACK_FILL = "#e3f2fd", "#f1f8e9", "#5d4037"
CRYSTAL_FILL, MARK = "#7b1fa2", "#2e7d32"
LINE_CHARS = 16                 # characters of 11 px text that fit inside a card


def card_svg(cards: CardSet, number: int, x: float, y: float, cls: str,
             marked: bool = False) -> str:
    card = cards.card(number)
    fill = CREATURE_FILL if card.is_creature else BOOST_FILL
    stroke = f' stroke="{MARK}" stroke-width="4"' if marked else ' stroke="#424242"'
    lines = [*heading(number, card.name),
             ("neutral" if card.neutral else "/".join(card.families))
             + (" ★" if card.mythic else "")]
    for attribute, value in zip(cards.attributes, card.values):
        if card.is_creature or value:
            lines.append(f"{attribute[:5]} {'' if card.is_creature else '+'}{value}")
    text = "".join(f'<text x="{x + 6}" y="{y + 18 + 16 * i}" font-size="11">{escape(t)}</text>'
                   for i, t in enumerate(lines))
    return (f'<g class="{cls}" data-card="{number}"><title>#{number} {escape(card.name)}'
            f'</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" '
            f'fill="{fill}"{stroke}/>{text}</g>')


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


def svg(observation: dict, cards: CardSet, title: str, mark: int | None = None) -> str:
    """``observation`` is State.observation(player); ``mark`` a card number to outline."""
    seats = observation["seats"]
    widest = max(len(s["table"]) + 1 + (s["hand_count"] or 0) for s in seats) + 1
    width = 2 * MARGIN + max(widest * (CARD_W + GAP), 700)
    height = 2 * MARGIN + 40 + len(seats) * (ROW_H + 40)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif"><title>{escape(title)}</title>',
             f'<rect width="{width}" height="{height}" fill="{FAMILY_FILL}"/>',
             f'<text x="{MARGIN}" y="{MARGIN + 16}" font-size="16">{escape(headline(observation))}'
             f'</text>']
    y = MARGIN + 40
    for seat in seats:
        own = seat["hand"] is not None
        parts.append(f'<text x="{MARGIN}" y="{y + 14}" font-size="14">'
                     f'{escape(seat_line(seat, own))}</text>')
        for i in range(seat["won"]):
            parts.append(f'<circle class="crystal" cx="{width - MARGIN - 14 - 20 * i}" '
                         f'cy="{y + 9}" r="8" fill="{CRYSTAL_FILL}"/>')
        x, top = MARGIN, y + 24
        for number in seat["table"]:
            parts.append(card_svg(cards, number, x, top, "table", number == mark))
            x += CARD_W + GAP
        if seat["chosen"] == "hidden":
            parts.append(back_svg(x, top, "chosen"))
            x += CARD_W + GAP
        x += GAP * 3
        if own:
            for number in seat["hand"]:
                parts.append(card_svg(cards, number, x, top, "hand", number == mark))
                x += CARD_W + GAP
        elif seat["hand_count"]:
            parts.append(back_svg(x, top, f"{seat['hand_count']} in hand"))
        y += ROW_H + 40
    parts.append("</svg>")
    return "".join(parts)


def headline(observation: dict) -> str:
    attribute = observation["attribute"] or "-"
    return (f"{observation['player']}'s view — round {observation['round'] + 1}, "
            f"{observation['phase']} ({observation['actor']}), caller {observation['caller']}, "
            f"attribute {attribute}" + (", tie-break" if observation["tiebreak"] else ""))


def seat_line(seat: dict, own: bool) -> str:
    return (f"{seat['player']}{' (you)' if own else ''}: {seat['won']} crystals, value "
            f"{seat['value']}, deck {seat['deck_count']}, discard {len(seat['discard'])}"
            + (", boosted" if seat["boosted"] else "") + (", passed" if seat["passed"] else ""))

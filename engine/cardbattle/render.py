"""The card battle as a player sees it at the terminal: their hand as a table of names,
families and values (the called attribute highlighted), the table, crystals and pile counts,
and one line per finished round.

What a player may see follows §5 through the observation (observation.py): another player's
hand and a creature chosen in secret never reach the screen. The round log is replayed from
the moves the state was played through (``CardBattleState.played``) with the reference rules,
so it says exactly what happened and needs no bookkeeping of its own in the rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, CardSet
from .moves import M_BOOST, M_CALL, M_DRAW, M_PLAY, kind_of, payload_of
from .notation import PLAYERS, format_observation, format_position
from .observation import observe
from .position import (BOOST, CALL, CHANCE_PHASES, CHOOSE, DEAL, MULLIGAN, OVER, PHASE_NAMES,
                       REDEAL, REFILL, SEEK, TIEBREAK, TOSS, Position)
from .rules import boost_bonus, in_play, tie_value

BOLD, PLAIN = "\033[1;33m", "\033[0m"
UNREVEALED = frozenset({CALL, SEEK, CHOOSE})   # the round's creatures are not all shown yet
BEFORE_TOSS = frozenset({DEAL, MULLIGAN, REDEAL, TOSS})
DRAWS = {DEAL: "the hands are dealt", REDEAL: "the mulligan's new hand is drawn",
         TOSS: "the coin is tossed", SEEK: "a player with no creature draws",
         TIEBREAK: "tie-break cards are drawn", REFILL: "the hands are refilled"}
ACTIONS = {"mulligan": "to keep the hand or take the mulligan", "call": "to call an attribute",
           "choose": "to choose a creature", "boost": "to boost or pass"}


# -- the round log -----------------------------------------------------------------------------

@dataclass
class Round:
    """One round as everyone saw it (§5: calls, reveals, boosts and tie-break draws are
    public; draws into a hand and passes are not logged)."""
    number: int
    caller: int
    attribute: int
    creatures: dict = field(default_factory=dict)     # player -> card number
    boosts: list = field(default_factory=list)        # (player, card, bonus)
    tie_draws: list = field(default_factory=list)     # (player, card, value)

    def line(self, cards: CardSet, won_by: int | None) -> str:
        a = self.attribute
        parts = [f"round {self.number}: {PLAYERS[self.caller]} called "
                 f"{cards.attribute_label(a) if a >= 0 else '?'}"]
        if self.creatures:
            parts.append(", ".join(f"{PLAYERS[p]} #{n} {cards.card(n).name} "
                                   f"{cards.card(n).values[a]}"
                                   for p, n in sorted(self.creatures.items())))
        parts += [f"{PLAYERS[p]} boosted with #{n} {cards.card(n).name} +{bonus}"
                  for p, n, bonus in self.boosts]
        parts += [f"tie-break: {PLAYERS[p]} drew #{n} {cards.card(n).name} ({value})"
                  for p, n, value in self.tie_draws]
        parts.append(f"{PLAYERS[won_by]} took the crystal" if won_by is not None
                     else "void round, no crystal")
        return "; ".join(parts)


def round_log(state) -> list[str]:
    """One line per round finished since ``state``'s origin (see CardBattleState.played)."""
    origin, moves = state.played()
    replay = state.game.reference_state(origin.copy())
    cards = state.game.cardset
    lines: list[str] = []
    current: Round | None = None
    for move in moves:
        pos = replay.pos
        if current is None or kind_of(move) == M_CALL:
            current = Round(pos.round + 1, pos.caller,
                            payload_of(move) if kind_of(move) == M_CALL else pos.attribute)
        note(current, pos, cards, move)
        won = [seat.won for seat in pos.seats]
        finished = pos.round
        replay.play(move)
        if replay.pos.round > finished:
            winners = [p for p, seat in enumerate(replay.pos.seats) if seat.won > won[p]]
            lines.append(current.line(cards, winners[0] if winners else None))
            current = None
    return lines


def note(current: Round, pos: Position, cards: CardSet, move: int) -> None:
    """What ``move``, about to be played in ``pos``, adds to the round's public record."""
    kind, card = kind_of(move), payload_of(move)
    if kind == M_PLAY:
        current.creatures[pos.actor] = card
    elif kind == M_BOOST:
        target = in_play(pos.seats[pos.actor])
        current.boosts.append((pos.actor, card, boost_bonus(
            cards.card(card), cards.card(target) if target else None, pos.attribute)))
    elif kind == M_DRAW and pos.phase == TIEBREAK:
        current.tie_draws.append((pos.actor, card, tie_value(cards.card(card), pos.attribute)))


# -- the screen ---------------------------------------------------------------------------------

def columns(cards: CardSet) -> list[str]:
    """Short column heads for the attributes: the shortest prefix (3 letters at least) that
    tells them apart."""
    for width in range(3, max(len(a) for a in cards.attributes) + 1):
        heads = [a[:width] for a in cards.attributes]
        if len(set(heads)) == len(heads):
            return heads
    return list(cards.attributes)


def hand_table(numbers: list[int], cards: CardSet, called: int = -1, color: bool = False,
               places: bool = True) -> list[str]:
    """One row per card: place in hand (what the player may type; not with ``places``
    false), number, name, kind and families, then a value (creature) or bonus (boost
    card) per attribute, the ``called`` one marked."""
    heads = columns(cards)
    rows = [["", "#", "card", "kind / families"] + [
        h.upper() + "*" if a == called else h for a, h in enumerate(heads)]]
    for place, number in enumerate(numbers, 1):
        card = cards.card(number)
        values = [str(v) if card.is_creature else (f"+{v}" if v else ".")
                  for v in card.values]
        if called >= 0:
            values[called] += "*"
        rows.append([str(place), str(number), card.name, kind_text(card)] + values)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.rjust(w) if i in (0, 1) or i >= 4 else cell.ljust(w)
                 for i, (cell, w) in enumerate(zip(row, widths))]
        if color and called >= 0:
            cells[4 + called] = f"{BOLD}{cells[4 + called]}{PLAIN}"
        out.append("  " + "  ".join(cells[0 if places else 1:]).rstrip())
    return out


def kind_text(card: Card) -> str:
    families = "neutral" if card.neutral else "/".join(card.families)
    if card.is_creature:
        return families + (", mythic" if card.mythic else "")
    return f"{card.kind}, {families}"


def table_text(seat: dict, cards: CardSet, revealed: bool) -> str:
    """A seat's cards on the table: the creature, boosts, tie-break cards, and once the
    creatures are revealed the value in the called attribute."""
    if seat["chosen"] == "hidden":
        return "a creature chosen face down"
    if not seat["table"]:
        return "nothing"
    parts = []
    for number in seat["table"]:
        card = cards.card(number)
        role = ("creature" if number == seat["chosen"] else
                "tie-break" if number == seat["tie_card"] else
                "boost" if not card.is_creature else "earlier tie-break")
        parts.append(f"#{number} {card.name} ({role})")
    value = f"; value {seat['value']}" if revealed and seat["chosen"] else ""
    return ", ".join(parts) + value


def screen(state, viewer: int | None, color: bool = False, notation: bool = True) -> str:
    """The screen for ``viewer`` (None: the referee, who sees every hand), ending with the
    position string (the viewer's view) if ``notation``."""
    pos = state.to_position()
    cards = state.game.cardset
    seen = observe(pos, cards, 0 if viewer is None else viewer)
    called = pos.attribute
    revealed = pos.phase not in UNREVEALED
    lines = [headline(pos, cards, state.to_move_name(), state.game.options.target),
             f"card set: {cards.label()}",
             "attributes: " + ", ".join(cards.attribute_label(a)
                                        for a in range(len(cards.attributes)))]
    for p, seat in enumerate(seen["seats"]):
        you = " (you)" if p == viewer else ""
        plural = "" if seat["won"] == 1 else "s"
        lines.append(f"{seat['player']}{you}: {seat['won']} crystal{plural}"
                     + (f", {seat['tokens']} held" if pos.seats[p].tokens else "")
                     + f"; hand {seat['hand_count']}, deck {seat['deck_count']}, discard "
                       f"{len(seat['discard'])}; table: {table_text(seat, cards, revealed)}")
    for p in range(pos.players):
        if viewer is None or p == viewer:
            picking = p == viewer and p == pos.actor and pos.phase in (CHOOSE, BOOST)
            lines.append(f"{PLAYERS[p]}'s hand" + (" (type a move, the place or the start of "
                                                   "a name)" if picking else "") + ":")
            lines += hand_table(pos.seats[p].hand, cards, called, color)
    log = round_log(state)
    if log:
        lines.append("rounds:")
        lines += [f"  {line}" for line in log]
    if not notation:
        return "\n".join(lines)
    if viewer is None:
        lines.append(f"position: {format_position(pos, cards.attributes)}")
    else:
        lines.append(f"{PLAYERS[viewer]}'s view: "
                     f"{format_observation(pos, cards.attributes, viewer)}")
    return "\n".join(lines)


def headline(pos: Position, cards: CardSet, to_move: str, target: int) -> str:
    """Rounds played, as the notation's ``round=`` counts them (the log numbers them from
    1), then the call as far as it is decided (before the coin toss nobody calls yet) and
    who acts or what is drawn."""
    played = f"{pos.round} round{'' if pos.round == 1 else 's'} played (first to {target} " \
             f"crystals)"
    if pos.phase == OVER:
        return f"{played}: the game is over"
    if pos.phase in BEFORE_TOSS:
        called = "nobody calls yet (a coin toss decides who calls first)"
    elif pos.attribute >= 0:
        called = f"{PLAYERS[pos.caller]} called {cards.attribute_label(pos.attribute)}"
    else:
        called = f"{PLAYERS[pos.caller]} calls"
    tie = ", tie-break" if pos.tiebreak else ""
    action = (DRAWS[pos.phase] if pos.phase in CHANCE_PHASES else
              f"{to_move} {ACTIONS.get(PHASE_NAMES[pos.phase], 'to act')}")
    return f"{played}: {called}{tie}; {action}"

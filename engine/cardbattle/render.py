"""A text view of the referee's position: crystals, hands, table and piles per player."""
from __future__ import annotations

from .cards import CardSet
from .notation import PLAYERS, format_position
from .position import PHASE_NAMES, Position


def card_line(cards: CardSet, number: int) -> str:
    card = cards.card(number)
    if card.is_creature:
        stats = " ".join(f"{a[:3]}{v}" for a, v in zip(cards.attributes, card.values))
        mythic = " mythic" if card.mythic else ""
        return f"#{number} {card.name} [{'/'.join(card.families)}{mythic}] {stats}"
    bonus = " ".join(f"{a[:3]}+{v}" for a, v in zip(cards.attributes, card.values) if v)
    families = "neutral" if card.neutral else "/".join(card.families)
    return f"#{number} {card.name} ({card.kind}, {families}) {bonus}"


def render(pos: Position, cards: CardSet) -> str:
    attribute = cards.attributes[pos.attribute] if pos.attribute >= 0 else "-"
    lines = [f"round {pos.round + 1}, {PHASE_NAMES[pos.phase]} ({PLAYERS[pos.actor]}), caller "
             f"{PLAYERS[pos.caller]}, attribute {attribute}"
             + (", tie-break" if pos.tiebreak else ""),
             f"card set: {cards.label()}"]
    for p, seat in enumerate(pos.seats):
        lines.append(f"{PLAYERS[p]}: {seat.won} crystals won"
                     + (f", {seat.tokens} held" if seat.tokens else "")
                     + f"; deck {len(seat.deck)}, discard {len(seat.discard)}, value "
                       f"{seat.value}")
        for number in seat.table:
            mark = " (chosen)" if number == seat.chosen else \
                " (tie-break)" if number == seat.tie_card else ""
            lines.append(f"  table {card_line(cards, number)}{mark}")
        for number in seat.hand:
            lines.append(f"  hand  {card_line(cards, number)}")
    lines.append(f"position: {format_position(pos, cards.attributes)}")
    return "\n".join(lines)



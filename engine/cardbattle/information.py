"""A player's information state (§5): everything that player has seen since the deal, in
order, read from the rules page. The kernel keeps the same record as a running hash
(``_fast.pyx``, ``remember``), checked against this (tests/test_cardbattle_information.py).

The record is a sequence of events, two kinds:

* ``view``: the player's observation (notation.format_observation) at a node, before the
  move made there. It carries every public fact (calls, reveals, boosts, tie-break cards,
  discards, pile sizes, so reshuffles, crystals) and the player's own hand.
* ``move``: a move as the player sees it (``P2 draw:?``, ``P1 play:?`` for another player's
  draw into hand and secret choice; tie-break draws, calls, boosts and the mulligan
  decisions in full; the player's own moves in full).

Two things are left out so that nothing leaks: another player's pass (§5: it looks the same
as having no usable boost card, where no move is made at all), and the view at another
player's boost decision (the node exists only when that player holds a playable boost card).
The view of the current node closes the record, unless it is such a decision.
"""
from __future__ import annotations

from .moves import M_DRAW, M_PASS, M_PLAY, M_TOSS, format_move, kind_of
from .notation import PLAYERS, format_observation
from .position import BOOST, TIEBREAK, Position


def hidden_decision(pos: Position, player: int) -> bool:
    """§5: another player deciding on a boost; whether they could boost is hidden."""
    return pos.phase == BOOST and pos.actor != player


def seen_move(pos: Position, attributes: tuple[str, ...], move: int, player: int) -> str | None:
    """``move`` (about to be played in ``pos``) as ``player`` sees it, or None when they
    cannot tell that it was made: another player's pass. Another player's draw into hand
    and secret choice show as ``?``; tie-break draws are revealed (§4.6)."""
    kind = kind_of(move)
    own = pos.actor == player
    if kind == M_PASS and not own:
        return None
    text = format_move(move, attributes, PLAYERS)
    if not own and (kind == M_PLAY or (kind == M_DRAW and pos.phase != TIEBREAK)):
        text = text.partition(":")[0] + ":?"
    return text


def seen_view(pos: Position, attributes: tuple[str, ...], player: int) -> str | None:
    """The player's observation at ``pos``, or None at another player's boost decision."""
    return None if hidden_decision(pos, player) else format_observation(pos, attributes, player)


def ply_record(pos: Position, attributes: tuple[str, ...], move: int) -> tuple:
    """What each player takes from the ply that plays ``move`` in ``pos``: their view before
    it and the move as they see it, after its actor (the toss has none); None where they
    see nothing."""
    record = []
    for p in range(pos.players):
        seen = seen_move(pos, attributes, move, p)
        if seen is not None and kind_of(move) != M_TOSS:
            seen = f"{PLAYERS[pos.actor]} {seen}"
        record.append((seen_view(pos, attributes, p), seen))
    return tuple(record)


def events(records: list[tuple], pos: Position, attributes: tuple[str, ...],
           player: int) -> tuple:
    """The information state of ``player``: ``(kind, text)`` events from the ply records
    since the deal and the position now."""
    out = []
    for record in records:
        view, move = record[player]
        if view is not None:
            out.append(("view", view))
        if move is not None:
            out.append(("move", move))
    now = seen_view(pos, attributes, player)
    if now is not None:
        out.append(("view", now))
    return tuple(out)

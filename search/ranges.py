"""A range: the probability of each private state another player may hold, given what one
player (the observer) has seen and the strategy being searched (issue 43, item 3).

By Bayes, a history the observer cannot tell from the true one weighs chance's probability of
its draws times the others' probability of their moves under ``strategy`` (the observer's own
moves are the same in every such history, so they cancel); the range of a private state is
the normalised sum over the histories that end in it. This walks those histories forward from
the state's origin, ply by ply, dropping a history as soon as the observer's record of it
(``information_state``) stops being a beginning of the true one, and merging histories that
reach the same position with the same information sets of the others (``information_set_key``:
the order of their draws between two decisions forgotten; their futures and their strategy
are the same), so the work is the number of worlds consistent with the observer's record
(8,568 hands at the first decision of two ``titas`` decks), not of histories (18·17·16·15·14).
Game-agnostic: the game's ``Ranges`` feature only names the private states.
Exact, in plain Python (correctness first): the small configurations, where it equals the
exact solver's reach probabilities (tests/test_ranges.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Mapping

from crystalpick.engine import GameError, Ranges, require

# The strategy searched: the mover's probability for each legal move of a state, read from
# the mover's information set only.
Strategy = Callable[[object], Mapping[int, float]]
DEFAULT_MAX_WORLDS = 200_000


class TooManyWorlds(GameError):
    """More worlds are consistent with the observer's record than the walk may hold."""


@dataclass(frozen=True)
class Range:
    player: int                             # whose private states
    probabilities: dict[Hashable, float]    # every possible private state; those ruled out 0
    worlds: int                             # the most worlds held at one ply


def origin(state):
    """The state ``state`` was made from (its moves since undone): where the walk starts,
    which both players must know in full (the card battle's ``setup_state``)."""
    start = state.clone()
    for _ in state.played_moves():
        start.undo()
    return start


def range_of(state, observer: int, strategy: Strategy, player: int | None = None,
             max_worlds: int = DEFAULT_MAX_WORLDS) -> Range:
    """The range of ``player`` (default: the observer's opponent in a two-player game) as
    ``observer`` knows it in ``state``, the other players moving by ``strategy``;
    :class:`TooManyWorlds` past ``max_worlds`` worlds at one ply."""
    game = require(state.game, Ranges, "a range")
    if player is None:
        if len(game.player_names) != 2:
            raise GameError("name the player whose range is wanted: the game has more than "
                            "two players")
        player = 1 - observer
    target = state.information_state(observer)
    others = [p for p in range(len(game.player_names)) if p != observer]
    layer = {None: (origin(state), 1.0)}
    found: dict[Hashable, float] = {}
    most = 1
    while layer:
        following: dict = {}
        for world, weight in layer.values():
            if world.information_state(observer) == target:
                key = game.private_state(world, player)
                found[key] = found.get(key, 0.0) + weight
                continue
            if world.is_terminal():
                continue
            for move, probability in _moves(world, observer, strategy):
                if probability <= 0.0:
                    continue
                child = world.clone()
                child.play(move)
                seen = child.information_state(observer)
                if seen != target[:len(seen)]:
                    continue
                key = (child.hash_key(), len(seen),
                       tuple(child.information_set_key(p) for p in others))
                held = following.get(key)
                following[key] = (child, weight * probability + (held[1] if held else 0.0))
        if len(following) > max_worlds:
            raise TooManyWorlds(f"more than {max_worlds:,} worlds are consistent with what "
                                f"player {observer + 1} has seen")
        most = max(most, len(following))
        layer = following
    total = sum(found.values())
    if total <= 0.0:
        raise GameError("the strategy gives the history the observer saw no probability")
    probabilities = {key: 0.0 for key in game.private_states(state, player)}
    probabilities.update({key: weight / total for key, weight in found.items()})
    return Range(player, probabilities, most)


def _moves(world, observer: int, strategy: Strategy):
    """Each move of ``world`` with its probability: chance's, the strategy's for another
    player, 1 for the observer's own (only the one they made survives the walk)."""
    if world.is_chance_node():
        return world.chance_outcomes()
    if world.current_player() == observer:
        return [(move, 1.0) for move in world.legal_moves()]
    return list(strategy(world).items())

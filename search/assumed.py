"""The range a search assumed: the other player's private states (the card battle: hands)
as its simulations drew them, so that an analysis shows beside its mixed strategy what it
believed, never a range it did not use (issue 43, item 5).

An information-set search draws each world with its playout policy's ``determinize`` from
a kernel that knows the player's record (``State.knowing_kernel``; with ``infer``,
conditioned on the other player's past play). Drawing ``samples`` more worlds the same way,
from the search's seed, estimates that distribution: each private state's share of the
draws, which the game names (``Ranges``). Reproducible, and cheap (4,096 draws take a few
tens of milliseconds at full size). Game-agnostic: the game's ``Ranges`` feature alone knows
what a private state is.
"""
from __future__ import annotations

from crystalpick.engine import Ranges, provides
from crystalpick.engine.evaluation import PlayoutPolicy

from .result import AssumedRange

SAMPLES = 4096          # draws a range is estimated from (a share's 95% margin: under 1.6%)


def drawn_range(state, kernel, policy, observer: int, seed: int, method: str, shown: int,
                samples: int = SAMPLES) -> AssumedRange | None:
    """The other player's range as ``kernel`` (the searched one, unchanged) redrawn for
    ``observer`` by ``policy``'s determinize (None: the kernel's own, uniform over what it
    knows) gives it over ``samples`` draws from ``seed``, its ``shown`` likeliest named;
    None for a game without ``Ranges`` or with more than two players."""
    game = state.game
    if not provides(game, Ranges) or len(game.player_names) != 2:
        return None
    player = 1 - observer
    policy = policy or PlayoutPolicy()
    counts: dict = {}
    world = None
    for draws, drawn in policy.drawn_worlds(kernel, observer, player, samples, seed).values():
        world = state.at_kernel(drawn)
        key = game.private_state(world, player)
        counts[key] = counts.get(key, 0) + draws
    likeliest = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:shown]
    return AssumedRange(
        player=player, player_name=game.player_names[player], noun=game.private_state_name,
        possible=game.private_state_count(world, player), method=method, samples=samples,
        distinct=len(counts),
        hands=tuple((key, game.private_state_text(key), draws / samples)
                    for key, draws in likeliest))

"""The range a search assumed: the other player's private states (the card battle: hands)
as its simulations drew them, so that an analysis shows beside its mixed strategy what it
believed, never a range it did not use (issue 43, item 5).

An information-set search draws each world with its playout policy's ``determinize`` from
a kernel that knows the player's record (``State.knowing_kernel``; with ``infer``,
conditioned on the other player's past play). Drawing ``samples`` more worlds the same way,
from the search's seed, estimates that distribution: each private state's share of the
draws, which the game names (``Ranges``). Reproducible, and cheap: the draws are counted in
C and only the likeliest read as states (a few milliseconds at full size, from a view too).
Game-agnostic: the game's ``Ranges`` feature alone knows what a private state is.

A search that learns the whole game's strategy from the deal (mccfr from the history) draws
nothing: every hand is walked with its chance probability. Its range at the player's
information set is the one its own strategy implies, which ``bayes_range`` computes exactly
(search/ranges.py: Bayes from the deal under the searched strategy, issue 43 item 3), where
the histories the player cannot tell apart are few enough to walk (the small configurations).
"""
from __future__ import annotations

from crystalpick.engine import GameError, Ranges, provides
from crystalpick.engine.evaluation import PlayoutPolicy

from .ranges import range_of
from .result import AssumedRange

SAMPLES = 4096          # draws a range is estimated from (a share's 95% margin: under 1.6%)
BAYES_WORLDS = 2_000    # histories a Bayes range holds at one ply: the small configurations
                        # need tens; a full-size deal (thousands of hands) gives up at once


def drawn_range(state, kernel, policy, observer: int, seed: int, method: str, shown: int,
                samples: int = SAMPLES) -> AssumedRange | None:
    """The other player's range as ``kernel`` (the searched one, unchanged) redrawn for
    ``observer`` by ``policy``'s determinize (None: the kernel's own, uniform over what it
    knows) gives it over ``samples`` draws from ``seed``, its ``shown`` likeliest named;
    None for a game without ``Ranges`` or with more than two players. The draws are counted
    by what the other player observes in them (their private state, the rest being public)
    and only the likeliest are read as states: a view allows thousands of hands."""
    game = state.game
    if not provides(game, Ranges) or len(game.player_names) != 2:
        return None
    player = 1 - observer
    policy = policy or PlayoutPolicy()
    counts, _ = policy.drawn_worlds(kernel, observer, player, samples, seed)
    likeliest = sorted(counts.items(), key=lambda item: (-item[1][0], item[0]))[:max(shown, 1)]
    _, worlds = policy.drawn_worlds(kernel, observer, player, samples, seed,
                                    [first for _, (_, first) in likeliest])
    shares: dict = {}
    for key, (draws, first) in likeliest:
        if worlds[first].observation_key_of(player) != key:
            raise GameError("the determinizer drew other worlds again from the same seed")
        world = state.at_kernel(worlds[first])
        private = game.private_state(world, player)
        shares[private] = shares.get(private, 0) + draws / samples
    name = game.player_names[player]
    if world.observation_string(observer) != state.observation_string(observer):
        # the determinizer took back a secret choice the observer waits on (kernel.pxd)
        method += f"; {name}'s secret choice taken back, the search makes it again"
    hands = sorted(shares.items(), key=lambda item: (-item[1], item[0]))[:shown]
    return AssumedRange(
        player=player, player_name=name, noun=game.private_state_name,
        possible=game.private_state_count(world, player), method=method, samples=samples,
        distinct=len(counts),
        hands=tuple((key, game.private_state_text(key), share) for key, share in hands))


def bayes_range(state, observer: int, strategy, method: str, shown: int,
                max_worlds: int = BAYES_WORLDS) -> AssumedRange | None:
    """The other player's range as ``observer`` knows it in ``state``, by Bayes from the
    game's history with every player moving by ``strategy`` (search/ranges.py ``Strategy``),
    its ``shown`` likeliest named; exact, so ``samples`` is None. None for a game without
    ``Ranges`` or with more than two players, for a history no state both players know
    starts (a position given mid-game: ``Ranges.with_open_start``), where ``strategy`` gives
    the history the player saw no probability, or past ``max_worlds`` histories at one ply
    (a full-size game from the deal)."""
    game = state.game
    if not provides(game, Ranges) or len(game.player_names) != 2:
        return None
    try:
        found = range_of(state, observer, strategy, max_worlds=max_worlds)
    except GameError:           # TooManyWorlds, or a history the strategy gives nothing
        return None
    player = found.player
    hands = sorted(((key, share) for key, share in found.probabilities.items() if share > 0),
                   key=lambda item: (-item[1], item[0]))
    return AssumedRange(
        player=player, player_name=game.player_names[player], noun=game.private_state_name,
        possible=len(found.probabilities), method=method, samples=None, distinct=len(hands),
        hands=tuple((key, game.private_state_text(key), share)
                    for key, share in hands[:max(shown, 1)]))


def searched_strategy(search):
    """A search's whole-game average strategy as a range reads it (search/ranges.py
    ``Strategy``): the mover's at their information set, uniform where no iteration met it
    (CFR's start). ``search`` answers ``average_strategy(key, player)`` (search/mccfr.pyx)."""
    def strategy(state):
        mover = state.current_player()
        found = search.average_strategy(state.information_set_key(mover), mover)
        if found is None:
            moves = state.legal_moves()
            return {move: 1.0 / len(moves) for move in moves}
        return found
    return strategy

"""The other player's range carried through a game, for a search that draws its worlds by it
(issue 43, item 3): Bayes from the deal (search/ranges.py ``RangeTracker``) instead of
uniform draws over what the record allows, or the playout policy's hard inferences.

The strategy the other player is assumed to play is the game's playout policy softened:
its move with probability ``1 - epsilon``, uniform over the legal moves with ``epsilon``
(``epsilon`` keeps every hand the policy would not have played possible, so a model that is
wrong about the real player rules nothing out). It reads only the mover's observation, so
the tracker merges worlds by position (``markov``): a few thousand hands at full size, walked
in C (``PolicyStrategy``: 0.08 s a decision on average at full size, docs/research/
cardbattle-ranges.md).
A range needs the game's history from a state both players know in full: a game record from
the deal, or one from a dealt position (a match's games), whose deal the tracker puts back
(``Ranges.with_open_start``); a position given alone has none, and the search draws from the
view.

A searcher may also ask for its own player's range as the other player knows it (re-solving
with both ranges: search/mccfr.pyx ``public``): the walk holds the other player's hidden
cards as they are, but what it gives does not depend on them, since the model reads only the
mover's observation and each player draws from their own deck (tests/test_beliefs.py)."""
from __future__ import annotations

from crystalpick.engine import GameError, Ranges, provides

from .range_walk import PolicyStrategy
from .ranges import Range, RangeTracker

MODEL_EPSILON = 0.1     # the assumed strategy's uniform share


class Beliefs:
    """One tracker per observer, carried from decision to decision of one game and started
    again when a state does not continue it (another game)."""

    def __init__(self, epsilon: float = MODEL_EPSILON):
        self.epsilon = epsilon
        self.trackers: dict[tuple, RangeTracker] = {}

    def range_of(self, state, observer: int) -> Range | None:
        """The other player's range as ``observer`` knows it in ``state``; None where none
        can be had here: no history, or more worlds than the walk holds. A game that
        declares no ranges, or has more than two players, is refused (a GameError): an
        engine asked to draw by a range says it cannot rather than drawing otherwise."""
        game = state.game
        if not provides(game, Ranges) or len(game.player_names) != 2:
            raise GameError(f"range=true draws by the other player's range, and {game.name} "
                            "declares none (only two-player games with hidden hands do)")
        if not state.played_moves():
            return None
        key = (game.identity, observer)
        tracker = self.trackers.get(key)
        try:
            if tracker is not None:
                return tracker.advance(state)
        except GameError:
            pass                    # another game: start again below
        try:
            tracker = RangeTracker(state, observer,
                                   PolicyStrategy(game.playout_policy(), self.epsilon),
                                   markov=True)
            self.trackers[key] = tracker
            return tracker.advance(state)
        except GameError:           # too many worlds, or a history the model rules out
            self.trackers.pop(key, None)
            return None

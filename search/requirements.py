"""What a searcher requires of a game, as data read against the game's declared
``Capabilities`` (engine/game.py), so a refusal comes from the declaration, never from the
searcher's name.

Each engine (search/engines/) and the df-pn solver (search/solve.py) declare a tuple of
:class:`Requirement`; :func:`refuse` raises the first one the game does not meet, as one
line that names the searcher, the game, what the game has and what to use instead.
"""
from __future__ import annotations

from dataclasses import dataclass

from crystalpick.engine.game import GameError


@dataclass(frozen=True)
class Requirement:
    """The game's capability ``capability`` (an attribute of ``Capabilities``) must be
    ``needed``; otherwise the searcher, which searches ``searches``, cannot ``verb`` it and
    the refusal ends with ``advice`` (where to turn instead, with its leading punctuation)."""
    capability: str
    needed: bool
    searches: str
    advice: str
    verb: str = "play"

    def met_by(self, game) -> bool:
        return getattr(game.capabilities, self.capability) == self.needed

    def refusal(self, searcher: str, game) -> str:
        return (f"{searcher} cannot {self.verb} {game.name}: {self.searches} and {game.name} "
                f"{what_it_has(game.capabilities, self.capability)}{self.advice}")


def what_it_has(capabilities, capability: str) -> str:
    """How a game falls short of ``capability``, in its own words: a perfect-information
    searcher names what is hidden, an information-set searcher that nothing is."""
    if capability == "perfect_information":
        present = [name for name, flag in (("hidden information", capabilities.hidden_information),
                                           ("simultaneous moves", capabilities.simultaneous))
                   if flag]
        return f"has {' and '.join(present)}"
    if capability == "hidden_information":
        return "hides nothing"
    words = capability.replace("_", " ")
    return f"has {words}" if getattr(capabilities, capability) else f"has no {words}"


def refuse(searcher: str, requirements: tuple[Requirement, ...], game) -> None:
    """A :class:`GameError` for the first of ``requirements`` that ``game`` does not meet."""
    for requirement in requirements:
        if not requirement.met_by(game):
            raise GameError(requirement.refusal(searcher, game))


# Minimax and UCT walk states as if every player saw them whole: for a game with hidden
# information or a secret simultaneous choice that would let a player read the others' cards.
PERFECT_INFORMATION = Requirement(
    "perfect_information", True, "it searches perfect-information games only",
    "; use ismcts (the information-set searcher), greedy or random")
# ISMCTS samples what the searching player cannot see: a game that hides nothing has nothing
# to sample, and mcts searches it better.
HIDDEN_INFORMATION = Requirement(
    "hidden_information", True, "it searches hidden-information games",
    "; use mcts or alphabeta")
# df-pn proves wins and losses: a chance event has no proven outcome.
NO_CHANCE = Requirement(
    "chance", False, "df-pn searches games without chance",
    " (use analyse, whose alpha-beta and MCTS handle it)", verb="prove")

"""The rule options (every Decision of the rules page, with its default) and their values as
one typed record that both implementations read."""
from __future__ import annotations

from dataclasses import dataclass

from ..game import RuleOption


def numbers(low: int, high: int, default: int) -> tuple[str, ...]:
    """Choices ``low``..``high`` with the default first."""
    return (str(default),) + tuple(str(n) for n in range(low, high + 1) if n != default)


RULE_OPTIONS = (
    RuleOption("decklists", ("open",), "open",
               "§2: both players know both deck lists (not their order); a hidden-list mode "
               "is not implemented"),
    RuleOption("no-creature", ("draw", "forfeit"), "draw",
               "§4.2: a player without a creature in hand draws until one comes, or loses "
               "the round"),
    RuleOption("boost-order", ("lowest-first", "caller-order"), "lowest-first",
               "§4.4: which lower player boosts first: the lowest value (ties from the caller "
               "in seat order), or the first lower player from the caller in seat order"),
    RuleOption("tie-card", ("creature", "zero"), "creature",
               "§4.6: a tie-break draw that is not a creature is discarded and drawn again, "
               "or counts 0"),
    RuleOption("tie-boosts", ("no", "yes"), "no",
               "§4.6: boost cards may be played in a tie-break too (still one per round)"),
    RuleOption("refill", ("five", "one", "none"), "five",
               "§4.8: after clean-up each player draws back up to 'hand' cards, draws 1, or "
               "draws nothing"),
    RuleOption("deck-out", ("reshuffle", "lose"), "reshuffle",
               "§4.9: a draw from an empty deck reshuffles the discard pile, or loses the game"),
    RuleOption("crystals", ("bank", "stake"), "bank",
               "§6: crystals come from a common supply, or each loser of a round pays one of "
               "their own to the winner (a player with none left is out)"),
    RuleOption("target", numbers(1, 15, 8), "8", "§6: crystals to win"),
    RuleOption("hand", numbers(1, 7, 5), "5",
               "small-game option (§6): cards drawn at setup and a mulligan, kept by "
               "refill=five"),
    RuleOption("deck-minimum", numbers(1, 15, 15), "15",
               "small-game option (§6): the smallest legal deck"),
    RuleOption("max-rounds", ("100", "50", "20", "10"), "100",
               "engineering limit (§6): a game still running after this many rounds is a draw"),
)


@dataclass(frozen=True)
class Options:
    draw_for_creature: bool
    lowest_first: bool
    tie_creature_only: bool
    tie_boosts: bool
    refill: str
    reshuffle: bool
    stake: bool
    target: int
    hand: int
    max_rounds: int

    @classmethod
    def from_rules(cls, rules: dict) -> "Options":
        return cls(draw_for_creature=rules["no-creature"] == "draw",
                   lowest_first=rules["boost-order"] == "lowest-first",
                   tie_creature_only=rules["tie-card"] == "creature",
                   tie_boosts=rules["tie-boosts"] == "yes",
                   refill=rules["refill"], reshuffle=rules["deck-out"] == "reshuffle",
                   stake=rules["crystals"] == "stake", target=int(rules["target"]),
                   hand=int(rules["hand"]), max_rounds=int(rules["max-rounds"]))

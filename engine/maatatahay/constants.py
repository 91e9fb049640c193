"""Numbers and names fixed by the rules page itself (not component data, which is a tileset's).

Shared by both implementations, the notation and the kernel, so a number lives in one place.
"""
from __future__ import annotations

from ..game import RuleOption

SPIRIT_TOTAL, ENERGY_TOTAL = 15, 45          # section 1: 60 crystals
BAG_SPIRIT, BAG_ENERGY = 13, 13              # section 2.2
STORAGE_START = 1                            # of each colour, per player
STORAGE_LIMIT = 4                            # section 4.5, at the end of a turn
RELIC_DRAWS = 2                              # section 4.3
TEMPLE_BASE_COST = 4                         # cost max(1, 4 - k)
DEATH_LIMIT = 6                              # section 7
PAIRS_ON_OFFER = 3                           # section 2.4

# The decision points and chance events of section 6, in the order a round visits them,
# then the chance events of the setup (section 2): layout, a crystal per cell, the first
# three pairs, the coin toss.
# `return` (excess storage back to the bag) only exists under storage-excess=discard.
PHASES = ("pair", "order", "place", "draw", "load", "fight", "refill", "over",
          "layout", "crystals", "reveal", "toss", "return")
(PAIR, ORDER, PLACE, DRAW, LOAD, FIGHT, REFILL, OVER, LAYOUT, CRYSTALS, REVEAL, TOSS,
 RETURN) = range(len(PHASES))
CHANCE_PHASES = (DRAW, REFILL, LAYOUT, CRYSTALS, REVEAL, TOSS)

TRIBE_LETTERS = "BW"

# Options that change play (written into positions when not default); `layout` only changes
# the setup, so positions never carry it.
PLAY_OPTIONS = (
    RuleOption("temple-discount", ("friendly", "any"), "friendly",
               "which orthogonally adjacent tiles lower a temple's cost max(1, 4-k): friendly "
               "living warriors (BGA summary) or any tile (Japanese guide)"),
    RuleOption("death-limit", ("total", "either"), "total",
               "total: the game ends when 6 warriors have died in all, the Spirit track's end "
               "(Japanese guide: '6 in total'; both sources count both sides' dead on the "
               "track); either: when either player has lost 6 (BGA summary's literal words)"),
    RuleOption("relic-scoring", ("progressive", "order"), "progressive",
               "progressive: a player's 1st..5th relic is worth 1..5; order: the k-th relic "
               "taken in the game is worth k"),
    RuleOption("fight-order", ("active", "placer"), "active",
               "who orders several simultaneous fights: the active player, who chose the "
               "pair (Japanese guide: the turn player); placer: the player who just placed "
               "(BGA summary is silent)"),
    RuleOption("dead-spirit", ("transfer", "remove"), "transfer",
               "a dead warrior's Spirit crystals: transfer onto the warrior placed this turn "
               "(BGA summary), or remove them from the game (Japanese guide: every crystal "
               "on a dead warrior leaves the game); its Energy returns to the supply either "
               "way"),
    RuleOption("storage-excess", ("load", "discard"), "load",
               "storage over 4 at the end of a turn: load the excess onto the new warrior "
               "(colours chosen), or discard: return the excess to the bag instead (colours "
               "chosen; no source, a reading the rules page offers)"),
)
PLAY_DEFAULTS = {o.name: o.default for o in PLAY_OPTIONS}

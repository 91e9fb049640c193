"""Rules as pure functions of a Position (sections 4, 5 and 7): strength, surrounding,
fights and who orders them, storage limits, temple costs, chance draws, end and scoring.

The reference implementation plays with them, and the diagram uses them to show strengths
and scores; the Cython kernel has its own C versions, checked against these by the tests.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

from .board import CELLS, DIAGONAL, FACINGS, NAMES, NEIGHBOUR, ORTHOGONAL
from .constants import DEATH_LIMIT, RELIC_DRAWS, STORAGE_LIMIT, TEMPLE_BASE_COST
from .moves import format_crystals
from .position import EMPTY, Position
from .tileset import TRIBES


# -- section 3.2: who chooses the order -------------------------------------------------------

def order_chooser(pos: Position) -> int:
    """The player whose tile in the chosen pair is weaker; on a tie the active player."""
    balan, wazu = (pos.tileset.tiles[t].strength for t in pos.chosen)
    if balan == wazu:
        return pos.active
    return 0 if balan < wazu else 1


# -- section 5: who orders several fights ---------------------------------------------------

def fight_chooser(pos: Position) -> int:
    """The active player, who chose the pair (``fight-order=active``, the Japanese guide), or
    the player who just placed (``placer``)."""
    return pos.active if pos.options["fight-order"] == "active" else pos.placer()


# -- section 4.5: storage over 4 -------------------------------------------------------------

def storage_excess(pos: Position, player: int) -> int:
    """Crystals over the limit of 4 in ``player``'s storage."""
    return max(0, pos.storage_spirit[player] + pos.storage_energy[player] - STORAGE_LIMIT)


def load_choices(pos: Position, player: int) -> list[tuple[int, int]]:
    """(spirit, energy) the player may move onto the new warrior: under
    ``storage-excess=load`` at most 4 may stay in storage; under ``discard`` any amount,
    since what stays over 4 goes back to the bag next."""
    spirit, energy = pos.storage_spirit[player], pos.storage_energy[player]
    keep_any = pos.options["storage-excess"] == "discard"
    return [(s, e) for s in range(spirit + 1) for e in range(energy + 1)
            if keep_any or (spirit - s) + (energy - e) <= STORAGE_LIMIT]


def return_choices(pos: Position, player: int) -> list[tuple[int, int]]:
    """(spirit, energy) returned to the bag: exactly the excess over 4, colours chosen."""
    excess = storage_excess(pos, player)
    spirit, energy = pos.storage_spirit[player], pos.storage_energy[player]
    return [(s, excess - s) for s in range(min(excess, spirit) + 1) if excess - s <= energy]


# -- section 5: strength, surrounding --------------------------------------------------------

def is_warrior(pos: Position, cell: int, player: int | None = None) -> bool:
    """A living warrior (of ``player`` if given) stands on ``cell``."""
    return (cell >= 0 and pos.tile[cell] != EMPTY and pos.alive[cell]
            and (player is None or pos.tribe(cell) == player))


def strength_parts(pos: Position, cell: int) -> tuple[int, int, int]:
    """(printed strength, Energy crystals on it, live ability bonus)."""
    tile = pos.tileset.tiles[pos.tile[cell]]
    me = tile.tribe
    bonus = 0
    if tile.ability == "elder":
        bonus = pos.tileset.elder * sum(is_warrior(pos, NEIGHBOUR[cell][d], me)
                                        for d in ORTHOGONAL)
    elif tile.ability == "convert":
        bonus = pos.tileset.convert * sum(is_warrior(pos, NEIGHBOUR[cell][d], 1 - me)
                                          for d in DIAGONAL)
    return tile.strength, pos.warrior_energy[cell], bonus


def strength(pos: Position, cell: int) -> int:
    return sum(strength_parts(pos, cell))


def is_surrounded(pos: Position, cell: int) -> bool:
    """No open side: each orthogonal side is the board edge or holds a tile (any, even dead)."""
    return all(NEIGHBOUR[cell][d] < 0 or pos.tile[NEIGHBOUR[cell][d]] != EMPTY
               for d in ORTHOGONAL)


def fight_odds(pos: Position, cell: int) -> tuple[int, int]:
    """(the fighter's strength, the summed strength of living enemies beside it)."""
    enemy = 1 - pos.tribe(cell)
    enemies = [NEIGHBOUR[cell][d] for d in ORTHOGONAL if is_warrior(pos, NEIGHBOUR[cell][d], enemy)]
    return strength(pos, cell), sum(strength(pos, e) for e in enemies)


# -- section 7: end and scoring --------------------------------------------------------------

def relic_points(pos: Position) -> list[int]:
    points = [0, 0]
    if pos.options["relic-scoring"] == "order":
        for k, owner in enumerate(pos.relics, 1):
            points[owner] += k
    else:
        for owner in (0, 1):
            n = pos.relics.count(owner)
            points[owner] = n * (n + 1) // 2
    return points


def scores(pos: Position) -> list[int]:
    """Gems and Spirit crystals on surviving warriors, plus relics."""
    points = relic_points(pos)
    for cell in range(CELLS):
        if is_warrior(pos, cell):
            points[pos.tribe(cell)] += (pos.tileset.tiles[pos.tile[cell]].gems
                                        + pos.warrior_spirit[cell])
    return points


def free_cells(pos: Position) -> int:
    """Cells without a tile, not counting unclaimed temples."""
    return sum(1 for c in range(CELLS) if pos.tile[c] == EMPTY and c not in pos.temples)


def end_conditions(pos: Position) -> list[str]:
    """Section 7: the conditions that end the game which hold in ``pos``, in words (none:
    it goes on)."""
    deaths = [pos.deaths(0), pos.deaths(1)]
    held = []
    if pos.options["death-limit"] == "either":
        held += [f"{TRIBES[p]} lost {deaths[p]} warriors" for p in (0, 1)
                 if deaths[p] >= DEATH_LIMIT]
    elif sum(deaths) >= DEATH_LIMIT:
        held.append(f"{sum(deaths)} warriors dead in total")
    if free_cells(pos) <= 1:
        held.append("board full")
    if not pos.deck and not pos.pairs:
        held.append("all warriors played")
    return held


def game_over(pos: Position) -> bool:
    return bool(end_conditions(pos))


def winner(pos: Position) -> int | None:
    """Most points; ties: more surviving warriors, then the more recent relic; else None."""
    points = scores(pos)
    if points[0] != points[1]:
        return 0 if points[0] > points[1] else 1
    survivors = [sum(is_warrior(pos, c, p) for c in range(CELLS)) for p in (0, 1)]
    if survivors[0] != survivors[1]:
        return 0 if survivors[0] > survivors[1] else 1
    return pos.relics[-1] if pos.relics else None


# -- section 4.3: temples --------------------------------------------------------------------

def temple_cost(pos: Position, cell: int, player: int) -> int:
    if pos.options["temple-discount"] == "friendly":
        counted = sum(is_warrior(pos, NEIGHBOUR[cell][d], player) for d in ORTHOGONAL)
    else:
        counted = sum(NEIGHBOUR[cell][d] >= 0 and pos.tile[NEIGHBOUR[cell][d]] != EMPTY
                      for d in ORTHOGONAL)
    return max(1, TEMPLE_BASE_COST - counted)


def payments(pos: Position, cost: int, player: int) -> list[tuple[int, int]]:
    """Ways to pay ``cost`` from storage with at least one Spirit: (spirit, energy)."""
    spirit, energy = pos.storage_spirit[player], pos.storage_energy[player]
    return [(s, cost - s) for s in range(1, min(cost, spirit) + 1) if cost - s <= energy]


def crystal_outcomes(pos: Position) -> list[tuple[int, Fraction]]:
    """The colour drawn from the bag for the next setup cell: (1 if Energy, probability)."""
    s, e = pos.bag_spirit, pos.bag_energy
    return [(colour, Fraction(n, s + e)) for colour, n in enumerate((s, e)) if n]


def deal_outcomes(pos: Position) -> list[tuple[int, int, Fraction]]:
    """Every (Balan tile, Wazu tile) the decks can give, uniformly."""
    balan = [t for t in pos.deck if pos.tileset.tiles[t].tribe == 0]
    wazu = [t for t in pos.deck if pos.tileset.tiles[t].tribe == 1]
    p = Fraction(1, len(balan) * len(wazu))
    return [(b, w, p) for b in balan for w in wazu]


def placement_problem(pos: Position, cell: int, rotation: int, paid: tuple[int, int]) -> str:
    """Why placing the current tile on ``cell`` this way breaks section 4 ('' if it does
    not), in words for a user whose move was refused."""
    tile = pos.tileset.tiles[pos.queue[0]]
    name = NAMES[cell]
    if pos.tile[cell] != EMPTY:
        return f"{name} already holds a tile"
    if rotation not in tile.rotations:
        same = next(r for r in tile.rotations if tile.arrows_at(r) == tile.arrows_at(rotation))
        return (f"{tile.id} facing {FACINGS[rotation]} has the same arrows as facing "
                f"{FACINGS[same]}, which is the move's name")
    if cell not in pos.temples:
        return f"{name} is not a temple, so nothing is paid" if sum(paid) else ""
    cost = temple_cost(pos, cell, tile.tribe)
    ways = payments(pos, cost, tile.tribe)
    if paid in ways:
        return ""
    storage = (pos.storage_spirit[tile.tribe], pos.storage_energy[tile.tribe])
    return (f"the temple on {name} costs {cost} crystals with at least one Spirit (storage "
            f"holds {storage[0]} Spirit, {storage[1]} Energy); "
            + (f"pay with {' or '.join('$' + format_crystals(*w) for w in ways)}" if ways
               else "it cannot be entered now"))


def draw_outcomes(pos: Position) -> list[tuple[int, int, Fraction]]:
    """The colours of the relic's bag draws with their hypergeometric probabilities."""
    s, e = pos.bag_spirit, pos.bag_energy
    n = min(RELIC_DRAWS, s + e)
    return [(k, n - k, Fraction(comb(s, k) * comb(e, n - k), comb(s + e, n)))
            for k in range(n + 1) if k <= s and n - k <= e]

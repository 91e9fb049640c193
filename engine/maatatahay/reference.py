"""Plain-Python Maatatahay, written straight from the rules page (sections cited inline).

Clarity over speed: every rule is a small function in the rules' own words, so the Cython
kernel can be checked against it. The state is a :class:`~.notation.Position`; ``undo``
restores a snapshot. The pure rule functions (strength, fights, scores) live in :mod:`.rules`.
"""
from __future__ import annotations

from fractions import Fraction

from ..game import CHANCE, TERMINAL, CopyMakeState
from .board import CELLS, NEIGHBOUR, ORTHOGONAL, opposite
from .constants import (CHANCE_PHASES, CRYSTALS, DRAW, FIGHT, LAYOUT, LOAD, ORDER, OVER, PAIR,
                        PAIRS_ON_OFFER, PLACE, REFILL, RETURN, REVEAL, TOSS)
from .moves import (KIND_SHIFT, M_CRYSTAL, M_DEAL, M_DRAW, M_FIGHT, M_LAYOUT, M_LOAD, M_ORDER,
                    M_PAIR, M_RETURN, M_TOSS, decode_place, decode_two, encode_pair_of,
                    encode_place, move_kind, move_payload)
from .position import EMPTY, Position, undealt_cells
from .rules import (crystal_outcomes, deal_outcomes, draw_outcomes, fight_chooser, fight_odds,
                    game_over, is_surrounded, is_warrior, load_choices, order_chooser, payments,
                    return_choices, scores, storage_excess, temple_cost, winner)
from .state import MaatatahayState
from .zobrist import position_key


class ReferenceState(CopyMakeState, MaatatahayState):
    # -- the interface ------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.pos.phase
        if phase == OVER:
            return TERMINAL
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase == PAIR:
            return self.pos.active
        if phase == ORDER:
            return order_chooser(self.pos)
        if phase == FIGHT:
            return fight_chooser(self.pos)
        return self.pos.placer()

    def legal_moves(self) -> list[int]:
        pos = self.pos
        if pos.phase == PAIR:
            return [encode_pair_of(M_PAIR, b, w) for b, w in pos.pairs]
        if pos.phase == ORDER:
            return [M_ORDER << KIND_SHIFT | 0, M_ORDER << KIND_SHIFT | 1]
        if pos.phase == PLACE:
            return self._placements()
        if pos.phase == LOAD:
            return [encode_pair_of(M_LOAD, s, e) for s, e in self._loads()]
        if pos.phase == RETURN:
            return [encode_pair_of(M_RETURN, s, e) for s, e in self._returns()]
        if pos.phase == FIGHT:
            return [M_FIGHT << KIND_SHIFT | c for c in pos.fighters]
        return [move for move, _ in self.exact_chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        return [(m, float(p)) for m, p in self.exact_chance_outcomes()]

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        pos = self.pos
        if pos.phase == DRAW:
            return [(encode_pair_of(M_DRAW, s, e), p) for s, e, p in draw_outcomes(pos)]
        if pos.phase in (REFILL, REVEAL):
            return [(encode_pair_of(M_DEAL, b, w), p) for b, w, p in deal_outcomes(pos)]
        if pos.phase == LAYOUT:
            count = len(pos.tileset.layouts)
            return [(M_LAYOUT << KIND_SHIFT | k, Fraction(1, count)) for k in range(count)]
        if pos.phase == CRYSTALS:
            cell = undealt_cells(pos)[0]
            return [(M_CRYSTAL << KIND_SHIFT | cell << 1 | colour, p)
                    for colour, p in crystal_outcomes(pos)]
        if pos.phase == TOSS:
            return [(M_TOSS << KIND_SHIFT | p, Fraction(1, 2)) for p in (0, 1)]
        return []

    def play(self, move: int) -> None:
        self.remember(move)
        self._apply(move)
        self._settle()

    def result(self) -> int | None:
        return winner(self.pos)

    def scores(self) -> list[int]:
        return scores(self.pos)

    def to_position(self) -> Position:
        return self.pos.copy()

    def hash_key(self) -> int:
        return position_key(self.pos)

    # -- section 3: a round ------------------------------------------------------------------
    def _apply(self, move: int) -> None:
        pos, kind, payload = self.pos, move_kind(move), move_payload(move)
        if kind == M_PAIR:
            pair = decode_two(payload)
            pos.pairs.remove(pair)
            pos.chosen, pos.phase = pair, ORDER
        elif kind == M_ORDER:
            first = payload
            pos.queue = [pos.chosen[first], pos.chosen[1 - first]]
            pos.chosen, pos.phase = None, PLACE
        elif kind == M_LOAD:
            self._load(*decode_two(payload))
        elif kind == M_RETURN:
            self._return(*decode_two(payload))
        elif kind == M_FIGHT:
            self._fight(payload)
        elif kind == M_DRAW:
            spirit, energy = decode_two(payload)
            player = pos.placer()
            pos.bag_spirit -= spirit
            pos.bag_energy -= energy
            pos.storage_spirit[player] += spirit
            pos.storage_energy[player] += energy
            pos.phase = LOAD
        elif kind == M_DEAL:
            pos.pairs.append(decode_two(payload))
            for tile in decode_two(payload):
                pos.deck.remove(tile)
            if pos.phase == REVEAL:                      # 2.4: three pairs, then the toss
                pos.phase = REVEAL if len(pos.pairs) < PAIRS_ON_OFFER else TOSS
            else:
                pos.phase = PAIR
        elif kind == M_LAYOUT:                           # 2.1
            pos.temples = list(pos.tileset.layouts.values())[payload]
            pos.phase = CRYSTALS
        elif kind == M_CRYSTAL:                          # 2.3: one crystal per cell
            cell, energy = payload >> 1, payload & 1
            if energy:
                pos.bag_energy -= 1
                pos.cell_energy[cell] += 1
            else:
                pos.bag_spirit -= 1
                pos.cell_spirit[cell] += 1
            pos.phase = CRYSTALS if undealt_cells(pos) else REVEAL
        elif kind == M_TOSS:                             # 2.5
            pos.active, pos.phase = payload, PAIR
        else:
            self._place(*decode_place(payload))

    def _settle(self) -> None:
        """Play the steps that offer no choice: a lone pair, nothing to load, a lone fight,
        a chance event with one outcome, and the end of a placement or round."""
        pos = self.pos
        while True:
            if pos.phase == PAIR and len(pos.pairs) == 1:
                self._apply(encode_pair_of(M_PAIR, *pos.pairs[0]))
            elif pos.phase in CHANCE_PHASES and len(self.exact_chance_outcomes()) == 1:
                self._apply(self.exact_chance_outcomes()[0][0])
            elif pos.phase == LOAD and len(self._loads()) == 1:
                self._load(0, 0)
            elif pos.phase == RETURN and len(self._returns()) == 1:
                self._return(*self._returns()[0])
            elif pos.phase == FIGHT and len(pos.fighters) == 1:
                self._fight(pos.fighters[0])
            elif pos.phase == FIGHT and not pos.fighters:
                self._end_placement()
            else:
                return

    def _end_placement(self) -> None:
        pos = self.pos
        pos.placed, pos.fighters = EMPTY, []
        if pos.queue:
            pos.phase = PLACE
            return
        pos.active = 1 - pos.active          # 3.6; the refill only matters if play goes on
        if game_over(pos):
            pos.phase = OVER
        else:
            pos.phase = REFILL if pos.deck else PAIR

    # -- section 4: placing ------------------------------------------------------------------
    def _placements(self) -> list[int]:
        pos = self.pos
        tile = pos.tileset.tiles[pos.queue[0]]
        moves = []
        for cell in range(CELLS):
            if pos.tile[cell] != EMPTY:
                continue
            if cell in pos.temples:
                mixes = payments(pos, temple_cost(pos, cell, tile.tribe), tile.tribe)
            else:
                mixes = [(0, 0)]
            moves += [encode_place(cell, r, s, e) for r in tile.rotations for s, e in mixes]
        return moves

    def _place(self, cell: int, rotation: int, paid_spirit: int, paid_energy: int) -> None:
        pos = self.pos
        tile_index = pos.queue.pop(0)
        player = pos.tileset.tiles[tile_index].tribe
        pos.tile[cell], pos.rotation[cell], pos.alive[cell] = tile_index, rotation, True
        pos.placed = cell
        if cell in pos.temples:                          # 4.3 pay, take the relic, draw
            pos.storage_spirit[player] -= paid_spirit
            pos.storage_energy[player] -= paid_energy
            pos.bag_spirit += paid_spirit
            pos.bag_energy += paid_energy
            pos.relics.append(player)
            pos.phase = DRAW
        else:                                            # 4.3 collect
            pos.storage_spirit[player] += pos.cell_spirit[cell]
            pos.storage_energy[player] += pos.cell_energy[cell]
            pos.cell_spirit[cell] = pos.cell_energy[cell] = 0
            pos.phase = LOAD
        gift = min(self._support(cell, player), pos.supply_energy)     # 4.4
        pos.supply_energy -= gift
        pos.warrior_energy[cell] += gift

    def _support(self, cell: int, player: int) -> int:
        """Arrows aimed at ``cell`` from adjacent living friendly warriors, plus the frame."""
        pos = self.pos
        total = pos.tileset.frame_energy[cell]
        for d in range(8):
            source = NEIGHBOUR[cell][d]
            if is_warrior(pos, source, player):
                arrows = pos.tileset.tiles[pos.tile[source]].arrows_at(pos.rotation[source])
                total += arrows[opposite(d)]
        return total

    def _loads(self) -> list[tuple[int, int]]:
        return load_choices(self.pos, self.pos.placer())

    def _returns(self) -> list[tuple[int, int]]:
        return return_choices(self.pos, self.pos.placer())

    def _load(self, spirit: int, energy: int) -> None:
        """4.5: crystals onto the new warrior; then any excess back to the bag (discard), or
        the fights."""
        pos = self.pos
        player, cell = pos.placer(), pos.placed
        pos.storage_spirit[player] -= spirit
        pos.storage_energy[player] -= energy
        pos.warrior_spirit[cell] += spirit
        pos.warrior_energy[cell] += energy
        if storage_excess(pos, player):
            pos.phase = RETURN
        else:
            self._start_fights()

    def _return(self, spirit: int, energy: int) -> None:
        pos = self.pos
        player = pos.placer()
        pos.storage_spirit[player] -= spirit
        pos.storage_energy[player] -= energy
        pos.bag_spirit += spirit
        pos.bag_energy += energy
        self._start_fights()

    def _start_fights(self) -> None:
        """5: the new warrior and each neighbour it closed in, if surrounded now."""
        pos, cell = self.pos, self.pos.placed
        candidates = [cell] + [NEIGHBOUR[cell][d] for d in ORTHOGONAL
                               if is_warrior(pos, NEIGHBOUR[cell][d])]
        pos.fighters = sorted(c for c in candidates if is_surrounded(pos, c))
        pos.phase = FIGHT

    # -- section 5: combat -------------------------------------------------------------------
    def _fight(self, cell: int) -> None:
        pos = self.pos
        pos.fighters.remove(cell)
        mine, theirs = fight_odds(pos, cell)
        if mine < theirs:
            self._die(cell)

    def _die(self, cell: int) -> None:
        """Flipped face down; Energy to the supply; Spirit onto this turn's warrior if it
        lives (``dead-spirit=transfer``), else out of the game."""
        pos = self.pos
        pos.alive[cell], pos.rotation[cell] = False, 0
        pos.supply_energy += pos.warrior_energy[cell]
        spirit = pos.warrior_spirit[cell]
        pos.warrior_energy[cell] = pos.warrior_spirit[cell] = 0
        transfer = pos.options["dead-spirit"] == "transfer"
        if transfer and cell != pos.placed and pos.alive[pos.placed]:
            pos.warrior_spirit[pos.placed] += spirit
        else:
            pos.removed_spirit += spirit

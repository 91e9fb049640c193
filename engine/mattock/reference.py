"""Plain-Python Mattock, written straight from the rules page (sections 3 and 4).

Clarity over speed: every rule is a small function with the rules' own words, so the fast
implementation can be checked against it. The state is a :class:`~.notation.Position`;
``undo`` restores a snapshot.
"""
from __future__ import annotations

from ..game import CopyMakeState
from .notation import EMPTY, ROCK, TILE, Position, decode_move, encode_move
from .state import MattockState
from .zobrist import position_key


class ReferenceState(CopyMakeState, MattockState):
    def __init__(self, game, position: Position):
        super().__init__(game, position)
        self.board = position.board
        self._mine_cells: list[int] | None = None

    # -- section 3: connectivity ------------------------------------------------------------
    def _spread(self, starts, passable) -> set[int]:
        """Cells reachable from ``starts`` by stepping onto tiles for which ``passable`` holds."""
        seen = set(starts)
        frontier = list(starts)
        while frontier:
            cell = frontier.pop()
            for n in self.board.neighbours[cell]:
                if n not in seen and self.pos.tiles[n] == TILE and passable(n):
                    seen.add(n)
                    frontier.append(n)
        return seen

    def _player_region(self, player: int, starts) -> set[int]:
        """Tiles joined to ``starts`` by a P-path: no opponent miner on the way (own miners
        may be passed through)."""
        return self._spread(starts, lambda c: self.pos.miners[c] in (EMPTY, player))

    # -- section 4: Mine ---------------------------------------------------------------------
    def _touching_tiles(self, cell: int) -> int:
        return sum(1 for n in self.board.neighbours[cell] if self.pos.tiles[n] == TILE)

    def _collapse_ok(self, cell: int) -> bool:
        """C touches at most 3 tiles and none of the tiles it touches already touches 3."""
        if self._touching_tiles(cell) > 3:
            return False
        return all(self._touching_tiles(n) < 3
                   for n in self.board.neighbours[cell] if self.pos.tiles[n] == TILE)

    def _connected_to_own_miner(self, player: int) -> set[int]:
        own = [c for c in range(self.board.cell_count) if self.pos.miners[c] == player]
        return self._player_region(player, own)

    def mine_cells(self) -> list[int]:
        if self._mine_cells is None:
            player = self.pos.to_move
            region = self._connected_to_own_miner(player)
            self._mine_cells = [
                c for c in range(self.board.cell_count)
                if self.pos.tiles[c] == ROCK
                and any(n in region for n in self.board.neighbours[c])
                and self._collapse_ok(c)]
        return self._mine_cells

    # -- section 4: Move ---------------------------------------------------------------------
    def _miner_moves(self, player: int) -> list[tuple[int, int]]:
        moves = []
        for source in range(self.board.cell_count):
            if self.pos.miners[source] != player:
                continue
            for target in sorted(self._player_region(player, [source])):
                if self.pos.miners[target] == EMPTY:
                    moves.append((source, target))
        return moves

    def _mine(self, cell: int) -> None:
        player = self.pos.to_move
        self.pos.tiles[cell] = TILE
        if self.pos.off_board(player) > 0:
            self.pos.miners[cell] = player

    def legal_moves(self) -> list[int]:
        moves = []
        for cell in self.mine_cells():
            saved = (list(self.pos.tiles), list(self.pos.miners))
            self._mine(cell)
            moves.append(encode_move(cell))
            moves.extend(encode_move(cell, s, t) for s, t in self._miner_moves(self.pos.to_move))
            self.pos.tiles, self.pos.miners = saved
        return moves

    # -- section 4: Remove -------------------------------------------------------------------
    def _removed_miners(self, player: int) -> list[int]:
        """Opponent miners removed at the end of ``player``'s turn, all decided on one position."""
        miners = self.pos.miners
        opponent = 1 - player
        removed = []
        for x in range(self.board.cell_count):
            if miners[x] != opponent:
                continue
            through_empty = self._spread([x], lambda c: miners[c] == EMPTY)
            touched = {n for c in through_empty for n in self.board.neighbours[c]} | through_empty
            has_friend = any(miners[c] == opponent and c != x for c in touched)
            if has_friend:
                continue
            if self.pos.removal == "blocking":
                enemies = {c for c in touched if miners[c] == player}
            else:
                region = self._spread([x], lambda c: miners[c] in (EMPTY, player))
                enemies = {c for c in region if miners[c] == player}
            if len(enemies) >= 2:
                removed.append(x)
        return removed

    def play(self, move: int) -> None:
        self.remember(move)
        player = self.pos.to_move
        mine, source, target = decode_move(move)
        self._mine(mine)
        if source >= 0:
            self.pos.miners[target] = self.pos.miners[source]
            self.pos.miners[source] = EMPTY
        for x in self._removed_miners(player):
            self.pos.miners[x] = EMPTY
        self.pos.to_move = 1 - player
        self._mine_cells = None

    def undo(self) -> None:
        super().undo()
        self._mine_cells = None

    # -- section 5: end of game -------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.pos.to_move

    def has_mine_cell(self) -> bool:
        return bool(self.mine_cells())

    def to_position(self) -> Position:
        return self.pos.copy()

    def hash_key(self) -> int:
        return position_key(self.pos)

    def explain_illegal(self, move: int) -> str:
        """Why a well-formed move is illegal here, in the rules' terms."""
        names = self.board.names
        mine, source, target = decode_move(move)
        if self.is_terminal():
            return "the game is over: the side to move cannot mine"
        if self.pos.tiles[mine] == TILE:
            return f"{names[mine]} is already a tile; only rock can be mined"
        if mine not in self._neighbours_of_region():
            return (f"{names[mine]} does not touch a tile connected to one of your miners")
        if not self._collapse_ok(mine):
            return f"mining {names[mine]} breaks the collapse rule (a tile would touch 4 tiles)"
        if source >= 0:
            return (f"after mining {names[mine]} no miner of yours can go {names[source]}-"
                    f"{names[target]} (needs your miner on {names[source]} and a path to an "
                    f"empty tile {names[target]} with no opponent miner on it)")
        return "not a legal move"

    def _neighbours_of_region(self) -> set[int]:
        region = self._connected_to_own_miner(self.pos.to_move)
        return {n for c in region for n in self.board.neighbours[c]}

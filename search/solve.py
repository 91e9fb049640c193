"""Solving a position: df-pn (search/dfpn.pyx) driven to a proven value, its exact length and
its main line, within limits, resumable from a file.

The steps, all on one transposition table:

1. prove that the side to move wins; a disproof without a drawn end is the other side's win
   (the disproof's length bounds it); a disproof that reaches a draw needs
2. the same search for the other side: disproven too means a draw;
3. make the winner's length exact: ask for a win in fewer plies than the best proof found
   (``prove(winner, budget=L - 1)``) until that is disproven; a limit reached first leaves
   the length as an upper bound (``exact`` False);
4. the main line: the winner's shortest proven moves against the loser's longest resistance.

The search runs in chunks of ``CHUNK_NODES`` positions (about half a second) so that
progress can be reported and the table saved; it continues from the table, so the chunks
cost little. Chunks end by count, not by the clock, so the same position and limits search
the same nodes on any machine and under any load (a time limit ends the last chunk early). A stop (Ctrl-C)
keeps what is proven, including the value of every first move.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from crystalpick.engine.game import GameError

from .decompose import use_decomposition
from .dfpn import DISPROVEN_STATUS, PROVEN_STATUS, ProofNumberSearch
from .headed_file import DamagedTable, check_headed, digest, read_headed, write_headed
from .requirements import NO_CHANCE, PERFECT_INFORMATION, refuse
from .result import line_strings
from .score import DRAW, LOSS, WIN, Proven
from .stop import StopFlag
from .symmetry import SYMMETRY_CHOICES, first_move_classes, use_symmetry

CHUNK_NODES = 400_000
SAVE_EVERY_SECONDS = 60.0
# /2: the header carries the body's SHA-256, so a damaged table is never trusted (issue 33).
TABLE_FORMAT = "crystalpick.dfpn-table/2"
UNCHECKED_FORMATS = ("crystalpick.dfpn-table/1",)


@dataclass
class RootMove:
    """A first move and what is proven about it, from the mover's view: ``win``, ``loss``,
    ``no win`` (a draw at best) or ``unknown``; ``plies`` along its proof when proven."""
    move: int
    move_str: str
    status: str
    plies: int | None


@dataclass
class Solution:
    """What ``solve`` found. ``score`` is from the mover's view (None: not proven within
    the limits); ``exact`` says whether its length is the shortest forced win (otherwise
    the proof's length, an upper bound, is ``line_plies``)."""
    mover: int
    score: Proven | None
    exact: bool
    line: list[int]
    line_str: list[str]
    nodes: int
    elapsed: float
    root_moves: list[RootMove] = field(default_factory=list)
    interrupted: bool = False
    tt_bytes: int = 0
    loaded_entries: int = 0
    cpu: float = 0.0              # CPU seconds of this process for the whole solve
    proof_cpu: float | None = None   # CPU seconds until the value was proven
    # With symmetric table entries: how many classes the first moves fall into (the moves
    # of a class lead to symmetric positions and share their proof); else None.
    move_classes: int | None = None

    @property
    def nps(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def line_plies(self) -> int:
        return len(self.line)


@dataclass
class Progress:
    phase: str
    proof_number: int
    disproof_number: int
    nodes: int
    elapsed: float


class Solver:
    """One df-pn table for a game; ``solve`` may be called on several positions."""

    # df-pn proves results of games without chance or hidden information only
    requires = (PERFECT_INFORMATION, NO_CHANCE)

    def __init__(self, game, hash_megabytes: int = 64, epsilon: float = 1.0,
                 evaluation_order: bool = True, mobility: bool = True,
                 symmetry: str = "auto", decompose: str = "auto", weak: bool = True):
        refuse("solve", self.requires, game)
        self.game = game
        try:
            self.searcher = ProofNumberSearch(
                game.new_initial_state().search_kernel().clone(), game.evaluator(),
                hash_megabytes, epsilon, game.evaluation_scale if evaluation_order else 0.0,
                mobility, weak=weak)
        except MemoryError:
            raise GameError(f"not enough memory for a table of {hash_megabytes} MB (lower "
                            f"--hash)") from None
        if symmetry not in SYMMETRY_CHOICES:
            raise ValueError(f"symmetry={symmetry}: expected {'|'.join(SYMMETRY_CHOICES)}")
        self.symmetry = symmetry
        self.searcher.decompose = use_decomposition(decompose, game)
        self.loaded_entries = 0

    # -- the table file --------------------------------------------------------------------

    def header(self, body: bytes = b"") -> dict:
        return {"format": TABLE_FORMAT, "game": self.game.name,
                "identity": repr(self.game.identity), "sha256": digest(body)}

    def load(self, path: str) -> int:
        """Read a table saved by :meth:`save` (nothing if the file does not exist yet). A file
        that is not a table of this game is refused (a GameError); a table whose body does not
        match its checksum, holds an entry no search writes, or is empty (a save cut short)
        is :class:`DamagedTable`, with nothing loaded: the caller may solve afresh and let
        :meth:`save` replace it."""
        if not os.path.exists(path):
            return 0
        header, body = read_headed(path)
        if header is None:
            raise GameError(f"--resume {path}: not a solver table file (no header)")
        if header.get("format") in UNCHECKED_FORMATS:
            raise GameError(f"--resume {path}: a table of format {header['format']}, written "
                            f"before tables carried a checksum; delete it or give another "
                            f"file to solve afresh")
        if header.get("format") != TABLE_FORMAT:
            raise GameError(f"--resume {path}: format {header.get('format')!r}, expected "
                            f"{TABLE_FORMAT}")
        check_headed(path, header, body, self.game, "table")
        try:
            self.loaded_entries = self.searcher.import_table(body)
        except ValueError as err:
            raise DamagedTable(f"--resume {path}: the table is damaged ({err})") from None
        return self.loaded_entries

    def save(self, path: str) -> None:
        """Write the table: the whole file or nothing."""
        body = self.searcher.export_table()
        write_headed(path, self.header(body), body)

    # -- solving ---------------------------------------------------------------------------

    def solve(self, state, seconds: float | None = None, nodes: int | None = None,
              stop: StopFlag | None = None, progress=None, save_path: str | None = None,
              exact: bool = True, cpu_seconds: float | None = None) -> Solution:
        """Solve ``state`` within wall ``seconds``, ``nodes`` and CPU ``cpu_seconds`` (each
        None: no such limit) or until ``stop`` is set; ``progress(Progress)`` after every
        chunk; the table is saved to ``save_path`` now and then and at the end."""
        if state.game.identity != self.game.identity:
            raise GameError("this solver's table belongs to another game or rule set")
        if state.is_terminal():
            raise GameError("the game is over in this position: nothing to solve")
        searcher = self.searcher
        searcher.set_kernel(state.search_kernel().clone())
        searcher.symmetry = use_symmetry(self.symmetry, state)
        move_classes = len(first_move_classes(state)) if searcher.symmetry else None
        searcher.set_stop(stop)
        start = time.monotonic()
        cpu_start = time.process_time()
        first_nodes = searcher.nodes
        deadline = start + seconds if seconds else None
        node_limit = first_nodes + nodes if nodes else None
        last_save = start
        mover = state.current_player()
        other = 1 - mover

        def run(phase: str, attacker: int, budget: int = -1) -> int:
            nonlocal last_save
            while True:
                now = time.monotonic()
                remaining_nodes = CHUNK_NODES if node_limit is None else min(
                    CHUNK_NODES, node_limit - searcher.nodes)
                if (deadline is not None and now >= deadline) or (
                        remaining_nodes <= 0) or (
                        cpu_seconds is not None
                        and time.process_time() - cpu_start >= cpu_seconds):
                    return 0
                searcher.set_limits(deadline or 0.0, remaining_nodes)
                status = searcher.prove(attacker, budget)
                pn, dn, _, _ = searcher.root_numbers
                if progress:
                    progress(Progress(phase, pn, dn, searcher.nodes - first_nodes,
                                      time.monotonic() - start))
                if save_path and time.monotonic() - last_save > SAVE_EVERY_SECONDS:
                    self.save(save_path)
                    last_save = time.monotonic()
                if status != 0 or (stop is not None and stop.is_set()):
                    return status

        winner, length, proof_attacker, result = None, None, None, None
        status = run("win for the side to move", mover)
        if status == PROVEN_STATUS:
            winner, length, proof_attacker = mover, searcher.root_numbers[2], mover
        elif status == DISPROVEN_STATUS:
            _, _, disproof_length, draw = searcher.root_numbers
            if not draw:
                winner, length = other, disproof_length
            else:
                status = run("win for the other side", other)
                if status == PROVEN_STATUS:
                    winner, length, proof_attacker = other, searcher.root_numbers[2], other
                elif status == DISPROVEN_STATUS:
                    result = Proven(DRAW)
        proof_cpu = time.process_time() - cpu_start if (winner is not None or result) \
            else None
        is_exact = False
        if winner is not None:
            while exact and length > 1:
                status = run(f"a win shorter than {length} plies", winner, length - 1)
                if status == PROVEN_STATUS:
                    length, proof_attacker = searcher.root_numbers[2], winner
                    continue
                is_exact = status == DISPROVEN_STATUS
                break
            if length <= 1:
                is_exact = True
            if is_exact and proof_attacker is None:
                proof_attacker = winner     # proven within the budget by the next search
            result = Proven(WIN if winner == mover else LOSS, length if is_exact else None)
        interrupted = stop is not None and stop.is_set()
        if winner is None:
            line = []
        elif proof_attacker is not None:
            line = searcher.main_line(proof_attacker, length if is_exact else -1)
        else:
            line = searcher.main_line(mover)
        elapsed = time.monotonic() - start
        if save_path:
            self.save(save_path)
        return Solution(
            mover=mover, score=result, exact=is_exact, line=line,
            line_str=line_strings(state, line), nodes=searcher.nodes - first_nodes,
            elapsed=elapsed, root_moves=self.root_moves(state), interrupted=interrupted,
            tt_bytes=searcher.tt_bytes, loaded_entries=self.loaded_entries,
            cpu=time.process_time() - cpu_start, proof_cpu=proof_cpu,
            move_classes=move_classes)

    def root_moves(self, state) -> list[RootMove]:
        """Every first move with what the table proves about it for the mover (with
        symmetry, the moves of one class share their proof)."""
        mover = state.current_player()
        rows = []
        for move, status, length, draw in self.searcher.children(mover):
            if status == PROVEN_STATUS:
                verdict = "win"
            elif status == DISPROVEN_STATUS:
                verdict = "no win" if draw else "loss"
            else:
                verdict = "unknown"
            rows.append(RootMove(move, state.move_to_str(move), verdict,
                                 length + 1 if verdict in ("win", "loss") else None))
        return rows

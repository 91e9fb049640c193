"""Job-level proof-number search (Wu, Lin, Sun, Chen and Lin, "Job-Level Proof-Number
Search", 2010): a proof too big for one machine, spread over a Dask cluster.

The master (this module, in the ``crystalpick solve --cluster`` process) keeps the top of
the proof tree, an AND/OR tree of positions with proof and disproof numbers, and never
searches itself. It repeatedly picks the most-proving leaf (least proof number where the
attacker moves, least disproof number where the defender does) and sends it to a worker as
a *job* (solvers/proof_jobs.py): a df-pn search on the worker's own table, kept between its
jobs, bounded by a node budget. The job returns the leaf's status and, from
the worker's table, the status of each of its children; the master folds that back: a
proven or disproven leaf is settled, an unsettled one becomes an interior node whose
children are new leaves (those the worker already settled are settled here too), and the
numbers are brought up to the root. A new leaf's numbers are 1 and its mover's move count
(df-pn's mobility), so the master's numbers count the moves still to search; the workers'
df-pn numbers are not mixed in, as their evaluation-based scale would swamp those counts.

Parallel jobs: a leaf being searched is skipped, so the next job goes to the most-proving
leaf among those nobody searches (the paper's virtual-win and virtual-loss policies count
the leaf as settled, which settles its parent for the selection whenever the leaf would
decide it, and at the root leaves every other worker idle). The master keeps
two jobs per worker thread queued so no worker waits for it.

A worker lost mid-job loses nothing: Dask runs the job again on another worker (a job is a
pure function of its arguments; only the master stores results). The master tree is kept in
a file (format :data:`TREE_FORMAT`, its body's SHA-256 in the header as for the single-
machine table), written every :data:`SAVE_EVERY_SECONDS` and at the end, so a second run
continues where the first stopped. The phases (who wins, a draw, the exact length) are the
single-machine solver's (search/solve.py), each a master tree of its own.
"""
from __future__ import annotations

import json
import os
import secrets
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from crystalpick.engine.game import GameError

from crystalpick.search.dfpn import DISPROVEN_STATUS, PROVEN_STATUS
from crystalpick.search.headed_file import DamagedTable, check_headed, digest, read_headed, write_headed
from .proof_jobs import Job, JobResult, run_job
from crystalpick.search.requirements import refuse
from crystalpick.search.score import DRAW, LOSS, WIN, Proven
from crystalpick.search.solve import Progress, RootMove, Solution, Solver
from crystalpick.search.stop import StopFlag
from crystalpick.search.symmetry import first_move_classes, use_symmetry

TREE_FORMAT = "crystalpick.jobpns-tree/1"
JOB_NODES = 1_000_000         # a job's df-pn node budget: about a second on one core
SAVE_EVERY_SECONDS = 60.0
SLOTS_EVERY_SECONDS = 1.0     # how often the master asks how many workers there are
INFINITE = 1 << 62            # a number that is never reached (Python ints: no overflow)
UNBOUNDED = -1                # a phase's ply budget when it has none


# -- the master tree --------------------------------------------------------------------------

class Node:
    """A position of the master tree; ``children`` None while it is a leaf. A child whose
    position is symmetric to an earlier sibling's has that sibling as its ``alias``: it
    shares its proof, is never searched, and counts once in its parent's numbers."""
    __slots__ = ("move", "position", "or_node", "pn", "dn", "length", "draw", "children",
                 "parent", "searching", "alias")

    def __init__(self, move, position, or_node, parent=None):
        self.move, self.position, self.or_node, self.parent = move, position, or_node, parent
        self.pn, self.dn, self.length, self.draw = 1, 1, 0, False
        self.children: list[Node] | None = None
        self.searching = False
        self.alias: Node | None = None

    @property
    def settled(self) -> bool:
        return self.pn == 0 or self.dn == 0

    def settle(self, status: int, length: int, draw: bool) -> None:
        self.pn, self.dn = (0, INFINITE) if status == PROVEN_STATUS else (INFINITE, 0)
        self.length, self.draw = length, draw

    def combine(self) -> None:
        """The numbers from the children's, as df-pn combines them (one winning move
        decides where the winner moves, every move where the loser does); a settled node's
        length and draw mark from the deciding children."""
        kids = self.distinct()
        low = min(kid.pn if self.or_node else kid.dn for kid in kids)
        total = min(INFINITE, sum(kid.dn if self.or_node else kid.pn for kid in kids))
        summed = INFINITE if low == 0 else total
        self.pn, self.dn = (low, summed) if self.or_node else (summed, low)
        if not self.settled:
            return
        proven = self.pn == 0
        deciding = [kid for kid in kids if (kid.pn if proven else kid.dn) == 0]
        if proven == self.or_node:        # the winner moves: its best child
            best = min(deciding, key=lambda kid: (kid.draw, kid.length))
            self.length, self.draw = best.length + 1, best.draw
        else:                             # the loser moves: its longest resistance
            self.length = max(kid.length for kid in deciding) + 1
            self.draw = any(kid.draw for kid in deciding)

    def most_proving(self) -> "Node | None":
        """The most-proving leaf below this node that no job searches (None: none)."""
        if self.settled or self.searching:
            return None
        if self.children is None:
            return self
        open_kids = sorted((kid for kid in self.distinct() if not kid.settled),
                           key=lambda kid: kid.pn if self.or_node else kid.dn)
        for kid in open_kids:
            leaf = kid.most_proving()
            if leaf is not None:
                return leaf
        return None

    def distinct(self) -> list["Node"]:
        """The children that stand for themselves (not an alias)."""
        return [kid for kid in self.children if kid.alias is None]

    def count(self) -> int:
        return 1 + sum(kid.count() for kid in self.children or ())

    def document(self) -> list:
        return [self.move, self.position, int(self.or_node), self.pn, self.dn, self.length,
                int(self.draw), None if self.children is None else
                [kid.document() for kid in self.children],
                None if self.alias is None else self.parent.children.index(self.alias)]

    @classmethod
    def from_document(cls, data, parent=None) -> "Node":
        move, position, or_node, pn, dn, length, draw, children, _ = data
        node = cls(move, position, bool(or_node), parent)
        node.pn, node.dn, node.length, node.draw = pn, dn, length, bool(draw)
        if children is not None:
            node.children = [cls.from_document(kid, node) for kid in children]
            for kid, kid_data in zip(node.children, children):
                if kid_data[-1] is not None:
                    kid.alias = node.children[kid_data[-1]]
        return node


@dataclass
class WorkerStats:
    """One worker's share: jobs done, df-pn nodes, seconds spent in them."""
    name: str
    jobs: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass
class ClusterSolution(Solution):
    """A :class:`Solution` (without a main line: it would be a job of its own) and how
    the work was shared: per worker, and every job's ``(name, worker, position)`` in order
    of arrival."""
    workers: list[WorkerStats] = field(default_factory=list)
    jobs: list[tuple[str, str, str]] = field(default_factory=list)
    tree_nodes: int = 0


# -- the master -------------------------------------------------------------------------------

class JobLevelSolver:
    """The master of a job-level proof search of one position, on any executor
    (search/executors.py: a Dask cluster, or local processes)."""

    def __init__(self, game, executor, hash_mb: int = 64, job_nodes: int = JOB_NODES,
                 symmetry: str = "auto"):
        refuse("solve", Solver.requires, game)
        self.game, self.executor = game, executor
        self.hash_mb, self.job_nodes, self.symmetry = hash_mb, job_nodes, symmetry
        self.trees: dict[tuple[int, int], Node] = {}     # (attacker, budget): root
        self.root_position: str | None = None
        self.loaded_nodes = 0
        self.resume_path: str | None = None
        self.run_id = secrets.token_hex(4)               # job names unique per run
        self.issued = 0
        self.job_symmetry = "off"

    # -- the tree file ------------------------------------------------------------------------

    def header(self, body: bytes = b"") -> dict:
        return {"format": TREE_FORMAT, "game": self.game.name,
                "identity": repr(self.game.identity), "position": self.root_position,
                "sha256": digest(body)}

    def load(self, path: str) -> int:
        """Read the master trees saved by :meth:`save` (nothing if the file does not exist);
        returns the nodes read. A file of another format or game is a GameError (one of
        another position is refused by :meth:`solve`); a damaged one :class:`DamagedTable`,
        nothing loaded."""
        if not os.path.exists(path):
            return 0
        header, body = read_headed(path)
        if header is None or header.get("format") != TREE_FORMAT:
            raise GameError(f"--resume {path}: not a cluster proof tree (expected format "
                            f"{TREE_FORMAT}; a single-machine table is resumed without "
                            f"--cluster)")
        check_headed(path, header, body, self.game, "tree")
        try:
            trees = {(attacker, budget): Node.from_document(tree)
                     for attacker, budget, tree in json.loads(body)}
        except (ValueError, TypeError):
            raise DamagedTable(f"--resume {path}: the tree is damaged (not a tree)") from None
        self.trees, self.root_position = trees, header.get("position")
        self.loaded_nodes = sum(root.count() for root in trees.values())
        self.resume_path = path
        return self.loaded_nodes

    def save(self, path: str) -> None:
        """Write the trees: the whole file or nothing."""
        body = json.dumps([[attacker, budget, root.document()] for (attacker, budget), root
                           in self.trees.items()], separators=(",", ":")).encode()
        write_headed(path, self.header(body), body)

    # -- solving ------------------------------------------------------------------------------

    def solve(self, state, seconds: float | None = None, nodes: int | None = None,
              stop: StopFlag | None = None, progress=None, save_path: str | None = None,
              exact: bool = True) -> ClusterSolution:
        """Solve ``state`` as :meth:`Solver.solve` does, the df-pn work done by jobs, within
        wall ``seconds`` and ``nodes`` (all jobs' together) or until ``stop`` is set;
        ``progress(Progress)`` after every job; the trees saved to ``save_path`` now and
        then and at the end."""
        if state.game.identity != self.game.identity:
            raise GameError("this solver's trees belong to another game or rule set")
        if state.is_terminal():
            raise GameError("the game is over in this position: nothing to solve")
        if self.trees and self.root_position != state.position():
            source = f"--resume {self.resume_path}" if self.resume_path else "this solver"
            raise GameError(f"{source}: the proof tree of position {self.root_position!r}, "
                            f"not of {state.position()!r}")
        self.root_position = state.position()
        self.job_symmetry = "on" if use_symmetry(self.symmetry, state) else "off"
        run = Run(self, state, seconds, nodes, stop, progress, save_path)
        try:
            result, is_exact = self.phases(run, state.current_player(), exact)
        finally:                          # a lost cluster too keeps the tree grown so far
            run.drop_pending()
            if save_path:
                self.save(save_path)
        root = self.trees.get((state.current_player(), UNBOUNDED))
        classes = len(root.distinct()) if self.job_symmetry == "on" and root is not None \
            and root.children else None
        return run.solution(result, is_exact, self.root_moves(state), classes)

    @staticmethod
    def phases(run: "Run", mover: int, exact: bool) -> tuple[Proven | None, bool]:
        """The single-machine solver's phases (search/solve.py): a win for the mover; after
        a disproof reaching a draw, for the other side; then shorter wins until one is
        disproven. Returns the value (None: not proven) and whether its length is exact."""
        other = 1 - mover
        winner, length = None, None
        status, phase_length, draw = run.phase("win for the side to move", mover, UNBOUNDED)
        if status == PROVEN_STATUS:
            winner, length = mover, phase_length
        elif status == DISPROVEN_STATUS and not draw:
            winner, length = other, phase_length
        elif status == DISPROVEN_STATUS:
            status, phase_length, _ = run.phase("win for the other side", other, UNBOUNDED)
            if status == PROVEN_STATUS:
                winner, length = other, phase_length
            elif status == DISPROVEN_STATUS:
                return Proven(DRAW), False
        if winner is None:
            return None, False
        is_exact = False
        while exact and length > 1:
            status, phase_length, _ = run.phase(f"a win shorter than {length} plies",
                                                winner, length - 1)
            if status != PROVEN_STATUS:
                is_exact = status == DISPROVEN_STATUS
                break
            length = phase_length
        is_exact = is_exact or length <= 1
        return Proven(WIN if winner == mover else LOSS, length if is_exact else None), is_exact

    def root_moves(self, state) -> list[RootMove]:
        """The first moves with what the side to move's tree proves about them."""
        root = self.trees.get((state.current_player(), UNBOUNDED))
        rows = []
        for move_node in (root.children or []) if root else []:
            kid = move_node.alias or move_node
            verdict = "win" if kid.pn == 0 else ("no win" if kid.draw else "loss") \
                if kid.dn == 0 else "unknown"
            rows.append(RootMove(move_node.move, state.move_to_str(move_node.move), verdict,
                                 kid.length + 1 if verdict in ("win", "loss") else None))
        return rows

    def job(self, node: Node, attacker: int, budget: int) -> tuple[str, Job]:
        self.issued += 1
        return (f"jobpns-{self.run_id}-{self.issued}",
                Job(self.game, node.position, attacker, budget, self.job_nodes, self.hash_mb,
                    self.job_symmetry))


def depth_budget(root: Node, node: Node, budget: int) -> int:
    """The plies left to ``node`` in a phase of ``budget`` plies from ``root``."""
    if budget == UNBOUNDED:
        return UNBOUNDED
    while node is not root:
        node, budget = node.parent, budget - 1
    return budget


class Run:
    """One ``solve`` call: its limits, the work counted over its phases, and the jobs in
    flight."""

    def __init__(self, master: JobLevelSolver, state, seconds, nodes, stop, progress,
                 save_path):
        self.master, self.state = master, state
        self.start = time.monotonic()
        self.deadline = self.start + seconds if seconds else None
        self.node_limit, self.stop, self.progress = nodes, stop, progress
        self.save_path, self.last_save = save_path, self.start
        self.nodes = 0
        self.workers: dict[str, WorkerStats] = {}
        self.jobs: list[tuple[str, str, str]] = []
        self.halted = False
        self.pending: dict[str, tuple[Node, int]] = {}     # job name: (leaf, attacker)
        self.known_slots, self.slots_asked = 1, float("-inf")

    def out_of_limits(self) -> bool:
        self.halted = self.halted or bool(
            (self.stop is not None and self.stop.is_set())
            or (self.deadline is not None and time.monotonic() >= self.deadline)
            or (self.node_limit is not None and self.nodes >= self.node_limit))
        return self.halted

    def phase(self, name: str, attacker: int, budget: int) -> tuple[int, int, bool]:
        """Prove or disprove the root for ``attacker`` within ``budget`` plies, job by job;
        returns ``(status, length, draw)`` (status 0 when a limit came first)."""
        master = self.master
        root = master.trees.get((attacker, budget))
        if root is None:
            root = master.trees[(attacker, budget)] = Node(
                None, self.state.position(), self.state.current_player() == attacker)
        while not root.settled and not self.out_of_limits():
            self.dispatch(root, attacker, budget)
            if not self.pending:      # cannot happen while the root is open; never hang
                break
            result = next(master.executor.completed())
            self.fold(*self.pending.pop(result.name), result)
            if self.progress:
                self.progress(Progress(name, root.pn, root.dn, self.nodes,
                                       time.monotonic() - self.start))
            if self.save_path and time.monotonic() - self.last_save > SAVE_EVERY_SECONDS:
                master.save(self.save_path)
                self.last_save = time.monotonic()
        status = PROVEN_STATUS if root.pn == 0 else DISPROVEN_STATUS if root.dn == 0 else 0
        return status, root.length, root.draw

    def dispatch(self, root: Node, attacker: int, budget: int) -> None:
        """Queue jobs on the most-proving leaves until two per worker thread are in flight
        (an earlier phase's jobs count: they still occupy workers)."""
        master = self.master
        wanted = 2 * self.slots()
        while len(self.pending) < wanted:
            leaf = root.most_proving()
            if leaf is None:
                return
            leaf.searching = True
            name, job = master.job(leaf, attacker, depth_budget(root, leaf, budget))
            self.pending[name] = (leaf, attacker)
            master.executor.submit(name, run_job, name, job)

    def drop_pending(self) -> None:
        """Cancel the jobs still out (the proof is done, or stopped)."""
        if self.pending:
            self.master.executor.cancel()
            for leaf, _ in self.pending.values():
                leaf.searching = False
            self.pending.clear()

    def slots(self) -> int:
        """The executor's slots, asked at most every :data:`SLOTS_EVERY_SECONDS` (on a
        cluster it is a round trip to the scheduler, and jobs may be short)."""
        now = time.monotonic()
        if now - self.slots_asked >= SLOTS_EVERY_SECONDS:
            self.known_slots, self.slots_asked = self.master.executor.slots(), now
        return self.known_slots

    def fold(self, leaf: Node, attacker: int, result: JobResult) -> None:
        """Put a job's result into its tree (an earlier phase's job into that phase's tree,
        kept for a later run) and bring the numbers up to the root."""
        leaf.searching = False
        self.nodes += result.nodes
        stats = self.workers.setdefault(result.worker, WorkerStats(result.worker))
        stats.jobs, stats.nodes = stats.jobs + 1, stats.nodes + result.nodes
        stats.seconds += result.seconds
        self.jobs.append((result.name, result.worker, leaf.position))
        if leaf.children is None and (result.status == 0 or leaf.parent is None):
            self.expand(leaf, result.children, attacker)
        if result.status != 0:
            leaf.settle(result.status, result.length, result.draw)
        else:
            leaf.combine()
        node = leaf.parent
        while node is not None:
            node.combine()
            node = node.parent

    def expand(self, leaf: Node, children, attacker: int) -> None:
        """The leaf's children as new leaves, those the worker settled settled. A new leaf's
        summed number is its mover's move count (df-pn's mobility, search/dfpn.pyx), each
        move counted as one leaf to search: so an expanded node, whose summed number counts
        its open children, is weighed on the same scale as its unexpanded siblings, and
        the search goes deeper where few replies are left instead of giving every sibling
        a job first. With symmetric tables, a move leading to a position symmetric to an
        earlier sibling's is that sibling's alias (the start's 36 moves are 12 classes)."""
        state = self.master.game.state(leaf.position)
        leaf.children = []
        for move, status, length, draw in children:
            child = state.clone()
            child.play(move)
            node = Node(move, child.position(), not child.is_terminal()
                        and child.current_player() == attacker, leaf)
            if status != 0:
                node.settle(status, length, draw)
            elif node.or_node:
                node.dn = len(child.legal_moves())
            else:
                node.pn = len(child.legal_moves())
            leaf.children.append(node)
        if self.master.job_symmetry == "on":
            by_move = {node.move: node for node in leaf.children}
            for first, *others in first_move_classes(state):
                for move in others:
                    by_move[move].alias = by_move[first]

    def solution(self, result, is_exact: bool, root_moves, move_classes) -> ClusterSolution:
        master = self.master
        return ClusterSolution(
            mover=self.state.current_player(), score=result, exact=is_exact, line=[],
            line_str=[], nodes=self.nodes, elapsed=time.monotonic() - self.start,
            root_moves=root_moves,
            interrupted=bool(self.stop is not None and self.stop.is_set()),
            loaded_entries=master.loaded_nodes,
            tt_bytes=master.hash_mb * 2**20,          # each worker's table
            move_classes=move_classes,
            workers=sorted(self.workers.values(), key=lambda stats: stats.name),
            jobs=self.jobs, tree_nodes=sum(root.count() for root in master.trees.values()))


@contextmanager
def cluster_solver(game, address: str, hash_mb: int = 64, job_nodes: int = JOB_NODES):
    """A :class:`JobLevelSolver` on the Dask scheduler at ``address`` (a bad address is a
    one-line GameError within the connect limit), disconnected at the end."""
    from crystalpick.search.executors import DaskCluster

    with DaskCluster(address) as executor:
        yield JobLevelSolver(game, executor, hash_mb, job_nodes)

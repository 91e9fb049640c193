"""A game enumerated through the contract into an explicit graph with information sets.

Nodes are merged when they are the same position (the same ``hash_key``, a 64-bit key of
everything in the position: two of a million positions collide with a chance near 3e-8) *and*
every player's own past is the same, so different orders of the same draws become one node
(their chance probabilities add) while no two histories a player can tell apart are ever
merged. A node's information set (at a decision) is keyed by the mover and its information
set key (``information_set_key``: everything it has observed since the root, its own moves
included, with what the rules make irrelevant forgotten, such as the order of draws between
two decisions), which has perfect recall by construction; with ``ordered=True`` by the
information state itself (``information_state_key``, order and all), where the node merging
alone picks which of the orders names a set: the reference the set keys are tested against.
The own past (the sequence of (information set, move) of its earlier decisions) is kept only
as a check: an information set met after two different own move sequences is an error, and
``recall_report`` also says how often the observation alone (a snapshot, which forgets an
earlier call, for instance) would have merged different own pasts.

With ``recall=False`` the own pasts are dropped: nodes are positions and information sets are
(mover, observation) groups, what backward induction over states needs.

Node ids are in post-order: every child has a smaller id than its parents, so ascending ids
are a backward (leaves first) order and descending ids a forward one.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from crystalpick.engine.game import CHANCE, TERMINAL, GameError

DEFAULT_MAX_NODES = 3_000_000


class TreeTooLarge(GameError):
    """The game has more nodes than the solver was allowed to build."""


class BuildStopped(Exception):
    """The stop flag was set while the tree was built: ``nodes`` were built by then."""

    def __init__(self, nodes: int):
        super().__init__(f"stopped after {nodes:,} nodes")
        self.nodes = nodes


@dataclass
class InfoSet:
    player: int
    observation: str
    moves: list[int]
    position: str              # one position of the set (a state to ask a policy at)
    first_slot: int            # the set's moves are slots first_slot .. first_slot+len-1
    history: tuple[int, ...] = ()   # the moves from the root to that position
    key: int = 0               # the information state's key (the observation's without recall)


@dataclass
class GameTree:
    """Arrays over nodes (``player``, ``value``, ``infoset``, children as CSR edges) and the
    information sets; ``value`` is the first player's win probability at a terminal node."""

    player: np.ndarray
    value: np.ndarray
    infoset: np.ndarray
    edge_start: np.ndarray
    edge_child: np.ndarray
    edge_move: np.ndarray
    edge_prob: np.ndarray      # chance probability (1.0 on decision edges)
    edge_parent: np.ndarray
    edge_slot: np.ndarray      # the (information set, move) slot of a decision edge, else -1
    infosets: list[InfoSet]
    slot_infoset: np.ndarray   # the information set of each (information set, move) slot
    root: int
    recall: bool
    seconds: float = 0.0
    start: object = None       # the root state (a clone): histories are replayed from it
    node_key: np.ndarray = None     # each node's position ``hash_key``
    observation_pasts: dict = field(default_factory=dict)
    information_pasts: dict = field(default_factory=dict)

    @property
    def nodes(self) -> int:
        return len(self.player)

    @property
    def slots(self) -> int:
        return len(self.slot_infoset)

    @cached_property
    def infoset_player(self) -> np.ndarray:
        return np.array([i.player for i in self.infosets], dtype=np.int64)

    @cached_property
    def infoset_first(self) -> np.ndarray:
        return np.array([i.first_slot for i in self.infosets], dtype=np.int64)

    @cached_property
    def infoset_size(self) -> np.ndarray:
        return np.array([len(i.moves) for i in self.infosets], dtype=np.int64)

    @cached_property
    def infoset_node(self) -> np.ndarray:
        """One node of each information set: with perfect recall its player's own reach,
        and its own move sequence, are the set's."""
        node = np.zeros(len(self.infosets), dtype=np.int64)
        nodes = np.flatnonzero(self.infoset >= 0)
        node[self.infoset[nodes]] = nodes
        return node

    @cached_property
    def slot_player(self) -> np.ndarray:
        """The player choosing at each (information set, move) slot."""
        return self.infoset_player[self.slot_infoset]

    def children(self, node: int) -> range:
        return range(self.edge_start[node], self.edge_start[node + 1])

    def recall_report(self) -> dict:
        """Whether the observation strings alone, and the information states alone,
        distinguish each player's own move sequences: groups that hold more than one own
        past."""
        mixed = [key for key, pasts in self.observation_pasts.items() if len(pasts) > 1]
        merged = [key for key, pasts in self.information_pasts.items() if len(pasts) > 1]
        return {"observation_groups": len(self.observation_pasts),
                "groups_with_several_own_move_sequences": len(mixed),
                "perfect_recall_from_observations": not mixed,
                "information_state_groups": len(self.information_pasts),
                "perfect_recall_from_information_states": not merged}


def win_probability(returns) -> float:
    """The first player's result as a win probability: a win 1, a draw 1/2, a loss 0."""
    return 0.5 + (returns[0] - returns[1]) / 4.0


def build_tree(root_state, *, recall: bool = True, max_nodes: int = DEFAULT_MAX_NODES,
               ordered: bool = False, stop=None, too_large: str | None = None) -> GameTree:
    """Enumerate every history from ``root_state`` (a clone is walked) into a
    :class:`GameTree`; :class:`TreeTooLarge` past ``max_nodes`` nodes (``too_large``: why
    that many, said in its message), :class:`BuildStopped` once ``stop`` (a stop flag) is
    set."""
    import time
    start = time.perf_counter()
    builder = _Builder(recall, max_nodes, len(root_state.played_moves()), ordered)
    builder.stop, builder.too_large = stop, too_large
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        root = builder.visit(root_state.clone(), (0, 0), (0, 0))
    finally:
        sys.setrecursionlimit(limit)
    tree = builder.finish(root)
    tree.seconds = time.perf_counter() - start
    tree.start = root_state.clone()
    return tree


class _Builder:
    def __init__(self, recall: bool, max_nodes: int, root_plies: int, ordered: bool):
        self.recall = recall
        self.ordered = ordered
        self.root_plies = root_plies
        self.max_nodes = max_nodes
        self.memo: dict = {}
        self.pasts: dict = {(): 0}          # interned own pasts: (parent, infoset, move)
        self.actions: dict = {(): 0}        # interned own move sequences: (parent, move)
        self.infoset_ids: dict = {}
        self.infosets: list[InfoSet] = []
        self.slots: list[int] = []
        self.player: list[int] = []
        self.value: list[float] = []
        self.node_key: list[int] = []
        self.node_infoset: list[int] = []
        self.edges: list[list[tuple[int, int, float]]] = []
        self.observation_pasts: dict = {}
        self.information_pasts: dict = {}
        self.stop = None
        self.too_large: str | None = None

    @staticmethod
    def intern(table: dict, key) -> int:
        found = table.get(key)
        if found is None:
            found = table[key] = len(table)
        return found

    def infoset_for(self, state, player: int, past: int, actions: int) -> int:
        observation = state.observation_string(player)
        self.observation_pasts.setdefault((player, observation), set()).add(actions)
        if self.recall:
            key = (player, state.information_state_key(player) if self.ordered
                   else state.information_set_key(player))
            pasts = self.information_pasts.setdefault(key, set())
            pasts.add(actions)
            if len(pasts) > 1:
                raise GameError(f"player {player + 1}'s information state is met after two "
                                f"different own move sequences: it lacks perfect recall "
                                f"({state.information_state_string(player)})")
        else:
            key = (player, observation)
        found = self.infoset_ids.get(key)
        moves = state.legal_moves()
        if found is None:
            found = self.infoset_ids[key] = len(self.infosets)
            self.infosets.append(InfoSet(player, observation, moves, state.position(),
                                         len(self.slots),
                                         tuple(state.played_moves()[self.root_plies:]),
                                         key[1] if self.recall else 0))
            self.slots.extend([found] * len(moves))
        elif self.infosets[found].moves != moves:
            raise GameError(f"two states with the same observation for player {player + 1} "
                            f"have different legal moves ({observation})")
        return found

    def visit(self, state, own0: tuple[int, int], own1: tuple[int, int]) -> int:
        """The node of ``state`` reached with the players' own pasts ``own0``/``own1``
        (each an interned (past, move sequence) pair)."""
        position = state.hash_key()
        key = (position, own0[0], own1[0]) if self.recall else position
        node = self.memo.get(key)
        if node is not None:
            if node < 0:
                raise GameError(f"the game repeats a position: {state.position()}")
            return node
        self.memo[key] = -1
        player = state.current_player()
        edges = []
        infoset = -1
        value = 0.0
        if player == TERMINAL:
            value = win_probability(state.returns())
        elif player == CHANCE:
            for move, probability in state.chance_outcomes():
                state.play(move)
                edges.append((self.visit(state, own0, own1), move, probability))
                state.undo()
        else:
            own = own0 if player == 0 else own1
            infoset = self.infoset_for(state, player, *own)
            for move in self.infosets[infoset].moves:
                after = (self.intern(self.pasts, (own[0], infoset, move)),
                         self.intern(self.actions, (own[1], move)))
                state.play(move)
                child = self.visit(state, after if player == 0 else own0,
                                   after if player == 1 else own1)
                state.undo()
                edges.append((child, move, 1.0))
        node = len(self.player)
        if node >= self.max_nodes:
            raise TreeTooLarge(self.too_large or f"the game has more than {self.max_nodes:,} "
                               f"nodes; choose a smaller configuration")
        if self.stop is not None and node & 1023 == 0 and self.stop.is_set():
            raise BuildStopped(node)
        self.player.append(player)
        self.value.append(value)
        self.node_key.append(position)
        self.node_infoset.append(infoset)
        self.edges.append(edges)
        self.memo[key] = node
        return node

    def finish(self, root: int) -> GameTree:
        return assemble(self.player, self.value, self.node_infoset, self.edges, self.infosets,
                        self.slots, root, recall=self.recall, node_key=self.node_key,
                        observation_pasts=self.observation_pasts,
                        information_pasts=self.information_pasts)


def assemble(player, value, infoset, edges, infosets, slots, root, **more) -> GameTree:
    """A :class:`GameTree` from per-node lists (``edges``: each node's (child, move,
    probability) triples, children with smaller ids) and the information sets' slots."""
    counts = np.array([len(e) for e in edges], dtype=np.int64)
    start = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    flat = [edge for node_edges in edges for edge in node_edges]
    parent = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    infoset = np.array(infoset, dtype=np.int64)
    first = np.array([i.first_slot for i in infosets] + [0], dtype=np.int64)
    rank = np.arange(len(flat), dtype=np.int64) - start[parent]
    slot = np.where(infoset[parent] >= 0, first[infoset[parent]] + rank, -1)
    if more.get("node_key") is not None:
        more["node_key"] = np.array(more["node_key"], dtype=np.uint64)
    return GameTree(
        player=np.array(player, dtype=np.int64), value=np.array(value, dtype=float),
        infoset=infoset, edge_start=start,
        edge_child=np.array([e[0] for e in flat], dtype=np.int64),
        edge_move=np.array([e[1] for e in flat], dtype=np.int64),
        edge_prob=np.array([e[2] for e in flat], dtype=float),
        edge_parent=parent, edge_slot=slot, infosets=infosets,
        slot_infoset=np.array(slots, dtype=np.int64), root=root, **more)

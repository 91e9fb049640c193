"""Root-parallel regret searches: independent searches of one game (search/mccfr.pyx) from
different seeds, run side by side in threads, since their C loops release the GIL, and read
as one.

Reading them as one adds their accumulators: a move's average-strategy weight at an
information set is a reach-weighted sum, so the sums of several searches, normalised, are
the behaviour strategy of the mixture of their average strategies in sequence form (each
weighted by its total), and exploitability is convex there: the workers together are never
more exploitable than their mean, and their sampling noise averages out. Regrets are not
added (each worker's own current strategy keeps sampling its own way)."""
from __future__ import annotations

import threading

from .mccfr import MCCFR, normalised

SEED_STEP = 0x9E3779B97F4A7C15      # workers' seeds: the search seed plus multiples of this


def worker_seeds(seed: int, workers: int) -> list[int]:
    return [(seed + index * SEED_STEP) % 2**63 for index in range(workers)]


class RootParallel:
    """``searches`` (fresh or continued alike, one game and player) as one search, with the
    attributes and methods the engines and benches read of a single :class:`MCCFR`."""

    def __init__(self, searches: list[MCCFR]):
        self.searches = searches

    def set_stop(self, flag=None) -> None:
        for search in self.searches:
            search.set_stop(flag)

    def run(self, simulations: int, deadline: float = 0.0, node_limit: int = 0) -> int:
        """Share ``simulations`` and ``node_limit`` among the workers, all stopping at the
        deadline or the stop flag; how many iterations ran in all."""
        count = len(self.searches)
        shares = [simulations // count + (index < simulations % count)
                  for index in range(count)]
        nodes = -(-node_limit // count) if node_limit else 0
        done, failed = [0] * count, []

        def work(index: int) -> None:
            try:
                done[index] = self.searches[index].run(shares[index], deadline, nodes) \
                    if shares[index] else 0
            except MemoryError as err:
                failed.append(err)
        threads = [threading.Thread(target=work, args=(index,), daemon=True)
                   for index in range(1, count)]
        for thread in threads:
            thread.start()
        work(0)
        for thread in threads:
            thread.join()
        if failed:
            raise failed[0]
        return sum(done)

    def continue_at(self, kernel, seed: int) -> bool:
        """Every worker continued at the new decision (each with its own kernel), or none."""
        seeds = worker_seeds(seed, len(self.searches))
        return all([search.continue_at(kernel.clone(), worker_seed)
                    for search, worker_seed in zip(self.searches, seeds)])

    def reset_counters(self) -> None:
        for search in self.searches:
            search.reset_counters()

    def average_sums(self, information_key: int, player: int):
        found = [search.average_sums(information_key, player) for search in self.searches]
        found = [sums for sums in found if sums is not None]
        if not found:
            return None
        return {move: sum(sums[move] for sums in found) for move in found[0]}

    def average_strategy(self, information_key: int, player: int):
        return normalised(self.average_sums(information_key, player))

    def root_slots(self):
        """Each worker's root slots added up move by move (the workers that met it)."""
        totals: dict[int, list] = {}
        for search in self.searches:
            for move, *fields in search.root_slots():
                totals.setdefault(move, [0.0, 0.0, 0.0, 0])
                totals[move] = [a + b for a, b in zip(totals[move], fields)]
        return [(move, *fields) for move, fields in totals.items()]

    # the counters the engines report: added up, the deepest, or the one all share
    @property
    def simulations(self) -> int:
        return sum(search.simulations for search in self.searches)

    @property
    def made(self) -> int:
        return sum(search.made for search in self.searches)

    @property
    def reached(self) -> int:
        return sum(search.reached for search in self.searches)

    @property
    def infoset_count(self) -> int:
        """Information sets held in all the workers' tables (memory, not distinct sets)."""
        return sum(search.infoset_count for search in self.searches)

    @property
    def max_depth(self) -> int:
        return max(search.max_depth for search in self.searches)

    @property
    def history_plies(self) -> int:
        return self.searches[0].history_plies

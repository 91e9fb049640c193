"""The two exact methods side by side on every small card battle configuration: the
sequence-form LP's value (HiGHS) and CFR+ run until its average strategy's exact
exploitability is at most --target, whose bracket [lower, upper] must hold the LP's value.

    python bench/experiments/cardbattle_exact_agreement.py [--config NAME ...] [--target 1e-6]

One line per configuration: the tree, the LP's value and time, CFR+'s iterations, measured
exploitability, bracket and time, and how far the bracket's middle is from the LP's value
(at most the target when both are right: the bracket is twice the exploitability wide).
"""
from __future__ import annotations

import argparse
import sys

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.smallgames import small_games
from crystalpick.solvers.exact.cfr import solve_cfr
from crystalpick.solvers.exact.sequence import solve_sequence_form
from crystalpick.solvers.exact.tree import build_tree


def agreement(name: str, target: float) -> dict:
    tree = build_tree(CardBattle().small_configuration(name).setup_state())
    exact = solve_sequence_form(tree)
    cfr = solve_cfr(tree, target, max_iterations=1 << 20,
                    progress=lambda i, e: print(f"  {name}: CFR+ {i} iterations, "
                                                f"exploitability {e:.3e}", file=sys.stderr,
                                                flush=True))
    measured = cfr.measured
    middle = (measured.lower + measured.upper) / 2
    return {"nodes": tree.nodes, "sets": len(tree.infosets),
            "lp_value": exact.value, "lp_s": exact.seconds,
            "iterations": cfr.iterations, "exploitability": measured.exploitability,
            "lower": measured.lower, "upper": measured.upper, "cfr_s": cfr.seconds,
            "distance": abs(middle - exact.value),
            "inside": measured.lower - 1e-9 <= exact.value <= measured.upper + 1e-9}


def positive(text: str) -> float:
    """A target CFR+ can reach: a number above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", action="append", choices=sorted(small_games()))
    parser.add_argument("--target", type=positive, default=1e-6,
                        help="CFR+'s exploitability to reach (win probability, > 0)")
    args = parser.parse_args()
    print("| configuration | nodes | information sets | LP value | LP s | CFR+ iterations "
          "| CFR+ exploitability | CFR+ bracket | CFR+ s | bracket middle - LP | LP inside |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.config or sorted(small_games()):
        r = agreement(name, args.target)
        print(f"| {name} | {r['nodes']:,} | {r['sets']:,} | {r['lp_value']:.9f} | "
              f"{r['lp_s']:.1f} | {r['iterations']:,} | {r['exploitability']:.2e} | "
              f"{r['lower']:.9f} - {r['upper']:.9f} | {r['cfr_s']:.1f} | "
              f"{r['distance']:.1e} | {'yes' if r['inside'] else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()

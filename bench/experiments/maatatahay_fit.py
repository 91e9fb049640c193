"""Fit the Maatatahay evaluation's weights: a logistic regression of game results on its terms.

Positions come from seeded self-play under the default rules (alpha-beta at a small depth
with the current evaluation, a share of uniformly random moves for variety, chance drawn
from the seed). Each decision position is described by the evaluation's own terms (with
unit weights, from the mover's side: mover minus opponent) and, for the terms about the
future, the same term times the progress towards the death limit (the evaluation's
``*_late`` weights scale a term by 1 - late x progress). The label is the mover's result
(1 win, 0.5 draw, 0 loss). The fit is Newton's method (IRLS) with a small ridge; whole
games are held out to measure it. Weights are printed in evaluation units (40 per point)
and the late weights as the share of a term lost per unit of progress.

    nice python bench/experiments/maatatahay_fit.py --games 600 --seed 1
"""
from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from crystalpick.engine.game import CHANCE, sample_chance
from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.evaluation import MaatatahayEvaluator
from crystalpick.search import analyse
from crystalpick.search.engines import make_engine
from crystalpick.search.limits import Limits

POINTS = 40.0                     # evaluation units per point, the fixed currency
TERMS = ("safety", "relics", "remaining", "tempo")
LATE = {"points": "points_late", "safety": "safety_late", "stored": "stored_late",
        "relics": "relic_late", "remaining": "remaining_late", "tempo": "tempo_late"}
WEIGHT = {"safety": "safety", "relics": "relic", "remaining": "remaining",
          "tempo": "cell_energy", "spirit": "stored_spirit", "energy": "stored_energy"}
# Unit weights: each term counts its raw amount; the tempo term keeps the cells' Spirit to
# Energy ratio of the current weights, so its fit scales both.
DEFAULTS = MaatatahayEvaluator().weights
UNIT = dict(points=1, safety=1, relic=1, remaining=1, stored_spirit=1, stored_energy=0,
            cell_spirit=DEFAULTS["cell_spirit"] / DEFAULTS["cell_energy"], cell_energy=1,
            **{late: 0 for late in LATE.values()})


def evaluators():
    """Unit-weight evaluators: the terms now, and with every late weight 1 (term x (1 -
    progress)), for Spirit and for Energy in storage."""
    energy = dict(UNIT, stored_spirit=0, stored_energy=1)
    return [MaatatahayEvaluator(**weights) for weights in
            (UNIT, dict(UNIT, **{late: 1 for late in LATE.values()}),
             energy, dict(energy, stored_late=1))]


FEATURES = (["points", "spirit", "energy", *TERMS]
            + [f"{name}*progress" for name in ("points", "spirit", "energy", *TERMS)])


def features(state, hooks, mover):
    """The features of ``state`` from ``mover``'s side (see FEATURES)."""
    now, later, energy_now, energy_later = (hook.terms(state) for hook in hooks)

    def diff(terms, name):
        return terms[name][mover] - terms[name][1 - mover]

    base = [diff(now, "points"), diff(now, "stored"), diff(energy_now, "stored")]
    base += [diff(now, name) for name in TERMS]
    late = [diff(now, "points") - diff(later, "points"),
            diff(now, "stored") - diff(later, "stored"),
            diff(energy_now, "stored") - diff(energy_later, "stored")]
    late += [diff(now, name) - diff(later, name) for name in TERMS]
    return base + late


def play_games(games, seed, depth, random_share):
    """(features, labels, game numbers) of every decision position of ``games`` games."""
    hooks = evaluators()
    rng = random.Random(seed)
    rows, movers, numbers, labels = [], [], [], []
    for number in range(games):
        engine = make_engine("alphabeta")
        state = Maatatahay(seed=rng.randrange(2**32)).new_initial_state()    # the setup
        start = len(rows)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.play(sample_chance(state, rng.random()))
                continue
            rows.append(features(state, hooks, player))
            movers.append(player)
            numbers.append(number)
            moves = state.legal_moves()
            if len(moves) > 1 and rng.random() < random_share:
                state.play(rng.choice(moves))
            else:
                state.play(analyse(state, engine, Limits(depth=depth)).best_move)
        returns = state.returns()
        labels += [(returns[p] + 1) / 2 for p in movers[start:]]
        if (number + 1) % 50 == 0:
            print(f"  {number + 1} games, {len(rows)} positions", file=sys.stderr)
    return np.array(rows, float), np.array(labels, float), np.array(numbers)


def fit(x, y, ridge=1e-3, steps=50):
    """Logistic regression without intercept (the features are antisymmetric) by Newton's
    method; ``x`` is standardised inside and the coefficients returned in x's units."""
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    beta = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ beta)))
        gradient = z.T @ (p - y) + ridge * len(y) * beta
        hessian = (z * (p * (1 - p))[:, None]).T @ z + ridge * len(y) * np.eye(z.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    return beta / scale


def quality(x, y, beta):
    """Log-loss and accuracy (decided games only) of the coefficients on (x, y)."""
    p = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-12, 1 - 1e-12)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    decided = y != 0.5
    accuracy = np.mean((p[decided] > 0.5) == (y[decided] > 0.5))
    return loss, accuracy


def report(name, columns, x, y, train, test):
    chosen = [FEATURES.index(c) for c in columns]
    beta = fit(x[train][:, chosen], y[train])
    loss, accuracy = quality(x[test][:, chosen], y[test], beta)
    print(f"{name}: held-out log-loss {loss:.4f}, accuracy {accuracy:.3f}")
    return dict(zip(columns, beta))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--random-share", type=float, default=0.15)
    parser.add_argument("--held-out", type=float, default=0.2, help="share of games")
    parser.add_argument("--save", help="save the positions (.npz) for later fits")
    parser.add_argument("--load", help="fit saved positions instead of playing")
    args = parser.parse_args(argv)
    seed = random.randrange(2**31) if args.seed is None else args.seed
    print(f"seed {seed}")
    if args.load:
        data = np.load(args.load)
        x, y, numbers = data["x"], data["y"], data["numbers"]
    else:
        began = time.process_time()
        x, y, numbers = play_games(args.games, seed, args.depth, args.random_share)
        print(f"{args.games} games, {len(y)} positions, "
              f"{time.process_time() - began:.0f} s CPU")
        if args.save:
            np.savez(args.save, x=x, y=y, numbers=numbers)
    games = numbers.max() + 1
    order = np.random.default_rng(seed).permutation(games)
    test_games = set(order[:int(games * args.held_out)].tolist())
    test = np.array([n in test_games for n in numbers])
    train = ~test
    print(f"train {train.sum()} positions, held out {test.sum()} "
          f"({len(test_games)} games); draws {np.mean(y == 0.5):.3f}")
    report("points only", ["points"], x, y, train, test)
    base = FEATURES[:3 + len(TERMS)]
    report("every term", base, x, y, train, test)
    beta = report("every term and its late part", FEATURES, x, y, train, test)
    per_point = beta["points"] / POINTS
    print("weights (evaluation units; late: share lost per unit of progress)")
    print(f"  points {POINTS:.0f}\n    points_late {-beta['points*progress'] / beta['points']:.2f}")
    for name in base[1:]:
        weight = beta[name] / per_point
        if name == "tempo":
            print(f"  cell_spirit {weight * UNIT['cell_spirit']:.1f}  cell_energy {weight:.1f}")
        else:
            print(f"  {WEIGHT[name]} {weight:.1f}")
        late = f"{name}*progress"
        if late in beta and beta[name] != 0:
            key = LATE.get(name, "stored_late")
            print(f"    {key} ({name}) {-beta[late] / beta[name]:.2f}")
    print(f"  evaluation units per logistic unit {1 / per_point:.0f}")


if __name__ == "__main__":
    main()

"""The ``--plot FILE`` pictures (``.svg`` or ``.png``) of what the search layer reports:
``annotate``'s evaluation graph, a match's running score, Elo and SPRT, the deck advisor's
win rates and card contributions, and bench rates.

Drawn with matplotlib, the optional ``plots`` extra (``pip install "crystalpick[plots]"``):
a well-kept plotting library beats writing one. Each function takes the document its command
already reports (the JSON of ``--json``) and a path, so the commands only pass data; nothing
here computes a statistic (the figures come from :mod:`.match.stats` through the documents).
Figures are built with the object API on the non-interactive Agg canvas, never a display;
SVG keeps its text as text (readable, searchable) and carries no date, so a rendered example
in docs/ changes only when the picture does. The artists a reader (or a test) looks for are
given ids (``gid``): ``curve-N``, ``mistakes-N``, ``blunders-N``, ``score-N``, ``elo-N``,
``llr``, ``sprt-bound-H0``/``-H1``, ``win-rate``, ``card-N`` (a card's bar),
``rate-GAME-MEASURE`` (a bench bar),
``ratings`` (a tournament's rating list), ``elo-unbounded`` (the note naming pairings
with no finite Elo).
"""
from __future__ import annotations

import math
import os
import textwrap

from crystalpick.engine import GameError

SUFFIXES = (".svg", ".png")
INSTALL = 'pip install "crystalpick[plots]"'
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
MARK_STYLE = {"mistake": ("o", "#f0a020"), "blunder": ("X", "#d62728")}
MARKERS = ("o", "s", "^", "v", "D", "P", "*", "X", "<", ">")
LEGEND_LIMIT = 10      # more curves than this: the legend names the first ones only
# SVG text as <text> (not glyph paths) and fixed ids: readable, and the same picture is the
# same file
SAVE_SETTINGS = {"svg.fonttype": "none", "svg.hashsalt": "crystalpick"}


def check_target(option: str, path: str) -> None:
    """Before any work: ``path`` ends in .svg or .png, and matplotlib is installed (a
    GameError naming what is wrong, so the command fails at once, not after the work)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise GameError(f"{option} {path}: expected a file ending in .svg or .png")
    _matplotlib()


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise GameError(f"drawing plots needs matplotlib: {INSTALL}") from None
    return matplotlib


def _figure(rows: int = 1, columns: int = 1, size=(8.0, 4.5), **options):
    """A figure on the Agg canvas (no pyplot, no display) and its axes."""
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.subplots(rows, columns, squeeze=False, **options)


def _save(figure, path: str) -> None:
    """PNG at 100 dpi or SVG, by the file's suffix; no date, so equal pictures are equal
    files."""
    suffix = os.path.splitext(path)[1].lower()
    metadata = {"Date": None} if suffix == ".svg" else {}
    with _matplotlib().rc_context(SAVE_SETTINGS):     # for this file only, not globally
        figure.savefig(path, format=suffix[1:], dpi=100, metadata=metadata)


def _legend(axes, **options) -> None:
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize="small", **options)


def _finite(values) -> list[float]:
    """None (JSON's unbounded) and infinities as NaN: matplotlib leaves a gap there."""
    return [math.nan if v is None or not math.isfinite(v) else v for v in values]


# -- annotate ---------------------------------------------------------------------------------

def evaluation_graph(document: dict, path: str) -> None:
    """The first player's win probability against ply for every game of an annotation
    report (``Annotation.report()``), one curve per game in one figure, with each game's
    mistakes and blunders marked on its curve."""
    figure, axes = _figure()
    axes = axes[0][0]
    games = document["games"]
    first = games[0]["players"][0]["player"] if games else "?"
    curves = [{point["ply"]: point["first_win"] for point in game["curve"]} for game in games]
    for number, (game, curve) in enumerate(zip(games, curves), 1):
        names = " vs ".join(player["label"] for player in game["players"])
        axes.plot(list(curve), list(curve.values()), color=COLOURS[(number - 1) % len(COLOURS)],
                  linewidth=1.5, gid=f"curve-{number}",
                  label=f"game {game['game']}: {names} ({game['result']})"
                  if number <= LEGEND_LIMIT else None)
    for mark, (symbol, colour) in MARK_STYLE.items():     # after the curves: on top of them
        named = False                                      # and last in the legend
        for number, (game, curve) in enumerate(zip(games, curves), 1):
            marked = [move["ply"] for move in game["moves"]
                      if move["mark"] == mark and move["ply"] in curve]
            if marked:
                axes.plot(marked, [curve[ply] for ply in marked], linestyle="none",
                          marker=symbol, markersize=8, color=colour, markeredgecolor="black",
                          label=None if named else f"{mark}s", gid=f"{mark}s-{number}")
                named = True
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    axes.set_ylim(0, 1)
    axes.set_xlabel("ply")
    axes.xaxis.set_major_locator(_whole_numbers())
    axes.set_ylabel(f"win probability of the first player ({first})")
    axes.set_title(f"Evaluation by {document['engine']} (mistake >= "
                   f"{100 * document['thresholds']['mistake']:g}%, blunder >= "
                   f"{100 * document['thresholds']['blunder']:g}% lost by the mover)",
                   fontsize="medium")
    axes.yaxis.set_major_formatter(_percent())
    axes.grid(alpha=0.3)
    _legend(axes, loc="best")
    _save(figure, path)


def _whole_numbers():
    from matplotlib.ticker import MaxNLocator
    return MaxNLocator(integer=True)


def _percent():
    from matplotlib.ticker import PercentFormatter
    return PercentFormatter(1.0, decimals=0)


# -- match and tournament ---------------------------------------------------------------------

def match_graph(series: list[dict], path: str, ratings: dict | None = None) -> None:
    """Score and Elo, each with its 95% interval, against games played, for each of
    ``series`` (``{"label", "running", "sprt"}``: ``running`` as :func:`.match.report.
    running`, ``sprt`` the summary's SPRT or None); with an SPRT, a third panel draws its
    log-likelihood ratio between the bounds; with ``ratings`` (a tournament's rating list
    document), a last panel draws each engine's rating and interval. The legend sits beside
    the panels and the score axis reaches past 0% and 100%, so no curve hides under either."""
    sprt = next((s["sprt"] for s in series if s.get("sprt")), None)
    listed = (ratings or {}).get("ratings") or []
    rows = 2 + bool(sprt) + bool(listed)
    heights = [2.6] * (rows - bool(listed)) + ([0.4 * len(listed) + 1.0] if listed else [])
    figure, axes = _figure(rows, 1, size=(8.0, sum(heights)), height_ratios=heights)
    score_axes, elo_axes = axes[0][0], axes[1][0]
    unbounded = []
    for number, item in enumerate(series, 1):
        running, colour = item["running"], COLOURS[(number - 1) % len(COLOURS)]
        games = running["games"]
        label = item["label"] if number <= LEGEND_LIMIT else None
        # earlier curves wider and each with its marker: equal curves (several pairings at
        # 100%) show as nested bands, not as the last one drawn
        width = 1.5 + 0.8 * min(len(series) - number, 6)
        for panel, key in ((score_axes, "score"), (elo_axes, "elo")):
            panel.plot(games, _finite(running[key]), color=colour, linewidth=width,
                       marker=MARKERS[(number - 1) % len(MARKERS)], markersize=4,
                       label=label, gid=f"{key}-{number}")
            panel.fill_between(games, _finite(running[f"{key}_low"]),
                               _finite(running[f"{key}_high"]), color=colour, alpha=0.2,
                               linewidth=0, gid=f"{key}-interval-{number}")
        if games and running["elo"][-1] is None:
            unbounded.append(item["label"])
    score_axes.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    score_axes.set_ylim(-0.04, 1.04)
    score_axes.yaxis.set_major_formatter(_percent())
    score_axes.set_ylabel("score (95%)")
    score_axes.set_title("Running score and Elo of the first engine, 95% intervals",
                         fontsize="medium")
    elo_axes.axhline(0, color="grey", linewidth=0.8, linestyle=":")
    elo_axes.set_ylabel("Elo (95%)")
    if unbounded:           # a 100% or 0% score has no finite Elo: say so, not nothing
        elo_axes.text(0.01, 0.97, textwrap.fill("Elo unbounded now (a 100% or 0% score), not "
                                                "drawn: " + ", ".join(unbounded), 110),
                      transform=elo_axes.transAxes, fontsize="x-small", va="top",
                      gid="elo-unbounded")
    _legend(score_axes, loc="upper left", bbox_to_anchor=(1.01, 1))      # beside the curves
    last = elo_axes
    if sprt:
        last = axes[2][0]
        for item in series:
            if item.get("sprt"):
                running = item["running"]
                last.plot(running["games"], running["llr"], color="black", linewidth=1.5,
                          label="LLR", gid="llr")
        for bound, name in ((sprt["upper_bound"], "H1"), (sprt["lower_bound"], "H0")):
            last.axhline(bound, color="#d62728" if name == "H0" else "#2ca02c",
                         linestyle="--", linewidth=1, label=f"accept {name} ({bound:.2f})",
                         gid=f"sprt-bound-{name}")
        last.set_ylabel("SPRT LLR")
        last.set_title(f"SPRT [{sprt['elo0']:g}, {sprt['elo1']:g}] {sprt['model']}, "
                       f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}", fontsize="small")
        _legend(last, loc="upper left", bbox_to_anchor=(1.01, 1))
    for row in axes[:rows - bool(listed)]:
        row[0].grid(alpha=0.3)
        if row[0] is not score_axes:
            row[0].sharex(score_axes)
    last.set_xlabel("games played" if len(series) == 1 else "games played by each pairing")
    last.xaxis.set_major_locator(_whole_numbers())
    if listed:
        rating_panel(axes[-1][0], ratings)
    _save(figure, path)


def rating_panel(axes, ratings: dict) -> None:
    """A rating list (``RatingList.document()``): each engine's Elo with its 95% interval,
    best at the top, as the text list prints it."""
    listed = ratings["ratings"]
    points = [(r["elo"], r.get("low"), r.get("high")) for r in listed]
    bars = axes.errorbar([elo for elo, _, _ in points], range(len(listed)),
                         xerr=error_bars(points), fmt="o", capsize=4, color="black")
    bars[0].set_gid("ratings")
    axes.set_yticks(range(len(listed)), [r["engine"] for r in listed], fontsize="small")
    axes.set_ylim(len(listed) - 0.5, -0.5)                 # best first, at the top
    axes.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    anchor = ratings.get("anchor", "mean")
    axes.set_xlabel(f"Elo (95%), {'the mean' if anchor == 'mean' else anchor} at 0")
    axes.set_title(f"Rating list, {ratings.get('games', '?')} games", fontsize="medium")
    axes.grid(alpha=0.3, axis="x")


# -- deck advisor -----------------------------------------------------------------------------

def error_bars(points) -> list[list[float]]:
    """Matplotlib's [below, above] error lengths of (centre, low, high) points; an end that
    could not be computed (None: too few pairs, no spread, apps/match/stats.py) draws no
    bar on that side; the text report says why there is none."""
    below = [centre - low if low is not None else 0.0 for centre, low, _ in points]
    above = [high - centre if high is not None else 0.0 for centre, _, high in points]
    return [below, above]


def deck_graph(document: dict, path: str) -> None:
    """The deck advisor's report (``Advisor.document()``): the win rate with its 95%
    interval against each opponent deck and overall, and each card's swapped-out change:
    the win rate the deck gains when the card is replaced by a random card of the set, with
    the text's sign and its paired 95% interval."""
    cards = document["cards"]
    figure, axes = _figure(1, 2, size=(11.0, max(4.0, 0.32 * len(cards) + 1.5)),
                           width_ratios=[1, 2])
    rates, contributions = axes[0][0], axes[0][1]
    measured = [(f"vs {name}", rate) for name, rate in
                document["win_rate"]["by_opponent"].items()]
    measured.append(("overall", document["win_rate"]["overall"]))
    shown = [(name, rate) for name, rate in measured if rate is not None]
    positions = list(range(len(shown)))
    scores = [rate["score"] for _, rate in shown]
    errors = error_bars([(rate["score"], rate["low"], rate["high"]) for _, rate in shown])
    points, _, intervals = rates.errorbar(positions, scores, yerr=errors, fmt="o", capsize=6,
                                          markersize=7, color=COLOURS[0])
    points.set_gid("win-rate")
    intervals[0].set_gid("win-rate-intervals")
    rates.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    rates.set_xticks(positions, [name for name, _ in shown], rotation=20, ha="right")
    rates.set_xlim(-0.5, max(len(shown), 1) - 0.5)      # also before any complete pair
    rates.set_ylim(0, 1)
    rates.yaxis.set_major_formatter(_percent())
    rates.set_ylabel(f"win rate of {document['deck']['name']} (95%)")
    rates.set_title(f"{document['games_per_opponent']} games per opponent, "
                    f"{document['engine']} in both seats", fontsize="medium")
    rates.grid(alpha=0.3, axis="y")
    changed = [card for card in cards if card["swapped_out"] is not None]
    names = [f"{card['card']} {card['name']}" for card in changed]
    values = [card["swapped_out"]["change"] for card in changed]       # as the text prints
    spread = error_bars([(card["swapped_out"]["change"], card["swapped_out"]["low"],
                          card["swapped_out"]["high"]) for card in changed])
    contributions.barh(range(len(changed)), [100 * v for v in values],
                       xerr=[[100 * e for e in side] for side in spread], capsize=3,
                       color=[COLOURS[3] if v > 0 else COLOURS[2] for v in values])
    for bar, card in zip(contributions.patches, changed):
        bar.set_gid(f"card-{card['card']}")
    contributions.set_yticks(range(len(changed)), names, fontsize="small")
    contributions.invert_yaxis()
    contributions.axvline(0, color="black", linewidth=0.8, gid="no-change")
    contributions.set_xlabel("swapped out: win rate change, points, for a random card in "
                             "its place (95%)")
    contributions.set_title("each card swapped out (above 0: a random card does better)",
                            fontsize="medium")
    contributions.grid(alpha=0.3, axis="x")
    _save(figure, path)


# -- bench ------------------------------------------------------------------------------------

def rates_chart(rates: dict[str, dict[str, float]], path: str, title: str,
                unit: str = "nodes/s") -> None:
    """One panel per measure (perft, a searcher, ...) with a bar per game, each on a linear
    axis from zero, so a bar's length is its rate (perft runs at millions, searches at
    thousands a second: one shared axis would flatten the searches, a log axis would make
    lengths meaningless): the picture for comparing two builds' ``bench`` or ``perf_table``
    side by side."""
    measures = list(dict.fromkeys(name for by_game in rates.values() for name in by_game))
    figure, axes = _figure(1, max(len(measures), 1), size=(max(9.0, 2.4 * len(measures)), 4.5))
    for index, (panel, measure) in enumerate(zip(axes[0], measures)):
        games = [game for game, by_game in rates.items() if measure in by_game]
        heights = [rates[game][measure] for game in games]
        bars = panel.bar(range(len(games)), heights, 0.6,
                         color=[COLOURS[list(rates).index(game) % len(COLOURS)]
                                for game in games])
        for bar, game in zip(bars, games):
            bar.set_gid(f"rate-{game}-{measure}")
        panel.bar_label(bars, labels=[_short(h) for h in heights], fontsize="x-small",
                        padding=2)
        panel.set_xticks(range(len(games)), games, rotation=20, ha="right")
        panel.set_ylim(0, 1.15 * max(heights + [1.0]))      # from zero, room for labels
        panel.yaxis.set_major_formatter(_short_ticks())
        panel.set_title(measure, fontsize="medium")
        panel.grid(alpha=0.3, axis="y")
        if index == 0:
            panel.set_ylabel(f"{unit} (linear, from 0)")
    figure.suptitle(title, fontsize="medium")
    _save(figure, path)


def _short_ticks():
    from matplotlib.ticker import FuncFormatter
    return FuncFormatter(lambda value, _: _short(value))


def _short(value: float) -> str:
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:.1f}{suffix}"
    return f"{value:.0f}"


# -- convergence ------------------------------------------------------------------------------

def convergence_graph(document: dict, path: str) -> None:
    """Exploitability against the search's wall time, log-log, one curve per (configuration,
    engine) of ``bench/experiments/cardbattle_convergence.py``'s document: the mean over its
    seeds, the lowest and highest shaded; the 0.02 line is issue 28's target."""
    figure, axes = _figure(size=(8.0, 5.0))
    panel = axes[0][0]
    for number, entry in enumerate(document["curves"], 1):
        colour = COLOURS[(number - 1) % len(COLOURS)]
        runs = entry["runs"]
        seconds = [sum(run[i]["seconds"] for run in runs) / len(runs)
                   for i in range(len(runs[0]))]
        values = [[run[i]["exploitability"] for run in runs] for i in range(len(runs[0]))]
        label = f"{entry['configuration']} ({entry['engine']})" if number <= LEGEND_LIMIT \
            else None
        panel.plot(seconds, [sum(v) / len(v) for v in values], color=colour, marker="o",
                   markersize=3, linewidth=1.5, label=label, gid=f"curve-{number}")
        if len(runs) > 1:
            panel.fill_between(seconds, [min(v) for v in values], [max(v) for v in values],
                               color=colour, alpha=0.15, linewidth=0)
    panel.axhline(0.02, color="grey", linewidth=0.8, linestyle=":")
    panel.set_xscale("log", base=2)
    panel.set_yscale("log")
    panel.set_xlabel("search time, s (one core)")
    panel.set_ylabel("exploitability (win probability)")
    panel.set_title(f"Exact exploitability against time, seeds "
                    f"{', '.join(map(str, document['seeds']))}", fontsize="medium")
    _legend(panel, loc="best")
    _save(figure, path)

"""Match statistics as a dictionary (for --json and the database) and as fastchess-style text."""
from __future__ import annotations

import math

from ..sparkline import sparkline
from .ratings import format_document
from .stats import PAIR_NAMES, SPRT, Results
from .termination import UNKNOWN, Termination, label


def _number(value: float) -> float | None:
    """JSON has no infinity or NaN: an unbounded figure (all games won, say) or one that
    cannot be computed (``no_interval`` says why) becomes null; -0.0 becomes 0.0."""
    return round(value, 2) + 0.0 if math.isfinite(value) else None


def _text(value: float | None) -> str:
    return "unbounded" if value is None else f"{value:.2f}"


def termination_counts(counts: dict) -> dict[str, int]:
    """Games per termination (``Termination`` or None for unknown), in the enum's order."""
    ordered = [t for t in Termination if counts.get(t)]
    named = {t.value: counts[t] for t in ordered}
    if counts.get(None):
        named[UNKNOWN] = counts[None]
    return named


def summary(results: Results, engines: list[str], sprt: SPRT | None = None,
            decision: str | None = None, terminations: dict | None = None) -> dict:
    """Everything a match reports, from engine 1's point of view; ``terminations`` counts
    finished games by :class:`Termination`."""
    document = {
        "engines": engines, "point_of_view": engines[0],
        "games": results.games, "wins": results.wins, "draws": results.draws,
        "losses": results.losses, "score": round(results.score, 4),
        "draw_ratio": round(results.draw_ratio, 4), "los": round(results.los(), 4),
        "pentanomial": dict(zip(PAIR_NAMES, results.pairs)),
        "terminations": termination_counts(terminations or {}),
    }
    if results.games:
        elo, nelo = results.elo(), results.normalized_elo()
        pentanomial = results.use_pentanomial()
        document["elo"] = {"value": _number(elo.mean), "low": _number(elo.low),
                           "high": _number(elo.high), "error": _number(elo.error),
                           "model": "pentanomial" if pentanomial else "trinomial",
                           "units": sum(results.pairs) if pentanomial else results.games}
        if pentanomial and results.games > 2 * sum(results.pairs):
            document["elo"]["unpaired_games"] = results.games - 2 * sum(results.pairs)
        if elo.missing:
            document["elo"]["no_interval"] = elo.missing
        document["normalized_elo"] = {"value": _number(nelo.mean), "error": _number(nelo.error)}
    if sprt is not None:
        document["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                            "beta": sprt.beta, "model": sprt.model,
                            "llr": round(sprt.llr(results), 3),
                            "lower_bound": round(sprt.lower_bound, 3),
                            "upper_bound": round(sprt.upper_bound, 3),
                            "decision": decision}
    return document


def elo_spread(elo: dict, digits: int) -> str:
    """The Elo interval of a :func:`summary` as text: +/- its half width; its ends when one is
    infinite (the interval reaches a score of 0 or 1); or why there is none."""
    if "no_interval" in elo:
        return f"(no 95% interval: {elo['no_interval']})"
    if elo["error"] is not None:
        return f"+/- {elo['error']:.{digits}f}"
    return f"[{_text(elo['low'])}, {_text(elo['high'])}]"


def elo_basis(elo: dict) -> str:
    """What the Elo is computed over: the model, and games a pentanomial count leaves out."""
    plural = "" if elo["units"] == 1 else "s"
    basis = (f"pentanomial over {elo['units']} pair{plural}" if elo["model"] == "pentanomial"
             else f"trinomial over {elo['units']} game{plural}")
    if elo.get("unpaired_games"):
        unpaired = elo["unpaired_games"]
        basis += f", {unpaired} unpaired game{'' if unpaired == 1 else 's'} not counted"
    return basis


def format_summary(document: dict) -> str:
    first, second = document["engines"]
    lines = [f"Results of {first} vs {second} (scores for {first}):"]
    if "elo" in document:
        elo, nelo = document["elo"], document["normalized_elo"]
        if "no_interval" in elo:
            spread = f"(no 95% interval: {elo['no_interval']}; {elo_basis(elo)})"
        else:
            spread = f"{elo_spread(elo, 2)} (95%, {elo_basis(elo)})"
        nelo_text = (f"nElo: {_text(nelo['value'])} +/- {_text(nelo['error'])}"
                     if nelo["error"] is not None else "nElo: no interval yet")
        lines.append(f"Elo: {_text(elo['value'])} {spread}, {nelo_text}")
    # the LOS is over every game (the rating list's model); say so where the Elo is not
    basis = (f" (all {document['games']} games)"
             if document.get("elo", {}).get("unpaired_games") else "")
    lines.append(f"LOS: {100 * document['los']:.2f} %{basis}, DrawRatio: "
                 f"{100 * document['draw_ratio']:.2f} %")
    points = document["wins"] + document["draws"] / 2
    lines.append(f"Games: {document['games']}, Wins: {document['wins']}, Losses: "
                 f"{document['losses']}, Draws: {document['draws']}, Points: {points:g} "
                 f"({100 * document['score']:.2f} %)")
    lines.append("Ptnml(0-2): [" + ", ".join(str(v) for v in document["pentanomial"].values())
                 + "]  (" + ", ".join(document["pentanomial"]) + ")")
    if document["terminations"]:
        lines.append("Terminations: " + ", ".join(
            f"{label(name)} {count}" for name, count in document["terminations"].items()))
    if "decks" in document:
        lines.append(decks_line(document))
    if "sprt" in document:
        s = document["sprt"]
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision yet"}[s["decision"]]
        lines.append(f"LLR: {s['llr']:.2f} ({s['lower_bound']:.2f}, {s['upper_bound']:.2f}) "
                     f"[{s['elo0']:.2f}, {s['elo1']:.2f}] {s['model']}: {verdict}")
    return "\n".join(lines)


def decks_line(document: dict) -> str:
    """A match of a game with decks: which deck each seat held, and what that means."""
    held = ", ".join(f"{seat} {deck}" for seat, deck in document["decks"].items())
    return f"Decks: {held} ({document['decks_note']})"


def pairing_line(document: dict) -> str:
    """A match (:func:`summary`) in one line, as a tournament lists its pairings."""
    first, second = document["engines"]
    points = document["wins"] + document["draws"] / 2
    line = (f"{first} vs {second}: {points:g}/{document['games']} (W {document['wins']} "
            f"D {document['draws']} L {document['losses']})")
    if "elo" in document:
        elo = document["elo"]
        value = "unbounded" if elo["value"] is None else f"{elo['value']:+.1f}"
        line += f", Elo {value} {elo_spread(elo, 1)}"
    return line + ", Ptnml [" + ", ".join(map(str, document["pentanomial"].values())) + "]"


def running(history: list[Results], sprt: SPRT | None = None) -> dict:
    """The figures of :func:`summary` after each game of ``history`` (``MatchState.
    running()``): the score and Elo with their 95% intervals (None where unbounded) and,
    with an SPRT, its LLR; lists indexed like ``games``."""
    figures = {key: [] for key in ("games", "score", "score_low", "score_high", "elo",
                                   "elo_low", "elo_high", "llr")}
    for results in history:
        score, elo = results.score_interval(), results.elo()
        for key, value in (("games", results.games), ("score", score.mean),
                           ("score_low", score.low), ("score_high", score.high),
                           ("elo", _number(elo.mean)), ("elo_low", _number(elo.low)),
                           ("elo_high", _number(elo.high)),
                           ("llr", sprt.llr(results) if sprt else None)):
            figures[key].append(value)
    return figures


def running_chart(figures: dict) -> str:
    """:func:`running`'s score as one line of blocks, for the text summary."""
    if not figures["games"]:
        return ""
    return (f"Running score, games 1 to {figures['games'][-1]} (▁ 0% .. █ 100%): "
            f"{sparkline(figures['score'])}")


def progress_text(results: Results, sprt: SPRT | None) -> str:
    """The short live line under the progress bar."""
    text = f"W/D/L {results.wins}/{results.draws}/{results.losses}"
    if results.games:
        elo = results.elo()
        text += f" Elo {elo.mean + 0.0:+.1f}" + (" (no interval yet)" if elo.missing
                                                  else f"±{elo.error:.1f}")
    if sprt is not None:
        text += f" LLR {sprt.llr(results):.2f}"
    return text


def format_tournament(document: dict) -> str:
    """A tournament (:func:`.session.tournament_document`) as text: the rating list, then
    a line per pairing."""
    lines = [f"Tournament {document['tournament_id']}: {document['game']} "
             f"{document['format']}, {document['games']} games, seed {document['seed']}"]
    lines.append(format_document(document["ratings"]) if document["ratings"] else
                 "(no rating list yet: not every engine has played)")
    lines.append("")
    lines.append("Pairings (scores for the first engine):")
    lines += [f"  {pairing_line(pairing)}" for pairing in document["pairings"]]
    return "\n".join(lines)

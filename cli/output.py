"""How the CLI prints an analysis: the lines table for people, the JSON document for programs.

The JSON follows KataGo's analysis engine in spirit: the inputs echoed back, then per-line
move, score, win rate, visits or depth and PV, and every value says whose point of view it is
from (``point_of_view``). ``schema`` names the document's version; ``docs/analysis.schema.json``
is its JSON Schema.
"""
from __future__ import annotations

from crystalpick.search.result import line_depth

SCHEMA = "crystalpick.analysis/3"


def score_fields(score) -> dict:
    """A typed score (search/score.py) as ``score`` (an object saying what kind it is),
    ``score_text`` and ``win_rate``."""
    return {"score": score.document(), "score_text": score.text(),
            "win_rate": round(score.win_probability, 4)}


def line_document(rank: int, line, depth: int | None, describe=None) -> dict:
    document = {"rank": rank, "move": line.move_str, **score_fields(line.score),
                "pv": line.pv_str}
    if describe is not None and describe(line.move) != line.move_str:
        document["description"] = describe(line.move)
    if line.visits is not None:
        document["visits"] = line.visits
    if line.probability is not None:
        document["probability"] = round(line.probability, 4)
    if depth is not None:
        document["depth"] = depth
    if line.symmetric_to is not None:
        document["symmetric_to"] = line.symmetric_to
    return document


def analysis_document(analysis, inputs: dict, final: bool, describe=None) -> dict:
    """``describe``: the root state's State.describe_move, to add each move for people."""
    result = {
        "best_move": analysis.best_move_str, **score_fields(analysis.score),
        "nodes": analysis.nodes, "nps": round(analysis.nps), "elapsed": round(analysis.elapsed, 4),
        "depth": analysis.depth, "seldepth": analysis.seldepth,
        "simulations": analysis.simulations, "proven": analysis.proven,
        "lines": [line_document(rank, line, line_depth(line, analysis), describe)
                  for rank, line in enumerate(analysis.lines, 1)],
    }
    if analysis.move_classes is not None:
        result["move_classes"] = analysis.move_classes
    if analysis.tree_nodes is not None:
        result.update(tree_nodes=analysis.tree_nodes, tree_kept=analysis.tree_kept,
                      bytes_per_node=analysis.bytes_per_node)
    strategy = analysis.strategy
    if strategy is not None:
        play = analysis.play_move
        result.update(mixed=True, play_move=None if play is None else next(
            line.move_str for line in analysis.lines if line.move == play),
            seed=analysis.seed, selection=strategy.selection, play=strategy.play,
            knowledge=strategy.knowledge, plies_seen=strategy.plies_seen)
        result.update({key: value for key, value in (
            ("real_simulations", strategy.real_simulations), ("note", strategy.note))
            if value is not None})
    if analysis.assumed is not None:
        result["range"] = range_document(analysis.assumed)
    return {"schema": SCHEMA, "final": final, "input": inputs,
            "point_of_view": analysis.point_of_view_name, "result": result}


def range_document(assumed) -> dict:
    """The other player's range as the search assumed it, saying whose it is."""
    return {"player": assumed.player_name, "possible": assumed.possible,
            "method": assumed.method, "samples": assumed.samples,
            "distinct": assumed.distinct,
            "hands": [{"hand": text, "probability": round(probability, 4)}
                      for _, text, probability in assumed.hands]}


def range_text(assumed) -> str:
    """The likeliest private states the search assumed, each with its share of the draws
    and that share's 95% margin, so a small probability can be judged (an exact range:
    its probability alone)."""
    if assumed.samples is None:         # exact: Bayes from the history
        counted = f"{assumed.distinct:,} of {assumed.possible:,} possible {assumed.noun}s"
    else:
        counted = (f"{assumed.samples:,} draws, {assumed.distinct:,} different of "
                   f"{assumed.possible:,} possible {assumed.noun}s")
    out = [f"{assumed.player_name}'s {assumed.noun} as assumed ({assumed.method}: {counted}):"]
    for _, text, share in assumed.hands:
        margin = ("" if assumed.samples is None else
                  f" ±{196 * (share * (1 - share) / assumed.samples) ** 0.5:.1f}")
        out.append(f"  {100 * share:4.1f}%{margin}  {text}")
    return "\n".join(out)


def knowledge_text(analysis) -> str:
    """What an information-set search's determinizations rested on: the point of view's
    whole record (the history given) or their view alone."""
    pov = analysis.point_of_view_name
    if analysis.strategy.knowledge == "history":
        plies = analysis.strategy.plies_seen
        return f"from the history of {pov} ({plies:,} {'ply' if plies == 1 else 'plies'} seen)"
    return f"from {pov}'s view only (earlier rounds unknown)"


def mixed_table(analysis, to_move: str, describe=None) -> str:
    """An information-set search's recommendation: a mixed strategy, each option with its
    probability, win rate and visits, the overall win probability, and the move drawn
    (``describe``: the root state's State.describe_move, for the options' names)."""
    describe = describe or (lambda move: next(
        line.move_str for line in analysis.lines if line.move == move))
    pov = analysis.point_of_view_name
    whose = f"{pov}, to move" if pov == to_move else pov
    header = ["#", "option", "play %", "win %", "visits"]
    rows = [[str(rank), describe(line.move), f"{100 * line.probability:.1f}",
             f"{100 * line.win_probability:.1f}", str(line.visits)]
            for rank, line in enumerate(analysis.lines, 1)]
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    out = [f"a mixed strategy for {whose}, {knowledge_text(analysis)}, the hidden cards "
           f"sampled: play each option with the probability shown"]
    for row in [header] + rows:
        out.append("  ".join(cell.ljust(w) if i == 1 else cell.rjust(w)
                             for i, (cell, w) in enumerate(zip(row, widths))))
    out.append(f"win probability for {pov}: {100 * analysis.win_probability:.1f}%")
    strategy = analysis.strategy
    if analysis.play_move is not None:
        drawn = describe(analysis.play_move)
        if strategy.play == "pure":
            out.append(f"played pure, not drawn (the others see this choice): {drawn}, the "
                       f"best win rate less 1/sqrt(visits)")
        else:
            out.append(f"drawn from the mixed strategy with seed {analysis.seed}: {drawn}")
    if strategy.note:
        out.append(f"note: {strategy.note}")
    real = strategy.real_simulations
    reached = f", {real:,} with the real hand" if real is not None else ""
    # ismcts names its selection rule, mccfr where it searched from (history or position)
    how = strategy.selection or f"from {strategy.searched_from}"
    out.append(f"{analysis.simulations:,} simulations ({how}"
               f"{reached}), {analysis.nodes:,} nodes in {analysis.elapsed:.2f} s "
               f"({analysis.nps:,.0f} nodes/s)")
    return "\n".join(out)


def lines_table(analysis, to_move: str, describe=None, unit: str | None = None) -> str:
    """The best lines as an aligned table, with the point of view and the scores' unit
    (``unit``: the game's ``score_unit``) stated above it (``describe``: the root state's
    State.describe_move, for the first move of each line)."""
    pov = analysis.point_of_view_name
    whose = f"{pov}, to move" if pov == to_move else pov
    header = ["#", "move", "score", "win %", "visits" if analysis.simulations is not None
              else "depth", "PV"]
    rows = []
    for rank, line in enumerate(analysis.lines, 1):
        effort = line.visits if line.visits is not None else line_depth(line, analysis)
        rows.append([str(rank), describe(line.move) if describe else line.move_str,
                     line.score.text(),
                     f"{100 * line.win_probability:.1f}", str(effort), " ".join(
                         line.pv_str + twin_note(line))])
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header) - 1)]
    units = dict.fromkeys(u for line in analysis.lines
                          if (u := line.score.unit(unit or "evaluation units")))
    out = [f"scores are for {whose}" + (f"; unit: {' or '.join(units)}" if units else "")]
    for row in [header] + rows:
        out.append("  ".join(cell.rjust(w) if i in (0, 2, 3, 4) else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, widths))) + "  " + row[-1])
    effort = (f"{analysis.simulations:,} simulations" if analysis.simulations is not None
              else f"depth {analysis.depth}" + (f"/{analysis.seldepth}"
                                                 if analysis.seldepth is not None else ""))
    out.append(f"{effort}, {analysis.nodes:,} nodes in {analysis.elapsed:.2f} s "
               f"({analysis.nps:,.0f} nodes/s)")
    if analysis.move_classes is not None and len(analysis.lines) > 1:
        out.append(f"the first moves fall into {analysis.move_classes} symmetry classes: each "
                   f"line is of another (docs/search.md)")
    deeper = analysis.depth is not None and any(
        line.depth is not None and line.depth > analysis.depth for line in analysis.lines)
    if deeper:
        out.append(f"depth-{analysis.depth + 1} lines (the iteration the stop cut short) lead; "
                   f"scores of two depths are not ranked against each other (docs/search.md)")
    return "\n".join(out)


def twin_note(line) -> list[str]:
    """What a line of a move symmetric to an earlier line's says after its PV."""
    return [] if line.symmetric_to is None else [f"(= {line.symmetric_to} by symmetry)"]


def diagram_marks(analysis) -> list:
    """The analysis's lines as marks for the board diagram (State.svg), rank 1 first: each
    labelled with its score, weighted by how little win probability it gives up against
    the best line; a mixed strategy's options labelled with their probabilities, weighted
    against the likeliest."""
    from crystalpick.engine.marks import MoveMark

    if not analysis.lines:
        return []
    if analysis.mixed:
        likeliest = max(line.probability for line in analysis.lines) or 1.0
        return [MoveMark(line.move, f"{100 * line.probability:.1f}%",
                         line.probability / likeliest) for line in analysis.lines]
    best = analysis.lines[0].win_probability
    return [MoveMark(line.move, line.score.text(), 1.0 - max(0.0, best - line.win_probability))
            for line in analysis.lines]


def moves_text(state, moves) -> str:
    """Moves for people: on one line in notation, or one a line where the game describes
    them further (a card's name, State.describe_move)."""
    described = [state.describe_move(m) for m in moves]
    if described == [state.move_to_str(m) for m in moves]:
        return " ".join(described)
    return "\n".join(described)




def analysis_text(analysis, to_move: str, interrupted: bool, describe=None,
                  unit: str | None = None) -> str:
    """The analysis for people (moves named by ``describe``, scores in ``unit``, the game's
    ``score_unit``): its table, whether it was cut short, and its seed."""
    text = [mixed_table(analysis, to_move, describe) if analysis.mixed
            else lines_table(analysis, to_move, describe, unit)]
    if analysis.assumed is not None:
        text.append(range_text(analysis.assumed))
    if interrupted:
        text.append("(interrupted: best result so far)")
    if analysis.seed is not None:
        text.append(f"seed: {analysis.seed}")
    return "\n".join(text)



"""How ``crystalpick solve`` prints a solution: text for people, one JSON document for programs
(schema ``docs/solve.schema.json``), and the progress line on stderr."""
from __future__ import annotations

SCHEMA = "crystalpick.solve/1"
VERDICTS = ("win", "loss", "no win", "unknown")


def score_text(solution) -> str:
    if solution.score is None:
        return "not proven"
    text = solution.score.text()
    if solution.score.plies is None and solution.line:
        text += f" (main line {solution.line_plies} plies; shortest not confirmed)"
    return text


def solution_document(solution, inputs: dict, player_names) -> dict:
    score = solution.score
    return {
        "schema": SCHEMA, "input": inputs,
        "point_of_view": player_names[solution.mover],
        "result": {
            "proven": score is not None,
            "score": score.document() if score is not None else None,
            "score_text": score_text(solution),
            "exact_length": solution.exact,
            "main_line": solution.line_str,
            "main_line_plies": solution.line_plies,
            "first_moves": [{"move": row.move_str, "status": row.status, "plies": row.plies}
                            for row in solution.root_moves],
            "nodes": solution.nodes, "elapsed": round(solution.elapsed, 4),
            "nps": round(solution.nps), "tt_bytes": solution.tt_bytes,
            "loaded_entries": solution.loaded_entries,
            "interrupted": solution.interrupted,
        },
    }


def first_moves_text(solution) -> list[str]:
    """The first moves grouped by what is proven about them."""
    groups = {verdict: [row for row in solution.root_moves if row.status == verdict]
              for verdict in VERDICTS}
    counts = ", ".join(f"{len(rows)} {verdict}" for verdict, rows in groups.items() if rows)
    classes = solution.move_classes
    shared = f" in {classes} classes by symmetry" if classes and classes < len(
        solution.root_moves) else ""
    out = [f"first moves ({len(solution.root_moves)}{shared}): {counts}"]
    for verdict in VERDICTS:
        rows = groups[verdict]
        if rows and (verdict != "loss" or solution.score is None or len(rows) <= 12):
            out.append(f"  {verdict}: " + " ".join(
                row.move_str + (f" ({row.plies})" if row.plies is not None else "")
                for row in rows))
    return out


def solution_text(solution, player_names) -> str:
    name = player_names[solution.mover]
    out = [f"{name} to move: {score_text(solution)}"]
    if solution.line:
        out.append(f"main line ({solution.line_plies} plies): {' '.join(solution.line_str)}")
    out += first_moves_text(solution)
    if solution.loaded_entries:
        out.append(f"resumed from {solution.loaded_entries:,} table entries")
    out.append(f"{solution.nodes:,} nodes in {solution.elapsed:.2f} s "
               f"({solution.nps:,.0f} nodes/s), table {solution.tt_bytes // 2**20} MB")
    if solution.interrupted:
        out.append("(interrupted: what is proven so far)")
    return "\n".join(out)


def progress_text(report) -> str:
    return (f"{report.phase}: pn {report.proof_number:,} dn {report.disproof_number:,} "
            f"nodes {report.nodes:,} "
            f"({report.nodes / report.elapsed if report.elapsed else 0:,.0f}/s)")

"""``crystalpick solve``: proof-number search (search/solve.py) for a game of perfect
information, the exact solver (cli/exact_solving.py) otherwise; how a proof is printed: text
for people, one JSON document for programs (schema ``docs/solve.schema.json``), and the
progress line on stderr."""
from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from crystalpick.engine import GAMES

from .common import (InputError, Interrupted, command, emit_json, game_arguments,
                     json_option, load_state, parse_rules, seed_note, user_errors)
from .interrupts import stoppable
from .params import NODES, SOLVE_HASH, SOLVE_TARGET, TEXT, TIME, OutputPath

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
    } | cluster_document(solution)


def cluster_document(solution) -> dict:
    """How a --cluster proof's work was shared (nothing for a single-machine proof)."""
    if not hasattr(solution, "workers"):
        return {}
    return {"cluster": {
        "jobs": len(solution.jobs), "tree_nodes": solution.tree_nodes,
        "workers": [{"name": stats.name, "jobs": stats.jobs, "nodes": stats.nodes,
                     "seconds": round(stats.seconds, 4), "nps": round(stats.nps)}
                    for stats in solution.workers]}}


def cluster_text(cluster: dict) -> str:
    out = [f"{cluster['jobs']:,} jobs, master tree {cluster['tree_nodes']:,} nodes"]
    out += [f"  worker {row['name']}: {row['jobs']:,} jobs, {row['nodes']:,} nodes in "
            f"{row['seconds']:.2f} s ({row['nps']:,} nodes/s)" for row in cluster["workers"]]
    return "\n".join(out)


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


@command()
@game_arguments
@click.option("--hash", "hash_mb", type=SOLVE_HASH, default=64,
              show_default=True, help="Transposition table size in MB.")
@click.option("--time", "time_limit", type=TIME, default=None,
              help="Seconds to search (default: until solved or Ctrl-C).")
@click.option("--nodes", type=NODES, default=None, help="Node budget.")
@click.option("--resume", "resume_path", type=OutputPath("the table", read_back=True), default=None,
              help="Keep the table in this file: read if it exists, written every minute "
                   "and at the end, so a long solve continues where it stopped.")
@click.option("--config", type=TEXT, default=None, metavar="NAME",
              help="Hidden information: a named small configuration (e.g. boost-3).")
@click.option("--method", type=click.Choice(["lp", "cfr"]), default="lp", show_default=True,
              help="Hidden information: the sequence-form LP (exact) or CFR+ to --target.")
@click.option("--target", type=SOLVE_TARGET, default=1e-6, show_default=True,
              help="Hidden information, --method cfr: the exploitability to reach.")
@click.option("--cluster", type=TEXT, default=None, metavar="tcp://HOST:8786",
              help="Prove on this Dask scheduler's workers: job-level proof-number search, "
                   "each job a df-pn search of --job-nodes nodes on a worker "
                   "(pip install \"crystalpick[cluster]\"; docs/search.md).")
@click.option("--job-nodes", type=NODES, default=None,
              help="--cluster: df-pn nodes per job  [default: 1,000,000]")
@json_option
@user_errors
def solve(game, position, moves, rules, seed, tileset, hash_mb, time_limit, nodes,
          resume_path, config, method, target, cluster, job_nodes, as_json):
    """Prove the result of a position: win or loss for the side to move, in how many
    plies, and the main line (depth-first proof-number search, docs/search.md).

    A game with hidden information or simultaneous choices is solved exactly instead
    (docs/cardbattle.md): from POSITION or the setup, the value, the method, the
    exploitability and the first decision's equilibrium strategy; --nodes bounds the tree.
    Progress goes to stderr; Ctrl-C prints what is proven so far (e.g. which first moves
    lose) and exits with status 130.
    """
    if not GAMES[game.lower()].capabilities.perfect_information:
        from .exact_solving import solve_hidden
        if time_limit is not None or resume_path:
            raise InputError("--time and --resume are for proof-number search; the exact "
                             "solver runs to the end (--nodes bounds its tree)")
        if cluster or job_nodes:
            raise InputError("--cluster and --job-nodes are for proof-number search; the "
                             "exact solver runs on this machine")
        return solve_hidden(game, position, moves, parse_rules(rules), seed, tileset, config,
                            method, target, nodes, as_json)
    if config:
        raise InputError(f"--config: {game} is solved by proof-number search; named small "
                         f"configurations are for games with hidden information")
    game_obj, state = load_state(game, position, moves, rules, seed, tileset)
    if job_nodes is not None and not cluster:
        raise InputError("--job-nodes: the size of a --cluster job; give --cluster too")
    with opened_solver(game_obj, hash_mb, cluster, job_nodes) as solver:
        prove(solver, game_obj, state, moves, hash_mb, time_limit, nodes, resume_path, as_json)


@contextmanager
def opened_solver(game_obj, hash_mb, cluster, job_nodes):
    """The single-machine solver (search/solve.py), or with ``cluster`` the master of a
    job-level proof search on that Dask scheduler (solvers/jobpns.py); a cluster lost
    meanwhile is a one-line error."""
    if not cluster:
        from crystalpick.search.solve import Solver
        yield Solver(game_obj, hash_mb)
        return
    from crystalpick.solvers.jobpns import JOB_NODES, cluster_solver
    from crystalpick.search.executors import ExecutorError
    try:
        with cluster_solver(game_obj, cluster, hash_mb, job_nodes or JOB_NODES) as solver:
            yield solver
    except ExecutorError as err:
        raise InputError(f"--cluster {cluster}: {err}") from None


def prove(solver, game_obj, state, moves, hash_mb, time_limit, nodes, resume_path,
          as_json) -> None:
    """``solve`` by proof-number search: a table (or cluster proof tree) resumed from
    ``resume_path`` (a damaged one is ignored, said on stderr), progress on stderr, the
    proof printed, also what is proven when stopped."""
    from tqdm import tqdm

    from crystalpick.search.solve import DamagedTable

    if resume_path:
        try:
            solver.load(resume_path)
        except DamagedTable as err:     # never trusted: solved afresh, the file rewritten
            click.echo(f"warning: {err}; ignored, solving afresh", err=True)
    if state.is_terminal():
        raise InputError("the game is over in this position: nothing to solve")
    with tqdm(desc="solve", file=sys.stderr, disable=None, bar_format="{desc} {postfix}") as bar:
        solution, interrupted = stoppable(lambda stop: solver.solve(
            state, seconds=time_limit, nodes=nodes, stop=stop, save_path=resume_path,
            progress=lambda report: bar.set_postfix_str(progress_text(report), refresh=True)))
    inputs = {"game": game_obj.name, "position": state.position(), "moves": moves.split(),
              "rules": game_obj.rules, "hash_mb": hash_mb, "time": time_limit,
              "nodes": nodes, "resume": resume_path} | (
                  {"job_nodes": solver.job_nodes} if hasattr(solver, "job_nodes") else {}) | (
                  {"seed": game_obj.seed} if game_obj.seed is not None else {})
    document = solution_document(solution, inputs, game_obj.player_names)
    if as_json:
        emit_json(document)
    else:
        click.echo(f"position: {state.position()}")
        if seed_note(game_obj):
            click.echo(seed_note(game_obj))
        click.echo(solution_text(solution, game_obj.player_names))
        if "cluster" in document:
            click.echo(cluster_text(document["cluster"]))
    if resume_path:
        click.echo(f"table written to {resume_path}", err=True)
    if interrupted:
        raise Interrupted("interrupted" + ("" if solution.score is not None
                                           else ": the position is not proven yet"))

"""Batch analysis of game records: every decision of every game evaluated and the mistakes
marked by the win probability they lose, as lichess's computer analysis does for chess.

Every position of a record is an independent task, :func:`evaluate_position` (a fresh
engine, the position string in, an :class:`Evaluation` out), run on the same executors as a
match's games (:mod:`.match.executors`: local processes or a Dask cluster); the results are
put back in record order here. A decision played in position ``k`` is judged by two
evaluations, each from the mover's point of view:

- *before*: the search's score of position ``k`` (its best move's value);
- *after*: the search's score of position ``k + 1``, the one the move led to. When that is a
  chance node (a Maatatahay draw) its score is the expectation over the outcomes, so the
  mover is judged on the decision, not on the luck of the draw that followed; when it is the
  end of the game, the result itself (a proven win, loss or draw).

The loss is ``max(0, P(before) - P(after))`` where ``P`` is the typed score's win
probability (:mod:`.score`): a :class:`~.score.Value` ``x`` is ``1 / (1 + exp(-x / s))`` with
``s`` the game's ``evaluation_scale``, an MCTS :class:`~.score.Mean` ``m`` is ``(1 + m) / 2``,
a :class:`~.score.Proven` win, draw or loss 1, 1/2 or 0. The engine's own choice loses
nothing by definition (the two searches' disagreement about it is horizon noise, not the
player's error). :data:`MARKS` turns the loss into lichess's judgements. Chance outcomes are
drawn, not chosen: they are evaluated only as the *after* of the decision before them and
are never marked.

In a game with hidden information (the card battle) both evaluations are searched by ISMCTS
from the mover's own view: the search reads only the mover's observation, so position
``k + 1`` is searched again for each player whose decision it judges (after a secret choice
it is the other player's turn, and it is still judged by what the mover knew). The
*before* is the value of the recommended mixed strategy and its likeliest option the best.
"""
from __future__ import annotations

import functools
import math
import re
import time
from dataclasses import dataclass, field

from crystalpick.engine import GAMES, GameError
from crystalpick.engine.game import TERMINAL

from crystalpick.search.analysis import analyse, spec_limits
from crystalpick.search.engines import default_engine, make_engine, refuse_for
from crystalpick.search.limits import Limits
from crystalpick.search.executors import open_executor
from crystalpick.search.seeds import derive_seed
from .match.records import GameRecord, format_record
from crystalpick.search.score import DRAW, LOSS, WIN, PovScore, Proven
from .sparkline import marker_line, sparkline
from crystalpick.search.specs import EngineSpec, parse_spec

# Win probability lost -> mark, worst first: lichess's 0.3 / 0.2 / 0.1 on its winning-chances
# scale [-1, 1] (lila's Advice.scala), which is 0.15 / 0.10 / 0.05 of win probability.
MARKS = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
MARK_NAMES = tuple(name for _, name in reversed(MARKS))
COUNTS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
CHART_MARKS = {"blunder": "X", "mistake": "?"}     # under the text chart, worst first
SCORING_ENGINES = ("alphabeta", "mcts", "ismcts")    # the searchers that report a score
# The comment keys annotate writes (and replaces when a record is annotated again).
KEYS = ("eval_before", "eval_after", "eval_pov", "eval_unit", "wp_loss", "mark", "best",
        "best_line", "engine_move")
# An evaluation as a record holds it (Score.text): +0.4, -0.125, proven draw, win in 5 plies
SCORE_TEXT = re.compile(r"[+-]\d+(\.\d+)?|proven (win|draw|loss)|(win|loss) in [\d.e+]+ "
                        r"pl(y|ies)")
ANNOTATOR_TAG = "Annotator"


def mark_for(loss: float) -> str | None:
    for threshold, name in MARKS:
        if loss >= threshold:
            return name
    return None


@dataclass(frozen=True)
class AnnotateSettings:
    """How every position is searched: the engine spec, its limits and the seed each
    position's own seed is drawn from, for an engine with a ``seed`` option (a spec's own
    ``seed`` wins)."""
    engine: str
    limits: Limits
    seed: int = 0

    def check(self, game=None) -> None:
        """Fail early, in the parent, on an engine that cannot annotate (``game``'s records,
        when given: the searchers refuse hidden-information games before any search)."""
        spec = annotating_spec(self.engine)
        try:
            make_engine(spec.name, **spec.options)
        except ValueError as err:
            raise GameError(f"engine {self.engine!r}: {err}") from None
        if game is not None:
            try:
                refuse_for(spec.name, game)
            except GameError:
                if spec.kind == spec.name:
                    raise
                # greedy scores as alpha-beta at depth 1: say so, not 'alphabeta cannot'
                raise GameError(f"engine {self.engine!r}: annotate's {spec.kind} is a depth-1 "
                                f"{spec.name} search, which cannot search {game.name}; "
                                f"annotate it with {default_engine(game)}") from None


def annotating_spec(text: str) -> EngineSpec:
    """The engine spec ``text``, if it names a searcher that reports scores."""
    spec = parse_spec(text)
    if spec.name not in SCORING_ENGINES:
        raise GameError(f"engine {text!r}: annotate searches with alphabeta, mcts, ismcts or greedy "
                        f"(an engine that reports a score)")
    return spec


@dataclass
class Verdict:
    """A score of a position, with the best move and its line when a search gave them."""
    score: PovScore
    best: str | None = None
    line: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, analysis) -> "Verdict":
        return cls(analysis.score, analysis.best_move_str, analysis.pv_str)


@dataclass
class Evaluation:
    """The search of position ``index`` (plies played) of record ``record`` (from player
    ``viewer``'s view in a hidden-information game, else None): its result, and for
    alpha-beta every completed iteration's, by depth."""
    record: int
    index: int
    final: Verdict
    depths: dict[int, Verdict] = field(default_factory=dict)
    viewer: int | None = None


@functools.lru_cache(maxsize=16)
def _game(header: tuple):
    return GameRecord(dict(header)).game()


def game_header(record: GameRecord) -> tuple:
    """The tags a task needs to build the record's game (name, rules, tileset)."""
    return tuple((k, v) for k, v in record.tags.items() if k in ("Game", "Rules", "Tileset"))


def evaluate_position(settings: AnnotateSettings, header: tuple, position: str, record: int,
                      index: int, viewer: int | None = None, moves: tuple = ()) -> Evaluation:
    """One task: search ``position`` after ``moves`` (notation) with a fresh engine (so the
    result does not depend on which worker ran which position before), from ``viewer``'s
    view if given: with the moves, the viewer's whole record since ``position``."""
    state = _game(header).state(position, moves)
    spec = parse_spec(settings.engine)
    # the position's own seed, for whatever takes one (the viewer counts where there is one)
    coordinates = (record, index) if viewer is None else (record, index, viewer)
    options = spec.seeded(derive_seed(settings.seed, "annotate", *coordinates))
    depths = {}

    def iteration(analysis) -> None:
        if analysis.depth is not None and analysis.lines:
            depths[analysis.depth] = Verdict.of(analysis)

    result = analyse(state, make_engine(spec.name, **options), settings.limits, iteration,
                     point_of_view=viewer)
    return Evaluation(record, index, Verdict.of(result), depths, viewer)


def comparable(before: Evaluation, after: Evaluation | Verdict) -> tuple[Verdict, Verdict]:
    """The two verdicts a decision is judged by. For alpha-beta: position ``k`` searched to
    depth ``D`` and position ``k + 1`` to ``D - 1``, the horizon at which the first search
    saw the played move, with ``D`` as deep as both searches went (two searches to unequal
    horizons disagree by the evaluation's odd-even swing, not by the move's merit).
    Otherwise (MCTS, the game's end after the move, or a result proven after it: exact
    whatever the horizon) the final verdicts."""
    if isinstance(after, Verdict):
        return before.final, after
    if not before.depths or not after.depths or after.final.score.proven:
        return before.final, after.final
    depth = min(max(before.depths), max(after.depths) + 1)
    return before.depths[depth], after.depths[max(depth - 1, min(after.depths))]


def check_annotator(settings: AnnotateSettings, header: tuple) -> None:
    """Where the tasks run: the record's game builds and the engine starts."""
    settings.check(_game(header))


@dataclass
class Decision:
    """A decision of a record: the move played in position ``index`` by ``mover``."""
    index: int
    mover: int
    move: str            # canonical notation


@dataclass
class Plan:
    """What a record needs evaluated: its positions, decisions and the exact scores of the
    game's end."""
    record: GameRecord
    names: tuple[str, str]      # the game's player names
    positions: list[str]
    decisions: list[Decision]
    exact: dict[int, Verdict] = field(default_factory=dict)     # index -> the game's result
    hidden: bool = False        # hidden information: each decision judged from its mover's view
    unit: str = "evaluation units"      # the game's score_unit

    @classmethod
    def of(cls, record: GameRecord, number: int) -> "Plan":
        """Replay the record (a GameError names the record and ply that do not replay)."""
        try:
            state = record.replay(0)
        except GameError as err:
            raise GameError(f"record {number}: {err}") from None
        positions, decisions = [state.position()], []
        for ply, text in enumerate(record.plies, 1):
            if state.is_terminal():
                raise GameError(f"record {number} ply {ply} {text.move!r}: the game is over")
            try:
                move = state.parse_move(text.move)
            except GameError as err:
                raise GameError(f"record {number} ply {ply} {text.move!r}: {err}") from None
            if not state.is_chance_node():
                decisions.append(Decision(ply - 1, state.current_player(),
                                          state.move_to_str(move)))
            state.play(move)
            positions.append(state.position())
        plan = cls(record, state.game.player_names, positions, decisions,
                   hidden=state.game.capabilities.hidden_information,
                   unit=state.game.score_unit)
        if state.current_player() == TERMINAL:
            plan.exact[len(positions) - 1] = Verdict(final_score(state.returns()))
        return plan

    def searched(self, index: int) -> tuple[str, tuple]:
        """What position ``index`` is searched from, ``(position, moves)``: with hidden
        information the record's start and its moves up to there, so the mover's search
        knows the whole history (docs/cardbattle.md, "Analysis from the history"), else the
        position alone."""
        if not self.hidden:
            return self.positions[index], ()
        return self.positions[0], tuple(ply.move for ply in self.record.plies[:index])

    def view(self, decision: Decision) -> int | None:
        """Whose view the decision's two positions are searched from (None: anyone's)."""
        return decision.mover if self.hidden else None

    def needed(self) -> list[tuple[int, int | None]]:
        """The searches: (position, viewer) before and after every decision, not the game's
        end."""
        wanted = {(i, self.view(d)) for d in self.decisions for i in (d.index, d.index + 1)
                  if i not in self.exact}
        return sorted(wanted, key=lambda task: (task[0], -1 if task[1] is None else task[1]))


def final_score(returns) -> PovScore:
    """A finished game's result as a proven score from player 0's view."""
    result = WIN if returns[0] > returns[1] else LOSS if returns[0] < returns[1] else DRAW
    return PovScore(Proven(result), 0)


@dataclass
class MoveAnnotation:
    ply: int             # 1-based, as numbered in the record
    mover: int
    move: str
    before: PovScore     # from the mover's view
    after: PovScore
    loss: float
    mark: str | None
    best: str | None     # the engine's move, given when the played move lost something
    line: list[str]
    unit: str = ""       # what the scores' numbers are in ("" when the text says: a proof)
    own: bool = False    # the engine's own choice: no loss by definition

    def document(self, player_names) -> dict:
        """For JSON: scores as typed objects with text and win rate, from the mover's view."""
        def score(pov: PovScore) -> dict:
            return {"score": pov.document(), "text": pov.text(),
                    "win_rate": round(pov.win_probability, 4)}
        return {"ply": self.ply, "move": self.move, "player": player_names[self.mover],
                "point_of_view": player_names[self.mover], "before": score(self.before),
                "after": score(self.after), "wp_loss": round(self.loss, 4), "mark": self.mark,
                "best": self.best, "best_line": self.line, "unit": self.unit or None,
                "engine_move": self.own}

    def comment(self, player_names, describe=None) -> dict:
        """The record's comment: the better move for people (``describe``, a
        :func:`move_describer`: ``best=play:25 Guerreiro de Bronze``, its notation first) and
        its line in notation, as analyse prints a PV."""
        comment = {"eval_before": self.before.text(), "eval_after": self.after.text(),
                   "eval_pov": player_names[self.mover], "wp_loss": f"{self.loss:.3f}"}
        if self.unit:
            comment["eval_unit"] = self.unit
        if self.own:
            comment["engine_move"] = "yes"
        if self.mark:
            comment["mark"] = self.mark
        if self.best:
            comment.update(best=describe(self.ply, self.best) if describe else self.best,
                           best_line=" ".join(self.line))
        return comment


def judge(decision: Decision, before: Evaluation, after: Evaluation | Verdict,
          unit: str = "evaluation units") -> MoveAnnotation:
    best, played = comparable(before, after)
    mover = decision.mover
    best_score, played_score = best.score.viewed_by(mover), played.score.viewed_by(mover)
    # to the 0.001 the record keeps, so what it says and what is marked agree
    loss = 0.0 if best.best == decision.move else \
        round(max(0.0, best_score.win_probability - played_score.win_probability), 3)
    worse = loss > 0
    units = dict.fromkeys(u for u in (best_score.unit(unit), played_score.unit(unit)) if u)
    return MoveAnnotation(decision.index + 1, mover, decision.move, best_score, played_score,
                          loss, mark_for(loss), best.best if worse else None,
                          best.line if worse else [], " or ".join(units),
                          best.best == decision.move)


def records_game(records: list[GameRecord], named: str | None, source: str) -> str:
    """The game ``records`` (read from ``source``) are of: ``named``, which every record must
    be, or else the first record's ``Game`` tag."""
    game = named if named is not None else records[0].tags["Game"]
    if game.lower() not in GAMES:
        raise GameError(f"unknown game {game!r}; expected one of {', '.join(sorted(GAMES))}")
    for number, record in enumerate(records, 1):
        if record.tags["Game"].lower() != game.lower():
            raise GameError(f"record {number} of {source} is a {record.tags['Game']} game, "
                            f"not {game}")
    return game.lower()


def new_annotation(records: list[GameRecord], game: str, engine_spec: str | None,
                   flags: dict, seed: int) -> "Annotation":
    """An annotation of ``records`` by ``engine_spec`` (default: the game's default engine)
    with its limits overridden by a command's --time/--depth/--nodes/--sims ``flags`` (0.2 s
    a position when none is given)."""
    engine_spec = default_engine(GAMES[game]) if engine_spec is None else engine_spec
    limits = spec_limits(annotating_spec(engine_spec), flags, Limits(time=0.2))
    return Annotation(records, AnnotateSettings(engine_spec, limits, seed))


class Annotation:
    """One annotate run over a file's records: the tasks, the evaluations as they arrive,
    and the annotated records from whatever is finished (all of it, or what an interrupted
    run kept)."""

    def __init__(self, records: list[GameRecord], settings: AnnotateSettings):
        self.settings = settings
        self.plans = [Plan.of(record, number) for number, record in enumerate(records, 1)]
        for record in records:
            settings.check(_game(game_header(record)))
        self.evaluations: dict[tuple[int, int], Evaluation] = {}
        self.seconds = 0.0                     # run_in's time
        # names this run's tasks on a cluster: the same settings and records, the same tasks
        self.token = f"{derive_seed(settings, [(r.tags, r.plies) for r in records]):x}"

    def tasks(self) -> list[tuple[int, int, int | None]]:
        return [(number, index, viewer) for number, plan in enumerate(self.plans)
                for index, viewer in plan.needed()]

    def run(self, executor, on_result=None) -> None:
        """Evaluate every position on ``executor``; ``on_result`` sees each as it comes."""
        if not self.plans:
            return
        executor.check(check_annotator, self.settings, game_header(self.plans[0].record))
        for number, index, viewer in self.tasks():
            plan = self.plans[number]
            view = "" if viewer is None else f"-{plan.names[viewer]}"
            position, moves = plan.searched(index)
            executor.submit(f"crystalpick-annotate-{self.token}-{number}-{index}{view}",
                            evaluate_position, self.settings, game_header(plan.record),
                            position, number, index, viewer, moves)
        try:
            for evaluation in executor.completed():
                self.evaluations[evaluation.record, evaluation.index,
                                 evaluation.viewer] = evaluation
                if on_result:
                    on_result(evaluation)
        finally:
            executor.cancel()

    def run_in(self, concurrency: int, cluster: str | None = None, on_open=None,
               on_result=None) -> None:
        """Evaluate every position on ``concurrency`` local processes or a Dask ``cluster``,
        opened here and closed on leaving, also when stopped (``on_open(executor)`` once it
        is up); ``seconds`` is the time it took, also when stopped."""
        started = time.monotonic()
        try:
            with open_executor(concurrency, cluster) as executor:
                if on_open:
                    on_open(executor)
                self.run(executor, on_result)
        finally:
            self.seconds = time.monotonic() - started

    def speed(self) -> dict:
        done = len(self.evaluations)
        return {"seconds": round(self.seconds, 3),
                "positions_per_second": round(done / self.seconds, 2)}

    def speed_text(self) -> str:
        done = len(self.evaluations)
        return (f"{done} positions in {self.seconds:.1f} s ({done / self.seconds:.1f} "
                f"positions/s); annotator {self.annotator_text()}")

    def kept_text(self, written: str | None) -> str:
        """What a stopped run kept: the positions evaluated, and where they were written."""
        return (f"{len(self.evaluations)} of {len(self.tasks())} positions evaluated"
                + (f", kept in {written}" if written else "") + " and reported above")

    def records_text(self) -> str:
        """The records with a comment on every move evaluated (``annotate -o``)."""
        return "\n".join(format_record(record) for record in self.annotated_records())

    def moves(self, number: int) -> list[MoveAnnotation]:
        """Record ``number``'s judged decisions (those whose two evaluations are in)."""
        plan = self.plans[number]
        judged = []
        for decision in plan.decisions:
            view = plan.view(decision)
            before = self.evaluations.get((number, decision.index, view))
            after_index = decision.index + 1
            after = plan.exact.get(after_index) or self.evaluations.get(
                (number, after_index, view))
            if before is not None and after is not None:
                judged.append(judge(decision, before, after, plan.unit))
        return judged

    def curve(self, number: int) -> list[dict]:
        """Record ``number``'s evaluation graph: the first player's win probability in
        every evaluated position (by plies played), the game's end as its result. In a game
        with hidden information a position searched from both views is shown from the
        view of the player to decide there (the one its decision is judged from)."""
        plan = self.plans[number]
        deciding = {decision.index: plan.view(decision) for decision in plan.decisions}
        seen = {}
        for (record, index, viewer), evaluation in self.evaluations.items():
            if record == number and (index not in seen or viewer == deciding.get(index)):
                seen[index] = evaluation.final
        seen.update(plan.exact)
        return [{"ply": index, "first_win": round(seen[index].score.viewed_by(0)
                                                  .win_probability, 4)}
                for index in sorted(seen)]

    def annotated_records(self) -> list[GameRecord]:
        """The records with every judged decision's comment (other plies as they were)."""
        out = []
        for number, plan in enumerate(self.plans):
            record = GameRecord(dict(plan.record.tags), [])
            judged = {move.ply: move for move in self.moves(number)}
            describe = move_describer(plan.record) if judged else None
            for ply_number, ply in enumerate(plan.record.plies, 1):
                comment = {k: v for k, v in ply.comment.items() if k not in KEYS}
                if ply_number in judged:
                    comment.update(judged[ply_number].comment(plan.names, describe))
                record.plies.append(type(ply)(ply.move, ply.chance, comment))
            record.tags[ANNOTATOR_TAG] = self.annotator_text() + \
                ("" if self.complete() else " (interrupted: partly annotated)")
            out.append(record)
        return out

    def annotator_text(self) -> str:
        """The Annotator tag: engine, limits and seed, enough to annotate again alike."""
        return " ".join([self.settings.engine, *(f"{k}={v}" for k, v in limits_used(
            self.settings.limits).items()), f"seed={self.settings.seed}"])

    def report(self) -> dict:
        """Per game and per player (the record's First/Second, e.g. engine specs) the
        decisions judged, average win-probability loss and marks; then each player's totals
        over the file; then every judged move."""
        games, totals = [], {}
        for number, plan in enumerate(self.plans):
            moves = self.moves(number)
            players = []
            for player, name in enumerate(plan.names):
                label = player_label(plan.record, player, plan.names)
                own = [move for move in moves if move.mover == player]
                players.append({"player": name, "label": label, **figures(own)})
                totals.setdefault(label, []).extend(own)
            games.append({"game": number + 1, "result": plan.record.result,
                          "decisions": len(plan.decisions), "judged": len(moves),
                          "players": players, "curve": self.curve(number),
                          "moves": [move.document(plan.names) for move in moves]})
        return {"schema": SCHEMA, "engine": self.settings.engine,
                "limits": limits_used(self.settings.limits), "seed": self.settings.seed,
                "point_of_view": "the mover's, for every move",
                "thresholds": {name: threshold for threshold, name in MARKS},
                "positions": len(self.evaluations), "complete": self.complete(),
                "games": games,
                "players": {label: figures(own) for label, own in totals.items()}}

    def complete(self) -> bool:
        return len(self.evaluations) == len(self.tasks())


SCHEMA = "crystalpick.annotation/1"


def limits_used(limits: Limits) -> dict:
    return {k: v for k, v in vars(limits).items() if v not in (None, 0.0, False)}


def player_label(record: GameRecord, player: int, names) -> str:
    """How a summary names a player: the record's First/Second tag (an engine spec in match
    records), else the game's name for the player."""
    return record.tags.get(("First", "Second")[player]) or names[player]


def figures(moves: list[MoveAnnotation]) -> dict:
    """One player's figures over their judged ``moves``: how many, the average
    win-probability loss and the count of each mark."""
    counts = {COUNTS[name]: sum(1 for m in moves if m.mark == name) for name in MARK_NAMES}
    average = sum(m.loss for m in moves) / len(moves) if moves else 0.0
    return {"moves": len(moves), "average_wp_loss": round(average, 4), **counts}


def move_describer(record: GameRecord):
    """``describe(ply, text)``: move ``text`` in the position before ply ``ply`` (1-based)
    of ``record``, for people (State.describe_move: e.g. with a card's name). ``text`` is the
    notation or already described (a comment written since annotate names cards: the
    notation is its first word); text that does not read there stays as it is (a damaged
    record is reported where it is replayed)."""
    states = []
    try:
        state = record.replay(0)
        for ply in record.plies:
            states.append(state.clone())
            state.play(state.parse_move(ply.move))
    except GameError:
        pass

    def describe(ply: int, text: str) -> str:
        if not 1 <= ply <= len(states):
            return text
        try:
            notation = text.split(maxsplit=1)[0]
            return states[ply - 1].describe_move(states[ply - 1].parse_move(notation))
        except (GameError, IndexError):
            return text
    return describe


def annotation_text(number: int, move: str, comment: dict, describe=None,
                    players=None) -> str | None:
    """One line for people about ply ``number`` from its record comment, or None when it
    carries no annotation: the mark, the evaluations before and after from the mover's view,
    the win probability lost and the better move with its line (the moves through
    ``describe``, a :func:`move_describer`, if given). A partial or malformed annotation (a
    damaged record: an evaluation that is no score, a point of view none of ``players``) is
    a GameError naming the ply and the key."""
    if not any(key in comment for key in KEYS):
        return None
    missing = [key for key in ("eval_before", "eval_after") if key not in comment]
    if missing:
        raise GameError(f"ply {number}: a partial annotation (no {' or '.join(missing)})")
    for key in ("eval_before", "eval_after"):
        if not SCORE_TEXT.fullmatch(comment[key]):
            raise GameError(f"ply {number}: {key}={comment[key]!r} is not an evaluation "
                            f"(e.g. +0.4, proven draw, win in 5 plies)")
    if players and comment.get("eval_pov", players[0]) not in players:
        raise GameError(f"ply {number}: eval_pov={comment['eval_pov']!r}; expected one of "
                        f"{', '.join(players)}")
    try:
        loss = float(comment.get("wp_loss", 0))
    except ValueError:
        loss = math.nan
    if not 0 <= loss <= 1:          # also NaN
        raise GameError(f"ply {number}: wp_loss={comment['wp_loss']!r} is not a win "
                        f"probability (a number in 0..1)")
    if comment.get("mark", "ok") not in ("ok", *MARK_NAMES):
        raise GameError(f"ply {number}: mark={comment['mark']!r}; expected one of "
                        f"{', '.join(MARK_NAMES)}")
    describe = describe or (lambda _, text: text)
    before, after = figure_texts(comment)
    text = (f"{number}. {describe(number, move)}  {comment.get('mark', 'ok')}: {before} -> "
            f"{after} for {comment.get('eval_pov', '?')}, {loss_text(loss, comment)}")
    if comment.get("best"):
        text += (f"; best {describe(number, comment['best'])} "
                 f"({comment.get('best_line', '')})")
    return text


def figure_texts(comment: dict) -> tuple[str, str]:
    """The scores before and after, the unit written once after the last figure that is a
    number (``+63.0 -> -23.0 Mattock points``, ``-360.0 Mattock points -> loss in 3
    plies``); a proof says what it is."""
    texts = [comment["eval_before"], comment["eval_after"]]
    unit = comment.get("eval_unit")
    numbers = [i for i, text in enumerate(texts) if re.fullmatch(r"[+-]?\d+(\.\d+)?", text)]
    if unit and numbers:
        texts[numbers[-1]] += f" {unit}"
    return texts[0], texts[1]


def loss_text(loss: float, comment: dict) -> str:
    """The verdict beside the two scores, in agreement with them: the move the engine itself
    chose loses nothing by definition, though its score may fall (the second search sees
    further), so it is named as such rather than said to lose nothing."""
    if loss:
        return f"win probability -{100 * loss:.1f}%"
    if comment.get("engine_move") == "yes":
        return "the engine's own move, no loss counted"
    return "no win probability lost"


def format_report(annotation: Annotation) -> str:
    """The report as text: per game a table of the players' figures and every marked move,
    then each player's totals over the file."""
    document = annotation.report()
    marks = ", ".join(f"{name} >= {100 * threshold:g}%" for threshold, name in reversed(MARKS))
    out = [f"win probability lost by each move, from the mover's point of view; {marks}"]
    counts = [COUNTS[name] for name in MARK_NAMES]
    header = ["player", "as", "moves", "avg loss", *counts]
    for game, plan in zip(document["games"], annotation.plans):
        out += ["", f"game {game['game']} ({game['result']}): {game['judged']} of "
                    f"{game['decisions']} decisions judged"]
        rows = [[p["player"], p["label"], str(p["moves"]), f"{100 * p['average_wp_loss']:.1f}%",
                 *(str(p[name]) for name in counts)] for p in game["players"]]
        out += table(header, rows, names=2)
        marked = [move for move in annotation.moves(game["game"] - 1) if move.mark]
        describe = move_describer(plan.record) if marked else None
        out += ["  " + annotation_text(move.ply, move.move, move.comment(plan.names), describe)
                for move in marked]
        out += evaluation_chart(game)
    out += ["", "totals by player"]
    out += table(header[1:], [[label, str(p["moves"]), f"{100 * p['average_wp_loss']:.1f}%",
                               *(str(p[name]) for name in counts)]
                              for label, p in document["players"].items()], names=1)
    return "\n".join(out)


def evaluation_chart(game: dict) -> list[str]:
    """A game's evaluation graph (``report()``'s curve) as text: the first player's win
    probability by ply in blocks, its mistakes and blunders marked under it."""
    curve = game["curve"]
    if not curve:
        return []
    where = {point["ply"]: index for index, point in enumerate(curve)}
    markers = {where[move["ply"]]: CHART_MARKS[move["mark"]] for move in game["moves"]
               if move["mark"] in CHART_MARKS and move["ply"] in where}
    keys = ", ".join(f"{symbol} {mark}" for mark, symbol in CHART_MARKS.items())
    return [f"  win probability of {game['players'][0]['player']} in the {len(curve)} positions "
            f"evaluated, ply {curve[0]['ply']} to {curve[-1]['ply']} (▁ 0% .. █ 100%; {keys}):",
            "  " + sparkline([point["first_win"] for point in curve]),
            *(["  " + line] if (line := marker_line(len(curve), markers,
                                                    "".join(CHART_MARKS.values()))) else [])]


def table(header: list[str], rows: list[list[str]], names: int) -> list[str]:
    """The first ``names`` columns left-aligned, the figures right-aligned, indented."""
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]
    return ["  " + "  ".join(cell.ljust(w) if i < names else cell.rjust(w)
                             for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in [header] + rows]

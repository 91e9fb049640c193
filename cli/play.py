"""The interactive terminal game behind ``crystalpick play``.

People type moves or commands at the prompt; engines answer through the same players the
match runner uses. Chance events are drawn from a seeded generator whose seed is printed, and
the game is kept as a record (``save FILE`` at the prompt; at the end it is saved to
``--save FILE``, or offered to be saved when a person plays at a terminal, or printed), so any
game can be replayed exactly.
"""
from __future__ import annotations

import random
import sys

import click

from crystalpick.engine import GameError, sample_chance
from crystalpick.apps.match.players import make_player
from crystalpick.apps.match.records import Ply, finish_record, format_record, new_record
from crystalpick.apps.match.termination import GameEnd
from crystalpick.search.specs import parse_spec

from .common import (InputError, Interrupted, chosen_seed, command, game_arguments,
                     load_state, use_colour, user_errors)
from .output import moves_text
from .params import TEXT, OutputPath, unwritable


HELP = ("commands: a move (in notation, or as the screen offers) | moves | show | view (the "
        "position string) | hint | undo | save FILE | help | quit")
HINT_TIME = 1.0                 # seconds of the hint's analysis


class TerminalGame:
    def __init__(self, game, state, engine_spec: str, humans: set[int], seed: int,
                 color: bool, save_path: str | None = None, offer_save: bool = False):
        """``save_path``: where the game is saved when it ends; ``offer_save``: without it,
        ask for a file name at the end (a person at a terminal) instead of printing it."""
        self.game, self.state, self.humans, self.color = game, state, humans, color
        self.save_path, self.offer_save = save_path, offer_save
        self.engine_spec = engine_spec
        self.players = {side: make_player(parse_spec(engine_spec), seed + side, game)
                        for side in (0, 1) if side not in humans}
        self.chance = random.Random(seed)
        self.seed = seed
        # With hidden information, one human sees only their own observation.
        self.viewer = (next(iter(humans)) if len(humans) == 1
                       and not game.capabilities.perfect_information else None)
        names = [engine_spec if side in self.players else "human" for side in (0, 1)]
        self.record = new_record(game, state, names[0], names[1], seed)
        self.changes = 0                # plies played or taken back so far
        self.viewed = -1                # self.changes when the view was last shown

    def close(self, at_once: bool = False) -> None:
        for player in self.players.values():
            player.close(at_once)

    def say(self, text: str = "") -> None:
        click.echo(text)

    def view(self) -> str:
        """The position as the human may see it (all of it under perfect information): the
        game draws it for a state whose ``observer`` is the human. The position string is
        left to the ``view`` command: a card game's is hundreds of characters."""
        if self.viewer is None:
            return self.state.render(color=self.color, notation=False)
        seen = self.state.clone()
        seen.observer = self.viewer
        return seen.render(color=self.color, notation=False)

    def notation(self) -> str:
        """The position string as the human may see it: the referee's, or their view."""
        if self.viewer is None:
            return f"position: {self.state.position()}"
        return (f"{self.game.player_names[self.viewer]}'s view: "
                f"{self.state.observation_string(self.viewer)}")

    def hint(self, side: int) -> None:
        """The move ``side``'s own analysis recommends (the game's analyser, as 'analyse'
        runs it, from what that player sees) and that player's win probability by it."""
        from crystalpick.search.analysis import request_analysis
        name = self.game.player_names[side]
        try:
            request = request_analysis(self.state, None, {"time": HINT_TIME}, seat=side,
                                       seed=self.seed)
            result = request.run()
        except GameError as err:
            self.say(f"no hint: {err}")
            return
        self.say(f"hint: {self.state.describe_move(result.move_to_play)} ({name}'s win "
                 f"probability {result.win_probability:.0%}; {result.engine}, "
                 f"{HINT_TIME:g} s, from {name}'s view)")

    def shown(self, move: int) -> str | None:
        """``move``, about to be played, as the human may see it, for people (State.
        describe_seen: a card's name where they may see it, whose draw and why)."""
        return self.state.describe_seen(move, self.viewer)

    def play(self, move: int, chance: bool = False, comment: dict | None = None) -> None:
        self.record.plies.append(Ply(self.state.move_to_str(move), chance, comment or {}))
        self.state.play(move)
        self.changes += 1

    def run(self) -> None:
        self.say(f"seed: {self.seed}")
        self.show_view()
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                move = sample_chance(self.state, self.chance.random())
                self.say(f"chance: {self.shown(move)}")
                self.play(move, chance=True)
                continue
            side = self.state.current_player()
            if side in self.players:
                self.engine_move(side)
            elif not self.human_turn(side):
                self.say(f"game stopped after {len(self.record.plies)} plies: "
                         f"{self.game.player_names[side]} quit (seed {self.seed})")
                self.keep()
                return
        end = GameEnd.by_rules(self.state)
        finish_record(self.record, end)
        if self.humans:
            self.show_view()
        self.say(f"game over after {len(self.record.plies)} plies: {end.reason}")
        self.keep()

    def keep(self) -> None:
        """Keep the game as it ends: saved to ``save_path``, else to a file the person names
        when offered (Enter or end of input: printed), else printed. A game a person quits
        while the other player's cards are hidden from them is not printed: its record
        would show them (saving it is the person's choice), unless a save they asked for
        failed: then it is printed, not lost."""
        if not self.record.plies:
            return
        if self.save_path:
            if not self.save(self.save_path):
                self.print_record(asked=True)
            return
        path = ""
        if self.offer_save:
            try:
                path = click.prompt("save the game to a file (Enter: print its record)",
                                    prompt_suffix="> ", default="", show_default=False).strip()
            except (click.Abort, EOFError) as err:
                if isinstance(err.__context__, KeyboardInterrupt):
                    raise KeyboardInterrupt from None
            if path and self.save(path):
                return
        self.print_record(asked=bool(path))

    def print_record(self, asked: bool = False) -> None:
        """The record on the screen: not while the other player's cards are hidden from the
        person, mid-game (it would show them), unless they ``asked`` for it to be kept."""
        if self.viewer is not None and not self.state.is_terminal() and not asked:
            self.say("the record is not printed (it shows what is hidden from you); "
                     "--save FILE or 'save FILE' at the prompt keeps it")
            return
        self.say("")
        self.say(format_record(self.record).rstrip())

    def engine_move(self, side: int) -> None:
        player = self.players[side]
        move, comment = player.choose(self.state, player.limits(None, 0.0, None), self.record)
        unit = player.score.unit(self.game.score_unit) if player.score is not None else None
        score = (f" ({comment['score']}{f' {unit}' if unit else ''} for {comment['pov']})"
                 if "score" in comment else "")
        shown = self.shown(move)
        if shown is not None:           # None: a move the human cannot tell was made (§5)
            self.say(f"{self.game.player_names[side]} plays {shown}{score}")
        self.play(move, comment=comment)
        if not self.humans:
            self.show_view()

    def show_view(self) -> None:
        """The view, once per position: before a human decides (after the engine's moves and
        the draws in between), and after every move when engines play each other."""
        if self.viewed != self.changes:
            self.viewed = self.changes
            self.say(self.view())

    def human_turn(self, side: int) -> bool:
        """Read commands until a move is played; False when the user quits."""
        self.show_view()
        while True:
            try:
                text = click.prompt(f"{self.game.player_names[side]} to move", prompt_suffix="> ",
                                    default="", show_default=False).strip()
            except (click.Abort, EOFError) as err:
                if isinstance(err.__context__, KeyboardInterrupt):
                    raise KeyboardInterrupt from None       # Ctrl-C, not end of input
                self.say("")
                return False
            word, _, rest = text.partition(" ")
            if not text:
                continue
            if word == "quit":
                return False
            if word == "help":
                self.say(HELP)
            elif word == "moves":
                self.say(moves_text(self.state, self.state.legal_moves()))
            elif word == "show":
                self.say(self.view())
            elif word == "view":
                self.say(self.notation())
            elif word == "hint":
                self.hint(side)
            elif word == "undo":
                self.undo()
            elif word == "save":
                self.save(rest.strip())
            else:
                try:
                    move = self.state.parse_move(text)
                except GameError as err:
                    self.say(f"{err} (type 'help' for commands)")
                    continue
                self.play(move)
                return True

    def undo(self) -> None:
        """Take back plies until it is a human's decision again (at least one ply)."""
        if not self.record.plies:
            self.say("nothing to undo")
            return
        while self.record.plies:
            self.record.plies.pop()
            self.state.undo()
            self.changes += 1
            if self.state.current_player() in self.humans:
                break
        self.show_view()

    def save(self, path: str) -> bool:
        """Write the game so far to ``path``; False (said) when it cannot."""
        if not path:
            self.say("save needs a file name: save FILE")
            return False
        problem = unwritable(path, "the record")
        if problem:
            self.say(f"cannot save to {path!r}: {problem}")
            return False
        finish_record(self.record, GameEnd.by_rules(self.state)
                      if self.state.is_terminal() else None)
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(format_record(self.record))
        except OSError as err:
            self.say(f"cannot save to {path}: {err.strerror}")
            return False
        self.say(f"saved {len(self.record.plies)} plies to {path}")
        return True


@command()
@game_arguments
@click.option("--engine", "engine_spec", type=TEXT, default=None, metavar="SPEC",
              help="The engine, as for 'match' (e.g. mcts:time=2,c=1.2). Default: "
                   "alphabeta:time=1, or ismcts:time=1 for a game with hidden information.")
@click.option("--human", type=click.Choice(["first", "second", "both", "none"]),
              default="first", show_default=True, help="Which side(s) you play.")
@click.option("--save", "save_path", type=OutputPath("the record"), default=None,
              help="Save the game's record to FILE when it ends (also when you quit or press "
                   "Ctrl-C). Without it the record is printed at the end (and on Ctrl-C), or, "
                   "when you play at a terminal, you are asked for a file name first.")
@user_errors
def play(game, position, moves, rules, seed, tileset, engine_spec, human, save_path):
    """Play a game in the terminal against an engine (or watch engines play with --human none).

    At your turn type a move, or: moves, show, view (the position string), hint (your own
    analysis, 1 s), undo, save FILE, help, quit. The game is kept when it ends: saved
    (--save FILE), or printed as a record.
    """

    from crystalpick.search.engines import default_engine
    from crystalpick.apps.match.termination import EngineFailure, EngineStartError
    from crystalpick.search.specs import parse_spec

    seed = chosen_seed(seed)
    game_obj, state = load_state(game, position, moves, rules, seed, tileset)
    engine_spec = f"{default_engine(game_obj)}:time=1" if engine_spec is None else engine_spec
    parse_spec(engine_spec)
    humans = {"first": {0}, "second": {1}, "both": {0, 1}, "none": set()}[human]
    try:
        terminal = TerminalGame(game_obj, state, engine_spec, humans, seed, use_colour(),
                                save_path, offer_save=bool(humans) and sys.stdin.isatty())
    except EngineStartError as err:
        raise InputError(f"engine {err}") from None
    interrupted = False
    try:
        terminal.run()
    except (KeyboardInterrupt, click.Abort) as err:
        if isinstance(err, click.Abort) and not isinstance(err.__context__, KeyboardInterrupt):
            raise
        interrupted = True
        plies = len(terminal.record.plies)
        kept = plies and save_path and terminal.save(save_path)
        if plies and not kept:
            # not lost: printed (a failed save's too), unless it would show a person the
            # cards hidden from them (print_record says so and how to keep it)
            terminal.print_record(asked=bool(save_path))
        raise Interrupted(f"interrupted after {plies} plies (seed {seed}); " + (
            f"the game is saved to {save_path}" if kept else
            "--save FILE or 'save FILE' at the prompt keeps a game")) from None
    except EngineFailure as err:
        raise InputError(f"engine {engine_spec!r} failed ({err.termination.label}): "
                         f"{err}") from None
    finally:
        terminal.close(at_once=interrupted)

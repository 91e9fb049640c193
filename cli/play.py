"""The interactive terminal game behind ``crystalpick play``.

People type moves or commands at the prompt; engines answer through the same players the
match runner uses. Chance events are drawn from a seeded generator whose seed is printed, and
the game is kept as a record (``save FILE``), so any game can be replayed exactly.
"""
from __future__ import annotations

import random

import click

from crystalpick.engine import GameError, sample_chance
from crystalpick.search.match.players import make_player
from crystalpick.search.match.records import Ply, finish_record, format_record, new_record
from crystalpick.search.match.termination import GameEnd
from crystalpick.search.specs import parse_spec


HELP = ("commands: a move in notation | moves | show | hint | undo | save FILE | help | quit")


class TerminalGame:
    def __init__(self, game, state, engine_spec: str, humans: set[int], seed: int,
                 color: bool):
        self.game, self.state, self.humans, self.color = game, state, humans, color
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

    def close(self, at_once: bool = False) -> None:
        for player in self.players.values():
            player.close(at_once)

    def say(self, text: str = "") -> None:
        click.echo(text)

    def view(self) -> str:
        """The position as the human may see it (all of it under perfect information)."""
        if self.viewer is None:
            return self.state.render(color=self.color)
        return (f"{self.game.player_names[self.viewer]}'s view: "
                f"{self.state.observation_string(self.viewer)}")

    def shown(self, move: int) -> str | None:
        """``move``, about to be played, as the human may see it."""
        if self.viewer is None:
            return self.state.move_to_str(move)
        return self.state.move_to_str_seen_by(move, self.viewer)

    def play(self, move: int, chance: bool = False, comment: dict | None = None) -> None:
        self.record.plies.append(Ply(self.state.move_to_str(move), chance, comment or {}))
        self.state.play(move)

    def run(self) -> None:
        self.say(f"seed: {self.seed}")
        self.say(self.view())
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
                return
        end = GameEnd.by_rules(self.state)
        finish_record(self.record, end)
        self.say(f"game over after {len(self.record.plies)} plies: {end.reason}")
        if not self.humans:
            self.say("")
            self.say(format_record(self.record).rstrip())

    def engine_move(self, side: int) -> None:
        player = self.players[side]
        move, comment = player.choose(self.state, player.limits(None, 0.0, None), self.record)
        score = f" ({comment['score']} for {comment['pov']})" if "score" in comment else ""
        shown = self.shown(move)
        if shown is not None:           # None: a move the human cannot tell was made (§5)
            self.say(f"{self.game.player_names[side]} plays {shown}{score}")
        self.play(move, comment=comment)
        self.say(self.view())

    def human_turn(self, side: int) -> bool:
        """Read commands until a move is played; False when the user quits."""
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
                self.say(" ".join(self.state.move_to_str(m) for m in self.state.legal_moves()))
            elif word == "show":
                self.say(self.view())
            elif word == "hint":
                with make_player(parse_spec(self.engine_spec), self.seed, self.game) as helper:
                    move, comment = helper.choose(self.state, helper.limits(None, 0.0, None),
                                                  self.record)
                self.say(f"hint: {self.state.move_to_str(move)} ({comment.get('score', '?')})")
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
                self.say(self.view())
                return True

    def undo(self) -> None:
        """Take back plies until it is a human's decision again (at least one ply)."""
        if not self.record.plies:
            self.say("nothing to undo")
            return
        while self.record.plies:
            self.record.plies.pop()
            self.state.undo()
            if self.state.current_player() in self.humans:
                break
        self.say(self.view())

    def save(self, path: str) -> None:
        if not path:
            self.say("save needs a file name: save FILE")
            return
        finish_record(self.record, GameEnd.by_rules(self.state)
                      if self.state.is_terminal() else None)
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(format_record(self.record))
        except OSError as err:
            self.say(f"cannot save to {path}: {err.strerror}")
            return
        self.say(f"saved {len(self.record.plies)} plies to {path}")

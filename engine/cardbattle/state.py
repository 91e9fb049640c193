"""What both card battle implementations share: notation, observations and rendering.
Subclasses supply the rules (``legal_moves``, ``play``, ``undo``, ...) and
``to_position()``; everything here is defined in terms of those."""
from __future__ import annotations

from ..game import IllegalMoveError, NotationError, State
from .information import events, ply_record, seen_move
from .steps import played_on
from .moves import format_move, parse_move_syntax
from .notation import PLAYERS, format_observation, format_position
from .observation import observe, referee_view
from .people import PEOPLE_FORMS, chance_text, describe_move, move_for_people
from .position import CHANCE_PHASES, REDEAL, Position
from .rules import end_reason, refusal
from .sampling import determinize
from .zobrist import position_key

SHOWN_ALTERNATIVES = 12


class CardBattleState(State):
    # What the round log (render.py) replays: the position the state was made from; the
    # moves since are the contract's move log (engine/game.py remember_move).
    origin: Position | None = None

    def played(self) -> tuple[Position, list[int]]:
        """The position this state was made from and the moves played since, in order."""
        return self.origin, self.played_moves()

    def move_record(self, move: int) -> list:
        """A memo of the ply, filled when an information state is first asked for: what
        each player sees of it (information.ply_record) and the position after it. Playing
        costs nothing more; a searcher keys by the kernel's running hash instead."""
        return []

    def information_state(self, player: int) -> tuple:
        """§5: everything ``player`` has seen since this state was made (information.py),
        replayed by the reference rules from the last ply already recorded."""
        pending, link = [], self._played
        while link and not link[2]:
            pending.append(link)
            link = link[0]
        pos = link[2][1] if link else self.origin
        attributes = self.game.cardset.attributes
        for link in reversed(pending):
            record = ply_record(pos, attributes, link[1])
            pos = played_on(pos, self.game.cardset, self.game.options, link[1])
            link[2].extend((record, pos))
        records, link = [], self._played
        while link:
            records.append(link[2][0])
            link = link[0]
        return events(records[::-1], self.to_position(), attributes, player)

    def recorded_plies(self) -> list:
        """Each ply since this state was made, in order, as ``[what each player saw of it
        (information.ply_record), the position after it]``, as :meth:`information_state`
        replays and keeps them in the move log (once each: never change them)."""
        self.information_state(0)
        plies, link = [], self._played
        while link:
            plies.append(link[2])
            link = link[0]
        return plies[::-1]

    def position(self) -> str:
        return format_position(self.to_position(), self.game.cardset.attributes)

    def rules_end_reason(self) -> str:
        return end_reason(self.to_position(), self.game.options, self.game.player_names)

    def hash_key(self) -> int:
        return position_key(self.to_position()) ^ self.game.cardset.digest

    def move_to_str(self, move: int) -> str:
        return format_move(move, self.game.cardset.attributes, PLAYERS)

    def describe_move(self, move: int) -> str:
        return describe_move(move, self.game.cardset, PLAYERS)

    def parse_move(self, text: str) -> int:
        """The notation, or for people (people.py) a card of the mover's hand by its place
        or the start of its name, an attribute by the start of its name or gloss."""
        try:
            move = parse_move_syntax(text, self.game.cardset.attributes, PLAYERS)
        except NotationError as err:
            move = move_for_people(text, self.to_position(), self.game.cardset)
            if move is None:
                raise NotationError(f"{err}, {PEOPLE_FORMS}") from None
        legal = self.legal_moves()
        if move in legal:
            return move
        names = [self.describe_move(m) for m in legal[:SHOWN_ALTERNATIVES]]
        more = f" and {len(legal) - len(names)} more" if len(legal) > len(names) else ""
        why = refusal(self.to_position(), self.game.cardset, move)
        raise IllegalMoveError(f"illegal move {text.strip()!r}: "
                               + (f"{why}; " if why else "the position waits for "
                                  f"{self.to_move_name()}; ") + "legal here: "
                               f"{', '.join(names) or 'nothing (the game is over)'}{more}")

    def observation(self, player: int) -> dict:
        return observe(self.to_position(), self.game.cardset, player)

    def observation_string(self, player: int) -> str:
        return format_observation(self.to_position(), self.game.cardset.attributes, player)

    def determinization(self, player: int, seed: int):
        """sampling.determinize; the fast state draws the same in its kernel."""
        return self.game._state(determinize(self.to_position(), self.game.cardset, player,
                                            seed))

    def move_to_str_seen_by(self, move: int, player: int) -> str | None:
        """§5 (information.seen_move): another player's draws into hand and secret choice
        show as ``?``, and their pass not at all (it looks the same as having no usable
        boost card, where no move is made); tie-break draws are revealed, the toss and every
        other move are public."""
        return seen_move(self.to_position(), self.game.cardset.attributes, move, player)

    def describe_seen(self, move: int, player: int | None = None) -> str | None:
        """As the contract's, and a chance outcome says whose draw it is and why
        (people.chance_text): the deal, a mulligan, a refill, a tie-break, the toss, and a
        reshuffle just made."""
        seen = super().describe_seen(move, player)
        pos = self.to_position()
        if seen is None or pos.phase not in CHANCE_PHASES:
            return seen
        return chance_text(pos, self.game.cardset, self.game.options, move, seen, PLAYERS,
                           self.reshuffled())

    def reshuffled(self) -> bool:
        """§4.9: whether the steps after the last ply shuffled the actor's discard pile into
        their empty deck: their deck holds a card it did not hold before that ply (only a
        reshuffle, or a mulligan's hand, puts cards back into a deck). False with no ply
        played since the state was made (nothing to compare)."""
        pos = self.to_position()
        if pos.phase == REDEAL or not self._played:
            return False
        before = self.clone()
        before.undo()
        return bool(set(pos.seats[pos.actor].deck)
                    - set(before.to_position().seats[pos.actor].deck))

    def svg(self, marks=()) -> str:
        """The same viewer as the screen (:meth:`render`): the observer's view if the state
        has one, else the referee's (every hand face up); ``marks`` drawn on the cards and
        calls of the player to move."""
        from .svg import svg
        if self.observer is not None:
            return svg(self.observation(self.observer), self.game.cardset,
                       self.observation_string(self.observer), marks)
        return svg(referee_view(self.to_position(), self.game.cardset), self.game.cardset,
                   self.position(), marks)

    def render(self, color: bool = False, notation: bool = True) -> str:
        """The screen (render.py) of the observer if the state has one, else the referee's
        (every hand shown)."""
        from .render import screen
        return screen(self, self.observer, color, notation)

"""Typed scores: point of view, ordering, formatting, and alpha-beta's float encoding."""
import math

import pytest

from crystalpick.search.alphabeta import MATE_SCORE
from crystalpick.search.score import (DRAW, LOSS, WIN, Mean, PovScore, Proven, Value,
                                      from_alphabeta, from_mcts)


def test_pov_negates_for_the_other_player_only():
    score = PovScore(Value(52.0), 1)
    assert score.pov(1) == Value(52.0) and score.pov(0) == Value(-52.0)
    assert PovScore(Proven(WIN, 5), 0).pov(1) == Proven(LOSS, 5)
    assert PovScore(Mean(0.25), 0).viewed_by(1) == PovScore(Mean(-0.25), 1)


def test_order_proofs_around_everything_else():
    ordered = [Proven(LOSS, 2), Proven(LOSS, 9), Proven(LOSS), Value(-400.0), Mean(-0.1),
               Proven(DRAW), Value(30.0), Mean(0.6), Proven(WIN), Proven(WIN, 9),
               Proven(WIN, 1)]
    assert sorted(reversed(ordered)) == ordered
    assert max(Proven(WIN, 3), Value(999.0)) == Proven(WIN, 3)


def test_win_probability_uses_the_scale():
    assert Value(0.0).win_probability == 0.5
    assert Value(150.0, 150).win_probability == pytest.approx(1 / (1 + math.exp(-1)))
    assert Value(150.0, 300).win_probability < Value(150.0, 150).win_probability
    assert Mean(-1.0).win_probability == 0.0 and Proven(DRAW).win_probability == 0.5


@pytest.mark.parametrize("score,text,words,document", [
    (Value(52.0), "+52.0", "value 52", {"type": "value", "value": 52.0}),
    (Mean(-0.0753), "-0.075", "value -0.0753", {"type": "mean", "value": -0.0753}),
    (Proven(WIN, 1), "win in 1 ply", "win 1", {"type": "win", "plies": 1}),
    (Proven(LOSS, 6), "loss in 6 plies", "loss 6", {"type": "loss", "plies": 6}),
    (Proven(WIN, 4.5), "win in 4.5 plies", "win 4.5", {"type": "win", "plies": 4.5}),
    (Proven(LOSS), "proven loss", "loss", {"type": "loss"}),
    (Proven(DRAW), "proven draw", "draw", {"type": "draw"}),
])
def test_formats(score, text, words, document):
    assert (score.text(), score.words(), score.document()) == (text, words, document)


def test_alphabeta_floats_decode_in_one_place():
    assert from_alphabeta(MATE_SCORE - 7) == Proven(WIN, 7)
    assert from_alphabeta(-(MATE_SCORE - 2)) == Proven(LOSS, 2)
    assert from_alphabeta(MATE_SCORE - 5.5) == Proven(WIN, 5.5)
    assert from_alphabeta(-35.0, 200) == Value(-35.0, 200)
    assert from_mcts(0.3, None) == Mean(0.3) and from_mcts(0.3, -1.0) == Proven(LOSS)

"""Symmetric positions share table entries (issue 32): Mattock's canonical key against images
made here from the position string (rotated and reflected), the plain-Python reference, and the searchers with and
without symmetry."""
import random

import pytest

from crystalpick.engine import get_game
from crystalpick.engine.mattock.board import board
from crystalpick.engine.mattock.encoding import decode_move, encode_move
from crystalpick.engine.mattock.notation import format_position, parse_position
from crystalpick.engine.mattock.zobrist import canonical_key
from crystalpick.positions import parse_suite, read_text
from crystalpick.search.alphabeta import AlphaBeta
from crystalpick.search.solve import Solver
from crystalpick.search.symmetry import first_move_classes, use_symmetry


def random_states(count, seed, size="5"):
    """Positions along seeded random games (every ply, ends included)."""
    game, rng, out = get_game("mattock", {"size": size}), random.Random(seed), []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
    return out


def turned(text, perm):
    """The position string with every cell moved by the permutation ``perm``."""
    position = parse_position(text)
    image = parse_position(text)
    for cell, target in enumerate(perm):
        image.tiles[target] = position.tiles[cell]
        image.miners[target] = position.miners[cell]
    return format_position(image)


def image_strings(text):
    return {turned(text, perm) for perm in board(parse_position(text).size).symmetries()}


@pytest.mark.parametrize("size", ["5", "7"])
def test_every_image_has_the_same_canonical_key(size):
    game = get_game("mattock", {"size": size})
    for state in random_states(40, seed=11, size=size)[::3]:
        text = state.position()
        images = image_strings(text)
        keys = {game.parse_position(image).search_kernel().canonical for image in images}
        assert keys == {state.search_kernel().canonical}
        plain = {game.parse_position(image).search_kernel().key for image in images}
        assert len(plain) == len(images)          # the images are different positions


def test_positions_that_are_not_images_have_different_canonical_keys():
    by_key = {}
    for state in random_states(600, seed=12):
        by_key.setdefault(state.search_kernel().canonical, set()).add(state.position())
    assert len(by_key) > 500
    for texts in by_key.values():
        first = next(iter(texts))
        assert texts <= image_strings(first)


@pytest.mark.parametrize("size", ["5", "7"])
def test_the_reference_computes_the_same_canonical_key_through_make_and_unmake(size):
    rng = random.Random(13)
    game = get_game("mattock", {"size": size})
    for _ in range(3):
        state = game.new_initial_state()
        kernel = state.search_kernel()
        assert kernel.canonical == canonical_key(kernel.to_position())
        while not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))
            assert kernel.canonical == canonical_key(kernel.to_position())
        while kernel.ply:
            kernel.undo()
            assert kernel.canonical == canonical_key(kernel.to_position())
            assert kernel.key == get_game("mattock", {"size": size}).parse_position(
                format_position(kernel.to_position())).search_kernel().key


def test_a_game_without_symmetries_keeps_its_plain_key():
    for name in ("maatatahay",):
        state = get_game(name).new_initial_state()
        kernel = state.search_kernel()
        assert kernel.canonical == kernel.key


def start_move_orbits():
    """The start position's first moves grouped by the board symmetries that keep the start
    as it is (worked out here from the cell permutations)."""
    state = get_game("mattock").new_initial_state()
    text = state.position()
    keeping = [perm for perm in board(5).symmetries() if turned(text, perm) == text]
    orbits = set()
    for move in state.legal_moves():
        cells = decode_move(move)
        orbit = frozenset(encode_move(*(perm[c] if c >= 0 else c for c in cells))
                          for perm in keeping)
        orbits.add(orbit)
    return keeping, orbits


def test_the_start_first_moves_fall_into_the_classes_of_its_three_fold_symmetry():
    keeping, orbits = start_move_orbits()
    assert len(keeping) == 3
    state = get_game("mattock").new_initial_state()
    classes = first_move_classes(state)
    assert {frozenset(c) for c in classes} == orbits
    assert (len(state.legal_moves()), len(classes)) == (36, 12)
    assert use_symmetry("auto", state)


def test_auto_symmetry_stays_off_where_no_two_first_moves_are_alike():
    game = get_game("mattock")
    for position in endgames(6, 4) + endgames(18, 4):
        state = game.parse_position(position)
        assert not use_symmetry("auto", state)
        assert use_symmetry("on", state) and not use_symmetry("off", state)
    with pytest.raises(ValueError, match="symmetry=sometimes: expected auto|on|off"):
        use_symmetry("sometimes", state)


def endgames(group, count):
    return [case.position for case in parse_suite(read_text("mattock.endgames"))
            if case.id.startswith(f"mattock-end-{group:02d}")][:count]


@pytest.mark.slow
@pytest.mark.parametrize("position", endgames(6, 6) + [
    "2-2/oox-1-/--2--1/4-1--/2----2-/1-3-1-/--x-1-x/2---1/4- o"])
def test_dfpn_proves_the_same_values_with_symmetry(position):
    game = get_game("mattock")
    results = []
    for symmetry in (False, True):
        state = game.parse_position(position)
        solver = Solver(game, 16, symmetry="on" if symmetry else "off")
        solution = solver.solve(state, nodes=3_000_000)
        results.append((solution.score, solution.exact))
    assert results[0] == results[1]


def search(position, depth, symmetry, multipv=1):
    state = get_game("mattock").parse_position(position)
    searcher = AlphaBeta(state.search_kernel().clone(), state.game.evaluator(), 16,
                         lmr=False, symmetry=symmetry)
    searcher.begin()
    for d in range(1, depth + 1):
        lines = searcher.iterate(d, multipv)
    return sorted((score, pv[0]) for score, pv in lines), searcher.nodes


def test_alphabeta_scores_the_same_with_symmetry_and_searches_less_from_the_start():
    """Without reductions a fixed-depth search is exact minimax with or without sharing
    entries (in Mattock a position is always met at the same ply), so every first move keeps
    its score; the moves of a symmetric image are never played as hints in the other."""
    start = get_game("mattock").new_initial_state().position()
    plain, plain_nodes = search(start, 4, False, multipv=36)
    shared, shared_nodes = search(start, 4, True, multipv=36)
    assert plain == shared and len(plain) == 36
    assert shared_nodes < plain_nodes


@pytest.mark.parametrize("position", endgames(10, 4) + endgames(14, 4) + [
    state.position() for state in random_states(12, seed=14)[2::3]])
def test_alphabeta_scores_the_same_with_symmetry_on_random_positions(position):
    assert search(position, 3, False)[0] == search(position, 3, True)[0]


def test_solve_reports_the_first_move_classes_where_it_shares_entries():
    game = get_game("mattock")
    start = Solver(game, 4).solve(game.new_initial_state(), nodes=2_000)
    assert start.move_classes == 12 and len(start.root_moves) == 36
    ending = Solver(game, 4).solve(game.parse_position(endgames(6, 1)[0]), nodes=2_000)
    assert ending.move_classes is None
    forced = Solver(game, 4, symmetry="on").solve(game.parse_position(endgames(6, 1)[0]),
                                                  nodes=2_000)
    assert forced.move_classes == len(forced.root_moves)
    with pytest.raises(ValueError, match="symmetry=yes: expected auto|on|off"):
        Solver(game, 4, symmetry="yes")

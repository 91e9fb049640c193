"""The commands that describe: ``games`` and ``engines`` (what there is), ``show`` and
``moves`` (a position)."""
from __future__ import annotations


import click

from crystalpick.engine import GAMES, get_game

from .common import (command, emit_json, game_arguments, game_over, game_over_text,
                     impl_option, json_option, load_state, position_document, seed_note,
                     svg_option, use_colour, user_errors, write_svg)
from .output import moves_text


@command()
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False), required=False)
@json_option
def games(game, as_json):
    """List the games (or only GAME) and their rule options with defaults."""
    described = [get_game(name).describe() for name in ([game.lower()] if game else sorted(GAMES))]
    if as_json:
        emit_json({"games": described})
        return
    for info in described:
        click.echo(f"{info['name']}  (players: {', '.join(info['players'])})")
        if "tileset" in info:
            click.echo(f"  {info['tileset']['kind']}: {info['tileset']['label']}")
        for rule in info["rules"]:
            choices = "|".join(rule["choices"])
            click.echo(f"  --rule {rule['name']}={choices}  (default {rule['default']})")
            click.echo(f"      {rule['help']}")
        click.echo("")


@command()
@json_option
def engines(as_json):
    """List the engines, the search limits they obey and their options.

    Give them as ENGINE[:KEY=VALUE,...] to analyse, play and match (e.g. mcts:time=2,c=1.2),
    or by the same names to the protocol's setoption.
    """
    from crystalpick.search.specs import EXTERNAL, SCHEMAS

    described = [schema.describe() for schema in SCHEMAS.values()]
    if as_json:
        emit_json({"engines": described})
        return
    for schema in SCHEMAS.values():
        click.echo(f"{schema.name}  {schema.help}")
        for title, options in (("limits", schema.limits), ("options", schema.options)):
            if options:
                click.echo(f"  {title}:")
            for option in options:
                click.echo(f"    {option.name}={option.expected()}  (default "
                           f"{option.default_text()})")
                click.echo(f"        {option.help}")
        click.echo("")
    click.echo(f"{EXTERNAL}:COMMAND  an external program speaking the engine protocol "
               f"(docs/protocol.md)")


@command()
@game_arguments
@impl_option
@svg_option
@json_option
@user_errors
def show(game, position, moves, rules, seed, tileset, impl, svg_path, as_json):
    """Draw a position: board, side to move, pieces in hand and the position string."""
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    write_svg(state, svg_path)
    if as_json:
        emit_json(position_document(game_obj, state))
        return
    click.echo(state.render(color=use_colour()))
    if state.is_terminal():
        click.echo(game_over_text(game_over(game_obj, state)))
    if seed_note(game_obj):
        click.echo(seed_note(game_obj))


@command()
@game_arguments
@impl_option
@json_option
@user_errors
def moves(game, position, moves, rules, seed, tileset, impl, as_json):
    """List the legal moves (at a chance node: the outcomes and their probabilities)."""
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    document = {"game": game_obj.name, "position": state.position(),
                "to_move": state.to_move_name()}
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        document["count"] = len(outcomes)
        listed = [m for m, _ in outcomes]
        document["probabilities"] = [p for _, p in outcomes]
    else:
        listed = state.legal_moves()
    document["count"] = len(listed)
    document["moves"] = [state.move_to_str(m) for m in listed]
    described = [state.describe_move(m) for m in listed]
    if described != document["moves"]:
        document["descriptions"] = described     # e.g. with the card's name
    if game_obj.seed is not None:
        document["seed"] = game_obj.seed
    if as_json:
        emit_json(document)
        return
    if "probabilities" in document:
        click.echo(f"chance node: {document['count']} outcomes (outcome, probability):")
        for name, p in zip(described, document["probabilities"]):
            click.echo(f"  {name}  {p:.6g}")
    else:
        click.echo(f"{document['count']} legal moves for {document['to_move']}:")
        click.echo(moves_text(state, listed))
    if seed_note(game_obj):
        click.echo(seed_note(game_obj))

"""``crystalpick cards``: a card set listed and filtered (engine/cardbattle/catalogue.py), so
a player can build a deck without reading the card set's file."""
from __future__ import annotations

import click

from crystalpick.engine.cardbattle.cards import load_cardset
from crystalpick.engine.cardbattle.catalogue import listing_document, listing_text, select_cards

from .common import command, emit_json, json_option, user_errors
from .params import TEXT, InputPath


@command()
@click.option("--cardset", "tileset", type=InputPath(), default=None,
              help="The card set file (default: the invented set that ships with crystalpick).")
@click.option("--family", type=TEXT, default=None,
              help="Only cards of this family (and neutral boosts).")
@click.option("--kind", type=TEXT, default=None, help="Only creatures, equipment or locations.")
@click.option("--sort", type=TEXT, default=None, metavar="number|name|ATTRIBUTE",
              help="Order by name, or by an attribute, highest first (default: number).")
@json_option
@user_errors
def cards(tileset, family, kind, sort, as_json):
    """List the card battle's cards: number, name, kind, families and every value or bonus."""
    cardset = load_cardset(tileset)
    chosen = select_cards(cardset, family, kind, sort)
    if as_json:
        emit_json(listing_document(cardset, chosen))
        return
    click.echo(listing_text(cardset, chosen, sort))

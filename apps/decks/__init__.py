"""The deck advisor (``crystalpick deck``): an application of the match layer for games that
declare deck building (engine/features.py ``DeckBuilding``)."""

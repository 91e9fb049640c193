"""What a board diagram (``State.svg``) marks: moves, each with a label and a weight, drawn as
lichess and the Stockfish GUIs draw multi-PV arrows: the first (rank 1) most prominent.

A game's renderer draws each mark its own way (an arrow for a step, an outlined cell with the
rank for a placement, a bar on a card) and draws nothing for a move kind it cannot show; the
look shared by every game (colour, width and opacity by rank and weight, the label's box)
is here, so the three diagrams read alike.
"""
from __future__ import annotations

from typing import NamedTuple
from xml.sax.saxutils import escape

COLOUR = "#2e7d32"
WIDEST, NARROWEST = 7.0, 2.0        # stroke widths of rank 1 and of the faintest mark


class MoveMark(NamedTuple):
    """One move to mark: ``label`` is written beside it (a score, a probability), ``weight``
    in [0, 1] says how strongly to draw it (1: as strong as the best)."""
    move: int
    label: str = ""
    weight: float = 1.0


class Style(NamedTuple):
    """How the mark of ``rank`` (1-based) is drawn."""
    rank: int
    width: float
    opacity: float


def styles(marks) -> list[Style]:
    """A style per mark, in the marks' order (their ranks): width and opacity grow with the
    weight and never grow with the rank, so rank 1 is always the most prominent."""
    out, strength = [], 1.0
    for rank, mark in enumerate(marks, 1):
        strength = min(strength, max(0.0, min(1.0, float(mark.weight))))
        if rank > 1:                # a later rank is drawn a little fainter even at a tie
            strength = max(0.0, min(strength, 1.0 - 0.2 * (rank - 1)))
        out.append(Style(rank, round(NARROWEST + (WIDEST - NARROWEST) * strength, 2),
                         round(0.35 + 0.65 * strength, 2)))
    return out


def group(style: Style, move_text: str, label: str, body: list[str], x: float, y: float,
          size: float = 12) -> list[str]:
    """The SVG of one mark: ``body`` (its shapes), then centred on (x, y) its rank in a disc
    and, a gap to its right, its label in a white box (so ``1`` and ``69.1%`` never read as
    ``169.1%``), in a ``<g class="line">`` carrying the rank and the move, which tests and
    tools read."""
    radius = size * 0.62
    gap = size * 0.3 if label else 0.0
    text_width = 0.62 * size * len(label) + 6 if label else 0.0
    left = x - (2 * radius + gap + text_width) / 2
    out = [f'<g class="line" data-rank="{style.rank}" data-move="{escape(move_text)}" '
           f'opacity="{style.opacity}">', *body]
    if label:
        out += [f'<rect class="line-box" x="{left + 2 * radius + gap:.1f}" '
                f'y="{y - size * 0.75:.1f}" width="{text_width:.1f}" height="{size * 1.5:.1f}" '
                f'rx="3" fill="white" stroke="{COLOUR}"/>',
                f'<text class="line-label" x="{left + 2 * radius + gap + text_width / 2:.1f}" '
                f'y="{y + size * 0.35:.1f}" font-size="{size}" font-weight="bold" '
                f'text-anchor="middle" fill="{COLOUR}">{escape(label)}</text>']
    out += [f'<circle class="line-badge" cx="{left + radius:.1f}" cy="{y:.1f}" r="{radius:.1f}" '
            f'fill="{COLOUR}"/>',
            f'<text class="line-rank" x="{left + radius:.1f}" y="{y + size * 0.35:.1f}" '
            f'font-size="{size * 0.9:.1f}" font-weight="bold" text-anchor="middle" '
            f'fill="white">{style.rank}</text>']
    return out + ["</g>"]


def arrow_head() -> str:
    """The arrowhead every mark arrow ends in (one definition per diagram)."""
    return (f'<defs><marker id="line-arrow" markerWidth="3" markerHeight="3" refX="0.5" '
            f'refY="1.5" orient="auto"><path d="M0,0 L3,1.5 L0,3 z" fill="{COLOUR}"/></marker>'
            f'</defs>')


def on_top(drawn: list[list[str]]) -> list[str]:
    """The marks' SVG (rank order) drawn worst first, so rank 1 lies on top of the others."""
    return [element for part in reversed(drawn) for element in part]

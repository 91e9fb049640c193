"""Exact solving of small games through the contract (docs/cardbattle.md, "Exact solving").

``tree`` enumerates a game into an explicit graph with information sets; ``matrix`` solves a
zero-sum matrix game by linear programming; ``induction`` is backward induction with a matrix
game at each simultaneous choice (exact when nothing else is hidden); ``sequence`` is the
sequence-form LP over information sets (exact, by HiGHS); ``cfr`` is CFR+ over information
sets (to a stated exploitability); ``response`` computes exact best responses and
the exploitability of any policy; ``policy`` turns random, greedy and engines into policies.
Every value is a win probability of the first player (a draw counts one half).
"""

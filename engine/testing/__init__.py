"""Test games: Chance Nim, a tiny chance game with a C kernel behind the same contract as the
real games, so chance-node search paths are tested on a game small enough to solve."""

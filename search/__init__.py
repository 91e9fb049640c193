"""Game-independent searchers (alpha-beta, MCTS) and per-game evaluation."""

"""Engine-vs-engine matches: statistics, game records, the results database, the runner, and
the lifecycle of a match or a tournament (session.py)."""

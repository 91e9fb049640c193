"""Engine-vs-engine matches: statistics, game records, the results database, the runner."""

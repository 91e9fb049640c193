"""Test helpers: a tiny chance game with a C kernel, so chance-node search paths are tested
while no real game with chance nodes has a kernel."""

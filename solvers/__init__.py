"""Solvers: whole answers rather than a searcher's best guess. Job-level proof-number search
over a cluster (jobpns.py, proof_jobs.py), the solved-position suites (solved.py) and the
exact equilibrium solvers for hidden information (exact/). They import engine/ and search/,
never the applications or cli/."""

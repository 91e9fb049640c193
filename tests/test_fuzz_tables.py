"""Fuzzing ``solve --resume`` with damaged table files (issue 33): bytes of the body, or of
the whole file, replaced, inserted or cut. A damaged table is never trusted: the solve
either refuses the file in one line (exit 2, the file unchanged: one it cannot tell is a
table) or says in one line that the table is damaged, solves afresh and reports what a
solve from an empty table reports."""
from hypothesis import assume, given, settings, strategies as st

from test_damaged_data import (SOLVED, fresh_table, solve_document,  # noqa: F401 (a fixture)
                               verdicts_of)
from test_fuzz import FUZZ, SCALE, damaged, invoke


@given(st.data())
@settings(FUZZ, max_examples=30 * SCALE)
def test_fuzzed_solver_tables_are_never_trusted(tmp_path_factory, fresh_table, data):
    good, fresh_verdicts = fresh_table
    body_at = good.index(b"\n") + 1
    body_only = data.draw(st.booleans())
    content = good[:body_at] + data.draw(damaged(good[body_at:])) if body_only \
        else data.draw(damaged(good))
    assume(content != good)
    table = tmp_path_factory.mktemp("tables") / "damaged.table"
    table.write_bytes(content)
    result = invoke(["solve", "mattock", SOLVED, "--hash", "4", "--json", "--resume",
                     str(table)])
    if result.exit_code == 2:
        assert not body_only, result.output       # the header is intact: it is our table
        assert table.read_bytes() == content, "a refused table file was changed"
        return
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    if body_only:
        assert len(warnings) == 1 and "the table is damaged" in warnings[0], result.output
    # Whatever was loaded, the verdicts are a fresh solve's, and the file is good again.
    assert verdicts_of(result.stdout) == fresh_verdicts, result.output
    status, verdicts, err = solve_document(table)
    assert status == 0 and "warning" not in err and verdicts == fresh_verdicts, err

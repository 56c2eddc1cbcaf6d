"""Errors a user meets first (issue 34): each names the parameter, the limit or the missing thing."""

from __future__ import annotations

import pytest

from safeguarded import notebooks as nbr


def test_failed_notebook_line_carries_the_cells_error():
    from papermill.exceptions import PapermillExecutionError

    exc = PapermillExecutionError(5, 6, "load()", "DataFileError",
                                  "data file 'x.tntp' is missing\nFix: set DATA_MIRROR", [])
    assert str(exc).strip().startswith("---")  # papermill's own message says nothing of the cause
    line = nbr.failure_summary(exc)
    assert line == "DataFileError: data file 'x.tntp' is missing Fix: set DATA_MIRROR (cell 5)"
    assert nbr.failure_summary(ValueError("bad\nscale")) == "ValueError: bad scale"


def test_runner_rejects_an_unknown_work_listing_the_works(capsys):
    with pytest.raises(SystemExit) as info:
        nbr.main(["--work", "nosuch", "--scale", "smoke"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'nosuch'" in err and "'rldp'" in err and "'convex_max'" in err
    assert "Traceback" not in err


def test_runner_rejects_an_unknown_notebook_listing_candidates(capsys):
    with pytest.raises(SystemExit) as info:
        nbr.main(["--work", "rldp", "--notebook", "nosuch", "--scale", "smoke"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "notebook 'nosuch' does not exist" in err and "rldp_fig2" in err
    assert "no notebooks for work" not in err

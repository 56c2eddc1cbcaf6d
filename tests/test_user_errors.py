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


def test_registry_module_is_not_shadowed_by_a_function():
    import safeguarded.data.registry as R
    from safeguarded import data

    assert R.fetch is data.fetch and R.entries is data.entries
    assert data.registry is R  # the package attribute is the sub-module
    assert "sioux-falls/SiouxFalls_node.tntp" in R.entries()
    with pytest.raises(R.DataFileError, match="not in the registry"):
        R.fetch("nosuch/file.csv")


def test_simplex_grid_refuses_a_grid_too_large_naming_n_resolution_and_the_limit():
    from safeguarded.rlt import exact

    with pytest.raises(ValueError) as info:
        exact.simplex_grid(40, 40)
    msg = str(info.value)
    assert "n=40" in msg and "resolution=40" in msg and f"{exact.MAX_GRID_POINTS:,}" in msg
    with pytest.raises(ValueError, match="n=10, resolution=10"):
        exact.box_grid(10, 10)


def test_simplex_grid_is_every_grid_point_of_the_simplex_in_order():
    import itertools
    import math

    import numpy as np

    from safeguarded.rlt.exact import simplex_grid

    for n, r in [(1, 3), (2, 5), (3, 7), (4, 6), (20, 2)]:
        pts = simplex_grid(n, r)
        assert pts.shape == (math.comb(r + n - 1, n - 1), n)
        np.testing.assert_allclose(pts.sum(axis=1), 1.0)
        if n <= 4:  # brute force over the cube, in the same (lexicographic) order
            brute = [c for c in itertools.product(range(r + 1), repeat=n) if sum(c) == r]
            np.testing.assert_array_equal(pts * r, np.array(brute, dtype=float))


@pytest.mark.parametrize("kwargs, name", [
    (dict(epsilon="0.1", delta=0.1), "epsilon"),
    (dict(epsilon=0.1, delta="0.1"), "delta"),
    (dict(epsilon=0.1, delta=0.1, sensitivity="1"), "sensitivity"),
])
def test_mechanisms_refuse_strings_naming_the_parameter(kwargs, name):
    from safeguarded.dp_noise.mechanisms import gaussian_classic_sigma

    with pytest.raises(ValueError, match=f"^{name} must be a real number"):
        gaussian_classic_sigma(**kwargs)
    assert gaussian_classic_sigma(0.1, 0.1) == pytest.approx(22.475447, rel=1e-6)  # sqrt(2 ln 12.5) / 0.1


def test_validation_refuses_strings_where_numbers_are_expected():
    import numpy as np

    from safeguarded import validation as v

    for check in (lambda x: v.check_real("x", x), lambda x: v.check_positive("x", x),
                  lambda x: v.check_in_interval("x", x, 0, 1)):
        with pytest.raises(ValueError, match="x must be a real number"):
            check("0.5")
    for value in (["0.5", "0.5"], np.array(["0.5", "0.5"]), np.array([0.5, "0.5"], dtype=object)):
        with pytest.raises(ValueError, match="x must hold real numbers, not strings"):
            v.check_array("x", value)
        with pytest.raises(ValueError, match="x must hold real numbers, not strings"):
            v.check_simplex("x", value)
        with pytest.raises(ValueError, match="x must hold real numbers, not strings"):
            v.check_shape("x", value, (2,))
    np.testing.assert_array_equal(v.check_array("x", [1, np.float32(0.5)]), [1.0, 0.5])
    assert v.check_real("x", np.float64(0.5)) == 0.5

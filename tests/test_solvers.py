import cvxpy as cp
import numpy as np
import pytest

from safeguarded import solvers


def _lp(c):
    x = cp.Variable(3, nonneg=True)
    return cp.Problem(cp.Minimize(c @ x), [cp.sum(x) == 1, x[0] <= 0.7])


def test_unlicensed_mosek_falls_back(monkeypatch):
    solvers.mosek_licensed.cache_clear()
    monkeypatch.setenv("SAFEGUARDED_NO_MOSEK", "1")
    with pytest.warns(UserWarning, match="MOSEK requested but not licensed"):
        name = solvers.resolve_solver("MOSEK", "SOCP")
    assert name == "CLARABEL"
    with pytest.warns(UserWarning):
        record = solvers.solve(_lp(np.array([1.0, 2.0, 3.0])), name="lp", solver="mosek")
    assert record.solver == "CLARABEL" and record.requested_solver == "MOSEK"
    solvers.mosek_licensed.cache_clear()


def test_mosek_not_licensed_on_this_machine():
    # No machine here has a licence: the check must say so rather than crash.
    assert solvers.mosek_licensed() in (False, True)
    if not solvers.mosek_licensed():
        assert solvers.resolve_solver(None, "LP") in cp.installed_solvers()


@pytest.mark.parametrize("pair", [("HIGHS", "CLARABEL"), ("CLARABEL", "ECOS")])
def test_two_solvers_agree_on_an_lp(pair):
    rng = np.random.default_rng(3)
    c = rng.normal(size=3)
    values = [solvers.solve(_lp(c), name="lp", solver=s, problem_class="LP").objective for s in pair]
    # closed form: put 0.7 on the cheapest allowed coordinate pattern
    brute = min(c[0] * a + c[i] * (1 - a) for a in np.linspace(0, 0.7, 701) for i in (1, 2))
    np.testing.assert_allclose(values, brute, atol=1e-6)


def test_two_solvers_agree_on_a_socp():
    x = cp.Variable(2)
    prob = lambda: cp.Problem(cp.Minimize(cp.norm(x - np.array([3.0, 4.0]))), [cp.sum(x) <= 1])  # noqa: E731
    a = solvers.solve(prob(), name="socp", solver="CLARABEL").objective
    b = solvers.solve(prob(), name="socp", solver="ECOS").objective
    np.testing.assert_allclose(a, b, atol=1e-6)
    np.testing.assert_allclose(a, 6 / np.sqrt(2), atol=1e-6)  # distance to the half-plane


def test_infeasible_gives_a_clear_error():
    x = cp.Variable()
    prob = cp.Problem(cp.Minimize(x), [x >= 1, x <= 0])
    with pytest.raises(solvers.InfeasibleError, match="'toy' solved with CLARABEL: status 'infeasible'"):
        solvers.solve(prob, name="toy")


def test_unbounded_gives_a_clear_error():
    x = cp.Variable()
    with pytest.raises(solvers.UnboundedError, match="unbounded"):
        solvers.solve(cp.Problem(cp.Minimize(x)), name="toy", solver="CLARABEL")


def test_record_fields():
    rec = solvers.solve(_lp(np.array([1.0, 2.0, 3.0])), name="lp", solver="HIGHS", problem_class="LP")
    assert rec.status == "optimal" and rec.solver == "HIGHS"
    assert rec.solver_version != "unknown"
    np.testing.assert_allclose(rec.objective, 0.7 + 0.3 * 2, atol=1e-9)


def test_bad_solver_and_class_names():
    with pytest.raises(ValueError, match="solver must be one of"):
        solvers.resolve_solver("NOPE")
    with pytest.raises(ValueError, match="problem_class must be one of"):
        solvers.resolve_solver(None, "NLP")


def test_solver_errors_survive_pickling():
    """A failed solve raised in a process-pool worker must reach the sweep as the same typed error."""
    import pickle

    from safeguarded.solvers import InaccurateError, SolverError

    err = InaccurateError("lp", "HIGHS", "optimal_inaccurate", "stalled")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is InaccurateError and isinstance(back, SolverError)
    fields = (back.problem_name, back.solver, back.status, back.detail)
    assert fields == ("lp", "HIGHS", "optimal_inaccurate", "stalled")
    assert str(back) == str(err)


def test_native_highs_lp_matches_clarabel_through_cvxpy():
    """solvers.solve_lp (HiGHS built natively) against an independent interior-point solve of the same LP."""
    rng = np.random.default_rng(3)
    m, n = 6, 5
    A = rng.normal(size=(m, n))
    x_feasible = rng.uniform(0.2, 0.8, size=n)
    row_lo, row_hi = A @ x_feasible - 1.0, A @ x_feasible + rng.uniform(0.1, 1.0, size=m)
    row_lo[0] = -np.inf  # a one-sided row
    c = rng.normal(size=n)
    col_lo, col_hi = np.zeros(n), np.ones(n)
    res = solvers.solve_lp(c, A, row_lo, row_hi, col_lo, col_hi, name="test lp")
    x = cp.Variable(n)
    cons = [A[1:] @ x >= row_lo[1:], A @ x <= row_hi, x >= col_lo, x <= col_hi]
    ref = cp.Problem(cp.Minimize(c @ x), cons)
    solvers.solve(ref, solver="CLARABEL", name="reference lp")
    assert res.status == "Optimal" and res.solver == "HIGHS" and res.solver_version
    assert res.objective == pytest.approx(ref.value, abs=1e-7)
    np.testing.assert_allclose(c @ res.x, res.objective, atol=1e-9)
    assert np.all(A @ res.x <= row_hi + 1e-9) and np.all(A[1:] @ res.x >= row_lo[1:] - 1e-9)


def test_native_highs_lp_errors_are_typed_and_named():
    with pytest.raises(solvers.InfeasibleError, match="empty box"):
        solvers.solve_lp([1.0], [[1.0]], [2.0], [3.0], [0.0], [1.0], name="empty box")
    with pytest.raises(solvers.UnboundedError):
        solvers.solve_lp([-1.0], [[1.0]], [0.0], [np.inf], [0.0], [np.inf], name="ray")
    with pytest.raises(ValueError, match="row_lo must be <= row_hi"):
        solvers.solve_lp([1.0], [[1.0]], [3.0], [2.0], [0.0], [1.0], name="t")
    with pytest.raises(ValueError, match="options must be valid HiGHS options"):
        solvers.solve_lp([1.0], [[1.0]], [0.0], [1.0], [0.0], [1.0], name="t", options={"bogus": 1})

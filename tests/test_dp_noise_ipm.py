"""The structured interior-point method for P(L, β) and D(L, β) (:mod:`safeguarded.dp_noise.ipm`).

Checked against independent computations: HiGHS's exact LP optimum (column generation on the epigraph LP),
the fine-grid separation of :func:`bounds.privacy_shortfalls`, an explicitly assembled dense KKT matrix, and
weak duality for arbitrary multipliers.
"""

import math

import numpy as np
import pytest

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise import ipm
from safeguarded.dp_noise import synthetic as syn

CASES = [  # (ε, δ, loss, L, k): large and small ε, small and large δ, both losses
    (1.0, 0.1, "l1", 60, 20),
    (0.1, 0.05, "l1", 48, 6),
    (5.0, 0.25, "l2", 16, 8),
    (2.0, 0.005, "l1", 48, 12),
    (0.5, 0.5, "l2", 12, 6),
]


def _prob(eps, delta, loss, L, k, kind):
    part = bd.uniform_partition(L, k)
    cells = part if kind == "upper" else part.padded()
    costs = bd.cell_costs(cells.edges, loss, "mean" if kind == "upper" else "inf")
    return part, bd._Problem(cells, part.lo, part.hi, eps, delta, costs)


@pytest.mark.parametrize("eps, delta, loss, L, k", CASES)
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_certified_bounds_bracket_the_highs_optimum(eps, delta, loss, L, k, kind):
    """lower ≤ HiGHS's LP optimum ≤ upper, and the bracket is tight (1e-6 relative)."""
    part, prob = _prob(eps, delta, loss, L, k, kind)
    res = ipm.solve_pair_lp(ipm.pair_lp(prob), x0=bd.truncated_laplace_masses(eps, delta, prob.cells))
    fun = bd.upper_bound if kind == "upper" else bd.lower_bound
    exact = fun(eps, delta, part, loss, method="generation").value
    scale = max(1.0, abs(exact))
    assert res.lower <= exact + 1e-9 * scale
    assert exact <= res.upper + 1e-9 * scale
    assert res.upper - res.lower <= 1e-6 * scale


@pytest.mark.parametrize("eps, delta, loss, L, k", CASES[:3])
def test_upper_bound_masses_are_private_on_the_fine_grid_and_cost_the_value(eps, delta, loss, L, k):
    part, prob = _prob(eps, delta, loss, L, k, "upper")
    res = bd.upper_bound(eps, delta, part, loss, method="ipm")
    _, shortfalls, _ = bd.privacy_shortfalls(prob, res.masses)  # Algorithm 2's separation, independent code
    assert shortfalls.max() <= delta
    assert res.masses.min() >= 0 and res.masses.sum() == pytest.approx(1.0, abs=1e-12)
    assert res.value == pytest.approx(float(prob.costs @ res.masses), rel=1e-12)
    assert res.solver == ipm.SOLVER_NAME and res.method == "ipm"


def test_pair_operators_agree_with_the_fine_grid_separation():
    """Σ_i max(0, (Bd)_{s,i}) per shift equals privacy_shortfalls for random masses (P and padded D)."""
    rng = np.random.default_rng(3)
    for kind in ("upper", "lower"):
        _, prob = _prob(1.0, 0.1, "l1", 12, 4, kind)
        lp = ipm.pair_lp(prob)
        for _ in range(5):
            d = rng.dirichlet(np.ones(prob.n))
            shifts, values, _ = bd.privacy_shortfalls(prob, d, shifts=lp.shifts)
            np.testing.assert_allclose(lp.shortfalls(d), values, rtol=1e-12, atol=1e-15)


def _explicit_b(lp: ipm.PairLP) -> np.ndarray:
    rows = []
    for s in lp.shifts:
        for q in range(lp.n_ev):
            i = lp.ev0 + q
            row = np.zeros(lp.n)
            row[i] = 1.0
            if 0 <= i - s < lp.n:
                row[i - s] -= math.exp(lp.epsilon)
            rows.append(row)
    return np.array(rows)


def _assert_schur_matches_explicit(lp, b: np.ndarray, rng) -> None:
    """lp.schur_dense against N = W₁ + BᵀW₃B − BᵀW₃T⁻¹W₃B assembled densely from the explicit pair matrix
    ``b`` (#pairs × #variables), for random positive weights; T = diag(W₂ + W₃) + GᵀW₄G, G the shift sums."""
    m, shape = lp.m, (lp.n_shifts, lp.n_ev)
    w1 = rng.uniform(0.5, 2, lp.n)
    w2, w3 = rng.uniform(0.1, 3, m), rng.uniform(0.1, 3, m)
    w4 = rng.uniform(0.1, 3, lp.n_shifts)
    g = np.kron(np.eye(lp.n_shifts), np.ones(lp.n_ev))
    t = np.diag(w2 + w3) + g.T @ np.diag(w4) @ g
    m_dt = -b.T @ np.diag(w3)
    expected = np.diag(w1) + b.T @ np.diag(w3) @ b - m_dt @ np.linalg.solve(t, m_dt.T)
    dt = w2 + w3
    kappa = w4 / (1 + w4 * (1 / dt).reshape(shape).sum(axis=1))
    got = lp.schur_dense(w1, (w3 * w2 / dt).reshape(shape), (w3 / dt).reshape(shape), kappa)
    np.testing.assert_allclose(np.triu(got), np.triu(expected), rtol=1e-10, atol=1e-12)


def test_reduced_newton_matrix_equals_the_explicit_schur_complement():
    _, prob = _prob(1.0, 0.1, "l1", 6, 3, "lower")
    lp = ipm.pair_lp(prob)
    _assert_schur_matches_explicit(lp, _explicit_b(lp), np.random.default_rng(5))


@pytest.mark.parametrize("folded", [False, True])
def test_lagrangian_bound_is_a_lower_bound_for_any_multipliers(folded):
    """Weak duality: arbitrary (even out-of-box) multipliers, once clipped, never exceed the LP optimum
    (of the full LP, also for the folded LP of a symmetric grid)."""
    rng = np.random.default_rng(7)
    part = bd.symmetric_partition(30, 10) if folded else bd.uniform_partition(30, 10)
    lp = ipm.pair_lp(bd._problem("lower", 1.0, 0.1, part, "l1"))
    lp = ipm.fold(lp) if folded else lp
    exact = bd.lower_bound(1.0, 0.1, part, "l1", method="generation").value
    for scale in (0.01, 1.0, 100.0):
        for _ in range(5):
            y = rng.normal(0, scale, (lp.n_shifts, lp.n_ev))
            lam = rng.normal(0, scale, lp.n_shifts)
            assert lp.lagrangian_bound(y, lam) <= exact + 1e-12


def test_l1_gap_on_a_uniform_grid_is_at_least_half_a_cell():
    """P − D ≥ β/2 on uniform ℓ1 grids (mean minus infimum cost of every cell); certified bounds keep it."""
    eps, delta = 1.0, 0.1
    part = syn.grid_for(eps, delta, n_cells=241)
    up = bd.upper_bound(eps, delta, part, "l1", method="ipm")
    lo = bd.lower_bound(eps, delta, part, "l1", method="ipm")
    assert up.value - lo.value >= 0.5 * part.beta * (1 - 1e-6)
    assert up.value - lo.value <= 0.5 * part.beta * 1.01  # and the padding is not used here: D = P − β/2


def test_grid_for_thesis_resolution_has_about_the_requested_cells():
    for eps, delta in ((0.005, 0.005), (1.0, 0.1), (5.0, 0.25)):
        part = syn.grid_for(eps, delta, n_cells=2000)
        assert abs(part.n_cells - 2000) <= 2 * (-part.lo // part.k) + 1
        big = part.n_cells * 2 * part.k > syn.IPM_FROM_PAIRS
        assert syn.choose_method(part) == ("ipm" if big else "compact")


def test_ipm_refuses_non_uniform_partitions():
    part = bd.graded_partition(8, 2, fine=2)
    with pytest.raises(ValueError, match="uniform"):
        bd.upper_bound(1.0, 0.1, part, "l1", method="ipm")


def test_infeasible_grid_gives_no_upper_bound():
    """Support 2Δf at (2, 0.005) cannot hold a private noise (HiGHS proves it); the IPM returns no number."""
    part = bd.uniform_partition(24, 12)
    with pytest.raises(ValueError, match="cannot hold"):
        bd.upper_bound(2.0, 0.005, part, "l1", method="generation")
    with pytest.raises(bd.SolverError):
        bd.upper_bound(2.0, 0.005, part, "l1", method="ipm")


def test_figure3_cell_by_ipm_equals_generation_and_an_infeasible_p_is_proved_by_highs():
    ipm_row = syn.figure3_cell(5.0, 0.25, 4, 2, method="ipm")
    gen_row = syn.figure3_cell(5.0, 0.25, 4, 2, method="generation")
    assert ipm_row["method"] == "ipm" and ipm_row["P_status"] == "optimal"
    assert ipm_row["P"] == pytest.approx(gen_row["P"], rel=1e-5)
    assert ipm_row["D"] == pytest.approx(gen_row["D"], rel=1e-5)
    # the middle panel's rounded support cannot hold a private noise at 1/beta = 8:
    # the IPM diverges, HiGHS proves it
    row = syn.figure3_cell(1.0, 0.2, 8, 3, method="ipm")
    assert math.isnan(row["P"]) and row["P_status"].startswith("infeasible (generation; ipm: diverged")
    assert row["D"] == pytest.approx(syn.figure3_cell(1.0, 0.2, 8, 3, method="generation")["D"], rel=1e-5)


@pytest.mark.parametrize("eps,delta", [(1.0, 0.1), (5.0, 0.25), (0.1, 0.25)])
def test_l1_uniform_bounds_from_one_solve_equal_highs_and_sit_on_the_floor(eps, delta):
    """One IPM solve of D gives P too (D's masses avoid the padding): both equal HiGHS's separate LPs, the
    derived noise passes Algorithm 2's cell-wise separation (independent of the vectorised check), and P - D
    is the uniform grid's floor beta/2."""
    part = syn.grid_for(eps, delta, n_cells=41)
    upper, lower = bd.l1_uniform_bounds(eps, delta, part)
    assert upper.method == "ipm (from D)" and lower.method == "ipm"
    p_exact = bd.upper_bound(eps, delta, part, "l1", method="compact").value
    d_exact = bd.lower_bound(eps, delta, part, "l1", method="compact").value
    assert p_exact - 1e-12 <= upper.value == pytest.approx(p_exact, rel=1e-5)
    assert lower.value <= d_exact + 1e-12 and lower.value == pytest.approx(d_exact, rel=1e-5)
    assert upper.value - lower.value == pytest.approx(part.beta / 2, rel=1e-4)
    prob = bd._problem("upper", eps, delta, part, "l1")
    assert bd.separation_algorithm2(prob, upper.masses)[1] <= delta + 1e-12


def test_l1_uniform_bounds_solve_p_when_d_uses_the_padding():
    # support Lambda at small eps: D leans on the padding cells, so P is solved by itself
    part = syn.grid_for(0.1, 0.05, n_cells=41, support_factor=1.0)
    upper, lower = bd.l1_uniform_bounds(0.1, 0.05, part)
    assert upper.method == "ipm"
    p_exact = bd.upper_bound(0.1, 0.05, part, "l1", method="compact").value
    assert upper.value == pytest.approx(p_exact, rel=1e-5)
    assert upper.value - lower.value > part.beta / 2 * 1.5


@pytest.mark.parametrize("symmetric", [False, True])
def test_table_cell_by_ipm_takes_both_l1_bounds_from_one_solve_and_equals_highs(symmetric):
    """Tables 1/4/5 cells on the structured IPM derive P from D's solve; the values equal HiGHS's separate LPs
    on the same grid (Prop. 1's, or the symmetric one with 2L cells, solved folded), and the l2 cells (no
    such shortcut) still solve P by itself."""
    ipm_row = syn.table_cell(1.0, 0.1, "l1", n_cells=41, method="ipm", symmetric=symmetric)
    exact = syn.table_cell(1.0, 0.1, "l1", n_cells=41, method="compact", symmetric=symmetric)
    assert ipm_row["n_cells"] == exact["n_cells"] == 2 * ipm_row["L"] + (0 if symmetric else 1)
    assert ipm_row["method_P"] == "ipm (from D)" and exact["method_P"] == "compact"
    assert ipm_row["status_P"] == "from D (checked)" and ipm_row["status_D"] == "optimal (certified gap)"
    assert exact["status_P"] == exact["status_D"] == "optimal"
    assert ipm_row["P"] == pytest.approx(exact["P"], rel=1e-5)
    assert ipm_row["D"] == pytest.approx(exact["D"], rel=1e-5)
    assert ipm_row["time_P"] >= 0 and ipm_row["time_D"] > 0
    l2_row = syn.table_cell(1.0, 0.1, "l2", n_cells=41, method="ipm", symmetric=symmetric)
    assert l2_row["method_P"] == "ipm"


def test_ipm_iteration_limit_is_obeyed_and_a_truncated_solve_is_still_a_bound():
    """``ipm_max_iter`` stops the IPM; what it returns at the limit is still a valid bound (below HiGHS's D,
    above HiGHS's P, for l2 through table_cell), only looser than the converged one, which the default limit
    reaches here."""
    part = syn.grid_for(1.0, 0.1, n_cells=41)
    exact_d = bd.lower_bound(1.0, 0.1, part, "l1", method="compact").value
    short_d = bd.lower_bound(1.0, 0.1, part, "l1", method="ipm", ipm_max_iter=8)
    full_d = bd.lower_bound(1.0, 0.1, part, "l1", method="ipm")
    assert short_d.iterations == 8 and short_d.profile["status"] == "iteration_limit"
    assert full_d.iterations < ipm.MAX_ITER
    assert short_d.value < full_d.value <= exact_d + 1e-12
    assert full_d.value == pytest.approx(exact_d, rel=1e-5)
    row = syn.table_cell(1.0, 0.1, "l2", n_cells=41, method="ipm", ipm_max_iter=8)
    assert row["rounds_P"] == row["rounds_D"] == 8
    assert row["P"] >= bd.upper_bound(1.0, 0.1, part, "l2", method="compact").value - 1e-12
    assert row["D"] <= bd.lower_bound(1.0, 0.1, part, "l2", method="compact").value + 1e-12


# --- mirror-symmetric grids: the folded LP -------------------------------------------------------------


@pytest.mark.parametrize("eps, delta, loss, L, k", CASES)
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_folded_lp_brackets_the_highs_optimum_on_the_symmetric_grid(eps, delta, loss, L, k, kind):
    """On cells −L … L − 1 the IPM solves over symmetric masses; its bounds still bracket HiGHS's optimum of
    the full (unfolded) LP and are tight."""
    part = bd.symmetric_partition(L, k)
    fun = bd.upper_bound if kind == "upper" else bd.lower_bound
    exact = fun(eps, delta, part, loss, method="generation").value
    res = fun(eps, delta, part, loss, method="ipm")
    assert res.profile["folded"]
    scale = max(1.0, abs(exact))
    if kind == "upper":
        assert exact <= res.value + 1e-9 * scale <= exact + 1e-6 * scale + 1e-9 * scale
        np.testing.assert_allclose(res.masses, res.masses[::-1], atol=1e-15)  # symmetric noise
    else:
        assert exact - 1e-6 * scale <= res.value <= exact + 1e-9 * scale


def test_prop1_grid_is_not_folded_and_the_symmetric_grid_is():
    """Prop. 1's cells −L … L are not mirror-symmetric (one extra cell on the right): no fold."""
    for make, expect in ((bd.uniform_partition, False), (bd.symmetric_partition, True)):
        for kind in ("upper", "lower"):
            prob = bd._problem(kind, 1.0, 0.1, make(12, 4), "l1")
            assert (ipm.fold(ipm.pair_lp(prob)) is not None) is expect


def test_fold_refuses_asymmetric_costs():
    prob = bd._problem("upper", 1.0, 0.1, bd.symmetric_partition(12, 4), "l1")
    lp = ipm.pair_lp(prob)
    tilted = ipm.PairLP(lp.costs + 1e-3 * np.arange(lp.n), lp.ev0, lp.n_ev, lp.shifts, lp.epsilon, lp.delta)
    assert ipm.fold(tilted) is None


def test_folded_operators_equal_the_unfolded_ones_on_symmetric_masses():
    """b_times, bt_times (adjoint), the Newton matrix FᵀNF and the shortfalls, against the full LP."""
    rng = np.random.default_rng(11)
    for kind in ("upper", "lower"):
        prob = bd._problem(kind, 1.0, 0.1, bd.symmetric_partition(6, 3), "l1")
        full = ipm.pair_lp(prob)
        lp = ipm.fold(full)
        f = np.zeros((full.n, lp.n))
        f[np.arange(full.n), lp.cell_var] = 1.0
        np.testing.assert_array_equal(f.sum(axis=0), lp.weights)
        x = rng.uniform(0, 1, lp.n)
        pos = full.shifts > 0
        np.testing.assert_allclose(lp.b_times(x), full.b_times(f @ x)[pos], rtol=1e-13)
        np.testing.assert_allclose(lp.shortfalls(x), full.shortfalls(f @ x)[pos], rtol=1e-13)
        np.testing.assert_allclose(lp.shortfalls(x), full.shortfalls(f @ x)[~pos][::-1], rtol=1e-13)
        y = rng.uniform(0, 1, (lp.n_shifts, lp.n_ev))
        assert np.vdot(y, lp.b_times(x)) == pytest.approx(lp.bt_times(y) @ x, rel=1e-12)
        # FᵀNF against the explicit Schur complement of the half LP's pairs (positive shifts) times F
        _assert_schur_matches_explicit(lp, _explicit_b(lp.half) @ f, rng)

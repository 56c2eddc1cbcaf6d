"""Independent checks of the robust-LDP reproduction (catalog rldp.md §4)."""

import itertools
import warnings

import cvxpy as cp
import numpy as np
import pandas as pd
import pytest
from scipy import optimize

from safeguarded.experiments import rng_for
from safeguarded.rldp import uncertainty as unc
from safeguarded.rldp.experiment import (
    fig2_cell,
    fig2_instance,
    fig2_range_cell,
    judge_over_range,
    model,
    optimum_range,
)
from safeguarded.rldp.measures import (
    distortion_star,
    epsilon_star,
    iqr_keep,
    mean_sd_without_outliers,
    output_given_secret,
)
from safeguarded.rldp.problems import (
    METHODS,
    RLDPProblems,
    nominal_leakage,
    robust_distortion,
    robust_leakage,
    snap_protocol,
)

N_S, N_U, EPS = 3, 5, 0.5


def _instance(seed, n=75):
    rng = rng_for(1000 + seed)
    p_star, p_hat = unc.sample_instance(rng, N_S, N_U, n)
    return p_star, p_hat, unc.chi2_radius(0.05, n, N_S * N_U)


_direct_support_chi2 = unc.direct_support_chi2
_direct_support_projection = unc.direct_support_projection


def test_chi2_radius_matches_catalog_constants():
    np.testing.assert_allclose(unc.chi2_radius(0.05, 75, 15), 0.315797, atol=1e-6)
    np.testing.assert_allclose(unc.chi2_radius(0.05, 15000, 15), 0.001579, atol=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_theorem2_support_function_equals_direct_maximisation(seed):
    p_star, p_hat, B = _instance(seed)
    v = rng_for(seed, 1).normal(size=p_hat.size) * 3
    np.testing.assert_allclose(unc.support_chi2(v, p_hat, B), _direct_support_chi2(v, p_hat, B), atol=1e-6)


def _lagrangian_dual_support_chi2(v, p_hat, B):
    """max vᵀP over {P ≥ 0, ΣP = 1, Σ P̂²/P ≤ B+1} through its Lagrangian dual, derived here and solved
    as a generic two-variable conic program by cvxpy + Clarabel (named explicitly, tight tolerances):
    min_{t ≥ max v, c ≥ 0} t + c(B+1) − 2 Σ_k P̂_k √(c (t − v_k)).  No root search, no closed form in c.
    v is mapped to [0, 1] first (δ*(a v + b) = a δ*(v) + b for a > 0) so that Clarabel sees O(1) data."""
    v, p_hat = np.ravel(v), np.ravel(p_hat)
    lo, spread = v.min(), np.ptp(v)
    w = (v - lo) / spread
    t, c = cp.Variable(), cp.Variable(nonneg=True)
    cells = np.flatnonzero(p_hat > 0)
    roots = cp.hstack([cp.geo_mean(cp.hstack([c, t - w[k]])) for k in cells])
    prob = cp.Problem(cp.Minimize(t + c * (B + 1) - 2 * p_hat[cells] @ roots), [t >= w.max()])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Clarabel may stop at 1e-10 with "almost solved"; checked below
        prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert prob.status in ("optimal", "optimal_inaccurate"), prob.status
    return lo + spread * prob.value


def _support_grid():
    """(v, P̂, B) cases: radii B = chi2_radius(0.05, n, 15) for n = 75 … 10⁶, value spreads 1e-3 … 1e3,
    P̂ uniform (the issue's reproducer), Dirichlet(½), and with empty cells (one holding max v)."""
    rng = np.random.default_rng(35)
    p_hats = {
        "uniform": np.full(15, 1 / 15),
        "dirichlet": rng.dirichlet(np.full(15, 0.5)),
        "empty cells": np.r_[rng.dirichlet(np.ones(12)), 0.0, 0.0, 0.0],
    }
    for (name, p_hat), n, spread in itertools.product(
        p_hats.items(), (75, 750, 15_000, 100_000, 1_000_000), (1e-3, 1e-1, 1e1, 1e3)
    ):
        B = unc.chi2_radius(0.05, n, 15)
        yield pytest.param(np.linspace(0.0, spread, 15), p_hat, B, id=f"{name}-lin-n{n}-s{spread:g}")
        v = rng.uniform(-0.5, 0.5, 15) * spread
        if name == "empty cells":
            v[-1] = v.max() + spread * rng.uniform(0.05, 10)  # the maximum on a cell with P̂ = 0
        yield pytest.param(v, p_hat, B, id=f"{name}-rand-n{n}-s{spread:g}")


@pytest.mark.parametrize("v,p_hat,B", list(_support_grid()))
def test_theorem2_support_function_on_a_grid_of_radii_and_spreads(v, p_hat, B):
    """Issue 35: support_chi2 against the primal (direct_support_chi2) and the Lagrangian dual, both by
    Clarabel, to 1e-9 of ptp(v): δ* is equivariant under v → a·v + b, so only (δ* − min v) / ptp(v) is
    scale-free; an error measured in units of the spread is the meaningful one."""
    ours = unc.support_chi2(v, p_hat, B)
    spread = np.ptp(v)
    assert abs(ours - _direct_support_chi2(v, p_hat, B)) <= 1e-9 * spread
    assert abs(ours - _lagrangian_dual_support_chi2(v, p_hat, B)) <= 1e-9 * spread
    # the value lies between the nominal P̂ᵀv and max v, strictly above P̂ᵀv when v varies on supp P̂
    assert p_hat @ v - 1e-12 * spread <= ours <= v.max() + 1e-12 * spread


def test_support_chi2_issue35_reproducer():
    """The reproducer of issue 35: the old bracket loop never widened, so at n = 15,000 the value
    was 0.518563 (above the true 0.512263, i.e. not the minimum over t of the convex dual)."""
    p_hat, v = np.full((3, 5), 1 / 15), np.linspace(0.0, 1.0, 15)
    for n, old in ((75, 0.6721889790), (750, 0.5548287416), (15_000, 0.5185626166)):
        B = unc.chi2_radius(0.05, n, 15)
        ours = unc.support_chi2(v, p_hat, B)
        np.testing.assert_allclose(ours, _lagrangian_dual_support_chi2(v, p_hat, B), rtol=0, atol=1e-9)
        np.testing.assert_allclose(ours, _direct_support_chi2(v, p_hat, B), rtol=0, atol=1e-9)
        assert ours <= old + 1e-9
    np.testing.assert_allclose(ours, 0.5122628069, atol=1e-9)


def test_support_chi2_constant_on_the_support_and_degenerate_cases():
    p_hat = np.r_[np.full(4, 0.25), 0.0]
    v = np.r_[np.full(4, 2.0), 1.0]  # constant where P̂ > 0 and below it elsewhere: the set gives 2
    np.testing.assert_allclose(unc.support_chi2(v, p_hat, 0.3), 2.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(unc.support_chi2(np.full(5, -3.0), p_hat, 0.3), -3.0, rtol=0, atol=1e-15)
    # max v on the empty cell and a large radius: the minimiser is t = max v (the boundary)
    v = np.r_[0.0, 0.1, 0.2, 0.3, 50.0]
    np.testing.assert_allclose(
        unc.support_chi2(v, p_hat, 5.0), _direct_support_chi2(v, p_hat, 5.0), rtol=0, atol=1e-9 * 50
    )


@pytest.mark.parametrize("seed", range(5))
def test_theorem4_support_function_equals_direct_maximisation_over_theorem3_set(seed):
    p_star, p_hat, B = _instance(seed)
    rng = rng_for(seed, 2)
    v1, v2 = rng.uniform(0, 1, N_U), -np.exp(EPS) * rng.uniform(0, 1, N_U)
    closed = unc.support_projection(v1, v2, p_hat, B, 0, 2)
    direct = _direct_support_projection(v1, v2, p_hat, B, 0, 2, starts=5)
    np.testing.assert_allclose(closed, direct, atol=1e-6)


def _max_over_F_of_conditional_objective(v1, v2, p_hat, B, s1, s2):
    """Theorem 3 bypassed: max over P in F of v1.P_{U|s1} + v2.P_{U|s2}, with the two marginals
    (a, b) = (P_{s1}, P_{s2}) searched on the outside and a convex (linear-objective) program inside."""
    a_par, b_par = cp.Parameter(nonneg=True), cp.Parameter(nonneg=True)
    P = cp.Variable((N_S, N_U), nonneg=True)
    flat = cp.vec(P, order="C")
    ph = p_hat.ravel()
    cons = [
        cp.sum(P) == 1,
        cp.sum(P[s1]) == a_par,
        cp.sum(P[s2]) == b_par,
        cp.sum(cp.hstack([cp.quad_over_lin(ph[k], flat[k]) for k in range(ph.size)])) <= B + 1,
    ]
    # objective scaled by the fixed marginals: v1.P[s1]/a + v2.P[s2]/b
    w1, w2 = cp.Parameter(N_U), cp.Parameter(N_U)
    prob = cp.Problem(cp.Maximize(w1 @ P[s1] + w2 @ P[s2]), cons)

    def negative_value(x):
        a, b = x
        if a <= 1e-4 or b <= 1e-4 or a + b >= 1 - 1e-4:
            return 1e3
        a_par.value, b_par.value, w1.value, w2.value = a, b, v1 / a, v2 / b
        prob.solve(solver="CLARABEL")
        return -prob.value if prob.status == "optimal" else 1e3

    marg = p_hat.sum(axis=1)
    best = np.inf
    for start in ([marg[s1], marg[s2]], [marg[s1] * 0.8, marg[s2] * 1.1], [marg[s1] * 1.1, marg[s2] * 0.8]):
        res = optimize.minimize(
            negative_value, start, method="Nelder-Mead", options={"xatol": 1e-9, "fatol": 1e-11}
        )
        best = min(best, res.fun)
    return -best


@pytest.mark.parametrize("seed", range(2))
def test_theorem3_projection_against_the_nonconvex_original(seed):
    p_star, p_hat, B = _instance(seed, n=150)
    rng = rng_for(seed, 3)
    v1, v2 = rng.uniform(0, 1, N_U), -np.exp(EPS) * rng.uniform(0, 1, N_U)
    via_theorems = unc.support_projection(v1, v2, p_hat, B, 1, 2)
    direct = _max_over_F_of_conditional_objective(v1, v2, p_hat, B, 1, 2)
    np.testing.assert_allclose(via_theorems, direct, atol=1e-5)


def test_random_points_of_F_project_into_theorem3_set():
    p_star, p_hat, B = _instance(7, n=150)
    rng = rng_for(7, 4)
    found = 0
    for _ in range(1500):
        P = rng.dirichlet(p_hat.ravel() * 400 + 0.5).reshape(N_S, N_U)
        if not unc.in_chi2_set(P, p_hat, B):
            continue
        found += 1
        cond = P / P.sum(axis=1, keepdims=True)
        for s1, s2 in ((0, 1), (1, 2), (0, 2)):
            lhs = unc.projection_statistic(cond[s1], cond[s2], p_hat, s1, s2)
            assert lhs <= unc.projection_radius(p_hat, B, s1, s2) + 1e-12
    assert found > 30


@pytest.fixture(scope="module")
def solved():
    """All four problems on a few instances at n=75, with P*, P_hat and B."""
    out = []
    for seed in range(4):
        p_star, p_hat, B = _instance(seed)
        m = RLDPProblems(N_S, N_U, EPS)
        m.set_data(p_hat, B)
        out.append((p_star, p_hat, B, {meth: m.solve(meth) for meth in METHODS}))
    return out


def test_nunp_agrees_with_a_second_lp_solver(solved):
    for _p_star, p_hat, B, sols in solved:
        m = RLDPProblems(N_S, N_U, EPS)
        m.set_data(p_hat, B)
        highs = m.solve("NUNP", solver="HIGHS")
        assert highs.record.solver == "HIGHS"
        np.testing.assert_allclose(highs.objective, sols["NUNP"].objective, atol=1e-6)


def test_nunp_agrees_with_independent_scipy_linprog(solved):
    """NUNP rebuilt from scratch as an LP in scipy's format (no cvxpy) and solved by HiGHS."""
    from scipy.optimize import linprog

    p_star, p_hat, B, sols = solved[0]
    d = (np.arange(N_U)[:, None] - np.arange(N_U)[None, :]) ** 2.0
    nvar = N_U * N_S * N_U  # x[y, s, u]
    idx = np.arange(nvar).reshape(N_U, N_S, N_U)
    c = np.zeros(nvar)
    for y in range(N_U):
        c[idx[y]] = p_hat * d[y][None, :]
    A_eq = np.zeros((N_S * N_U, nvar))
    for s in range(N_S):
        for u in range(N_U):
            A_eq[s * N_U + u, idx[:, s, u]] = 1
    cond = p_hat / p_hat.sum(axis=1, keepdims=True)
    A_ub = []
    for y in range(N_U):
        for s1 in range(N_S):
            for s2 in range(N_S):
                if s1 != s2:
                    row = np.zeros(nvar)
                    row[idx[y, s1]] += cond[s1]
                    row[idx[y, s2]] -= np.exp(EPS) * cond[s2]
                    A_ub.append(row)
    res = linprog(
        c,
        A_ub=np.array(A_ub),
        b_ub=np.zeros(len(A_ub)),
        A_eq=A_eq,
        b_eq=np.ones(N_S * N_U),
        bounds=(0, None),
        method="highs",
    )
    assert res.status == 0
    np.testing.assert_allclose(res.fun, sols["NUNP"].objective, atol=1e-4)  # tie-break is <= 1.6e-4


def test_robust_privacy_protocols_meet_epsilon_whenever_p_star_in_F():
    checked = 0
    for seed in range(25):
        rows = fig2_cell(5, seed=seed)
        for row in rows:
            assert row["status"] == "optimal"
            if row["method"] in ("NURP", "RURP") and row["p_star_in_F"]:
                checked += 1
                assert row["eps_star"] <= EPS + 1e-6, row
    assert checked >= 30


def test_robust_privacy_worst_case_over_F_is_feasible(solved):
    """Feasibility audit: the worst case of L over F (by direct maximisation) is <= 0."""
    p_star, p_hat, B, sols = solved[0]
    for method in ("NURP", "RURP"):
        Q = sols[method].Q
        for y, s1, s2 in ((0, 0, 1), (2, 2, 0), (4, 1, 2)):
            worst = _direct_support_projection(Q[y, s1], -np.exp(EPS) * Q[y, s2], p_hat, B, s1, s2, starts=3)
            assert worst <= 1e-7


def test_robust_utility_bound_holds_over_F(solved):
    for _p_star, p_hat, B, sols in solved:
        sol = sols["RURP"]
        v = np.einsum("ysu,yu->su", sol.Q, (np.arange(N_U)[:, None] - np.arange(N_U)[None, :]) ** 2.0)
        assert _direct_support_chi2(v.ravel(), p_hat, B) <= sol.objective + 1e-6


def test_orderings_between_the_four_problems(solved):
    for _, _, _, s in solved:
        assert s["NUNP"].objective <= s["NURP"].objective + 1e-7
        assert s["RUNP"].objective <= s["RURP"].objective + 1e-7
        assert s["NUNP"].objective <= s["RUNP"].objective + 1e-7
        assert s["NURP"].objective <= s["RURP"].objective + 1e-7


def test_robust_optimum_shrinks_towards_nominal_as_B_shrinks():
    _, p_hat, _ = _instance(3, n=1500)
    m = RLDPProblems(N_S, N_U, EPS)
    values = []
    for B in (0.3, 0.03, 0.003, 3e-4):
        m.set_data(p_hat, B)
        values.append(m.solve("RURP").objective)
    assert all(a >= b - 1e-7 for a, b in zip(values, values[1:], strict=False))
    nominal = m.solve("NUNP").objective  # does not depend on B
    assert values[-1] - nominal < 0.2 * (values[0] - nominal)


def test_corner_cases():
    # |S| = 1: no privacy constraint, the identity protocol is optimal with zero distortion
    m = RLDPProblems(1, 4, EPS)
    m.set_data(np.full((1, 4), 0.25), 0.1)
    for meth in METHODS:
        sol = m.solve(meth)
        np.testing.assert_allclose(sol.objective, 0.0, atol=1e-6)
    # epsilon above the largest log-ratio of the conditionals: the identity is feasible, D = 0;
    # below it, the identity is infeasible and the distortion is positive
    p_hat = np.array([[0.1, 0.2, 0.2], [0.3, 0.1, 0.1]])  # conditionals (.2,.4,.4) and (.6,.2,.2)
    m = RLDPProblems(2, 3, np.log(3.0) + 1e-3)
    m.set_data(p_hat, 0.1)
    np.testing.assert_allclose(m.solve("NUNP").objective, 0.0, atol=1e-6)
    m = RLDPProblems(2, 3, np.log(3.0) - 0.2)
    m.set_data(p_hat, 0.1)
    assert m.solve("NUNP").objective > 1e-3


def test_epsilon_star_conventions():
    p_star = np.full((2, 2), 0.25)
    identity = np.zeros((2, 2, 2))
    identity[0, :, 0] = identity[1, :, 1] = 1.0  # Y = U for every s: P_{y|s} equal across s
    assert epsilon_star(identity, p_star) == 0.0
    leaky = np.zeros((2, 2, 2))
    leaky[0, 0, :] = 1.0
    leaky[1, 1, :] = 1.0  # Y = S: P_{0|1} = 0 < P_{0|0}
    assert epsilon_star(leaky, p_star) == np.inf
    np.testing.assert_allclose(output_given_secret(leaky, p_star), [[1, 0], [0, 1]])
    np.testing.assert_allclose(distortion_star(identity, p_star), 0.0)


def test_iqr_rule():
    x = np.array([1.0, 1.1, 0.9, 1.05, 10.0, np.inf])
    keep = iqr_keep(x)
    assert keep.tolist() == [True, True, True, True, False, False]
    mean, sd, removed = mean_sd_without_outliers(x)
    assert removed == 2
    np.testing.assert_allclose(mean, np.mean([1.0, 1.1, 0.9, 1.05]))


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="alpha must be in"):
        unc.chi2_radius(1.2, 75, 15)
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        unc.chi2_radius(0.05, 0, 15)
    with pytest.raises(ValueError, match="n_cells must be an integer >= 2"):
        unc.chi2_radius(0.05, 10, 1)
    with pytest.raises(ValueError, match="epsilon must be > 0"):
        RLDPProblems(3, 5, 0.0)
    with pytest.raises(ValueError, match="n_s must be an integer >= 1"):
        RLDPProblems(0, 5, 0.5)
    with pytest.raises(ValueError, match="n_u must be an integer"):
        RLDPProblems(3, 2.5, 0.5)
    with pytest.raises(ValueError, match="distortion must be a finite array of shape"):
        RLDPProblems(2, 3, 0.5, distortion=np.ones((2, 2)))
    m = model(N_S, N_U, EPS)
    with pytest.raises(ValueError, match="p_hat must sum to 1"):
        m.set_data(np.full((N_S, N_U), 0.1), 0.1)
    with pytest.raises(ValueError, match="p_hat must have shape"):
        m.set_data(np.full((2, 2), 0.25), 0.1)
    with pytest.raises(ValueError, match="B must be > 0"):
        m.set_data(np.full((N_S, N_U), 1 / 15), -1.0)
    with pytest.raises(ValueError, match="method must be one of"):
        m.solve("NOPE")
    with pytest.raises(ValueError, match="p_hat must have entries >= 0"):
        unc.support_chi2(np.zeros(4), np.array([1.5, -0.5, 0, 0]), 0.1)
    with pytest.raises(ValueError, match="v must be a finite vector of length 15"):
        unc.support_chi2(np.zeros(3), np.full(15, 1 / 15), 0.1)
    with pytest.raises(ValueError, match="dirichlet_alpha must be > 0"):
        unc.draw_true_distribution(rng_for(0), 3, 5, dirichlet_alpha=0.0)
    with pytest.raises(ValueError, match="zero_tol must be >= 0"):
        epsilon_star(np.full((2, 1, 2), 0.5), np.full((1, 2), 0.5), zero_tol=-1.0)
    with pytest.raises(ValueError, match=r"tie_break must be in \[-0.01, 0.01\]"):
        RLDPProblems(3, 5, 0.5, tie_break=0.5)
    with pytest.raises(ValueError, match="snap=0.6 removes every entry"):
        snap_protocol(np.full((2, 3), 0.5), 0.6)
    with pytest.raises(ValueError, match="Q must have shape"):
        distortion_star(np.full((2, 2), 0.5), np.full((1, 2), 0.5))
    with pytest.raises(ValueError, match=r"s2 must be a secret index in \[0, 2\]"):
        unc.projection_radius(np.full((N_S, N_U), 1 / 15), 0.1, 0, 3)
    with pytest.raises(ValueError, match="s1 and s2 must differ"):
        unc.support_projection(np.zeros(N_U), np.zeros(N_U), np.full((N_S, N_U), 1 / 15), 0.1, 1, 1)
    with pytest.raises(ValueError, match="k must be >= 0"):
        iqr_keep(np.ones(3), k=-1)


def test_result_does_not_depend_on_the_previous_solve():
    """Re-solving a parametrised model must not warm-start from the previous instance."""
    fresh = RLDPProblems(N_S, N_U, EPS)
    _, p_hat, B = _instance(11, n=750)
    fresh.set_data(p_hat, B)
    q_fresh = fresh.solve("NURP").Q
    reused = RLDPProblems(N_S, N_U, EPS)
    reused.set_data(_instance(12, n=750)[1], B)
    reused.solve("NURP")
    reused.set_data(p_hat, B)
    np.testing.assert_array_equal(reused.solve("NURP").Q, q_fresh)


def test_epsilon_star_with_exact_zeros():
    p_star = np.full((2, 2), 0.25)
    Q = np.zeros((2, 2, 2))
    Q[0] = [[1.0, 1.0], [1.0 - 1e-9, 1.0 - 1e-9]]
    Q[1] = 1.0 - Q[0]  # output 1 has probability 0 for s=0 and 1e-9 for s=1: dust
    assert epsilon_star(Q, p_star, zero_tol=0.0) == np.inf  # read exactly, dust is leakage
    np.testing.assert_allclose(epsilon_star(Q, p_star, zero_tol=1e-5), -np.log(1 - 1e-9), rtol=1e-6)
    cleaned, change = snap_protocol(Q, 1e-6)
    assert change <= 2e-9 and np.all((cleaned == 0) | (cleaned > 1e-6))
    np.testing.assert_allclose(cleaned.sum(axis=0), 1.0, rtol=0, atol=1e-15)
    assert epsilon_star(cleaned, p_star, zero_tol=0.0) == 0.0


def test_solved_protocols_are_clean_and_re_verified_by_the_closed_forms():
    """Cleaned protocols (no entry in (0, SNAP]) still satisfy the privacy constraints of their problem,
    evaluated independently of the conic model: (6) exactly, (30) by Theorem 4, (22) by Theorem 2."""
    p_star, p_hat = fig2_instance(5, 1)
    B = unc.chi2_radius(0.05, 75, 15)
    m = RLDPProblems(N_S, N_U, EPS)
    m.set_data(p_hat, B)
    for method in METHODS:
        sol = m.solve(method)
        assert np.all((sol.Q == 0) | (sol.Q > m.snap))
        np.testing.assert_allclose(sol.Q.sum(axis=0), 1.0, rtol=0, atol=1e-12)
        assert sol.nominal_leakage == nominal_leakage(sol.Q, p_hat, EPS) <= 1e-8
        if method in ("NURP", "RURP"):
            assert robust_leakage(sol.Q, p_hat, B, EPS) <= 1e-6
        if method in ("RUNP", "RURP"):
            assert robust_distortion(sol.Q, p_hat, B) <= sol.objective + 1e-6


def test_nominal_leakage_matches_the_definition():
    p_hat = np.array([[0.3, 0.2], [0.1, 0.4]])
    Q = np.zeros((2, 2, 2))
    Q[0] = [[1.0, 0.0], [0.5, 0.5]]
    Q[1] = 1.0 - Q[0]
    cond = p_hat / p_hat.sum(axis=1, keepdims=True)
    p_ys = np.array([[cond[s] @ Q[y, s] for s in range(2)] for y in range(2)])
    e = np.exp(0.3)
    expected = max(p_ys[y, a] - e * p_ys[y, b] for y in range(2) for a, b in ((0, 1), (1, 0)))
    np.testing.assert_allclose(nominal_leakage(Q, p_hat, 0.3), expected, rtol=0, atol=1e-15)


def test_directed_tie_breaks_bracket_every_optimal_protocol():
    """The ±1e-5·D* tie-breaks return the optimal protocols with the smallest and largest D*: every other
    optimal protocol (the tie-breaks ±1e-5 uniform, none) lies between them, all at the same optimum."""
    rows = pd.DataFrame(fig2_range_cell(50, 1))
    assert set(rows["status"]) == {"optimal"}
    assert rows["excess"].abs().max() < 1e-7  # all are optimal: the tie-breaks move the objective < 1e-7
    for method, grp in rows.groupby("method"):
        d = grp.set_index("protocol")["D_star"]
        assert d["D* min"] <= d.min() + 5e-6 and d["D* max"] >= d.max() - 5e-6, method
        assert d.max() - d.min() > 1e-3, method  # this instance has a wide optimal face in every problem
    # the issue's example (NURP, N=50, seed 1): eps* differs between optimal protocols
    nurp = rows[rows["method"] == "NURP"]
    assert nurp["eps_star"].max() - nurp["eps_star"].min() > 1e-3
    ranges = optimum_range(rows.assign(N=50, seed=1))
    assert (ranges["D_star_min"] <= ranges["D_star_default"] + 1e-12).all()
    assert (ranges["eps_star_max"] >= ranges["eps_star_default"] - 1e-12).all()


def test_judge_over_range_is_inconclusive_only_when_the_choice_decides():
    ranges = pd.DataFrame(
        {
            "N": [5, 5],
            "seed": [0, 1],
            "method": ["NUNP", "NURP"],
            "x_default": [1.0, 2.0],
            "x_min": [0.9, 1.5],
            "x_max": [1.1, 2.5],
        }
    )
    first = lambda v: float(v["NUNP"].iloc[0])  # noqa: E731
    second = lambda v: float(v["NURP"].iloc[0])  # noqa: E731
    verdict, reason = judge_over_range(ranges, "x", ["NUNP", "NURP"], lambda v: second(v) > first(v))
    assert verdict is True and reason == ""  # 1.5 > 1.1: holds at every choice
    verdict, reason = judge_over_range(ranges, "x", ["NUNP", "NURP"], lambda v: second(v) > 2 * first(v))
    assert verdict is None and "False under" in reason and "True under" in reason
    with pytest.raises(ValueError, match="methods must be"):
        judge_over_range(ranges, "x", ["BOGUS"], lambda v: True)

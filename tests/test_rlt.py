"""Thesis §6 (RLT over simplices): generators, the three relaxations, and their theorems checked
against independent references (SCIP, grids, StQP support enumeration, closed forms)."""

import numpy as np
import pandas as pd
import pytest

from safeguarded.rlt.exact import grid_maximum, scip_global, stqp_global_enumeration
from safeguarded.rlt.experiment import loglog_slope, median_iqr, relative_gap, relaxation_cell
from safeguarded.rlt.instances import (
    draw_instance,
    eigen_split,
    hypercube_problem,
    rotation_matrix,
    simplex_cube_problem,
    simplex_problem,
    stqp_from_matrix,
)
from safeguarded.rlt.relaxations import (
    lifting_vertices,
    proposed_simplex_closed_form,
    solve_chain,
    solve_method,
)

THREE = ("rlt", "rlt_sdp", "proposed")

# a guard against a hang, not a timing assertion: generous, so that a loaded machine cannot turn
# an optimal solve into a "time_limit" status
SAFETY_LIMIT_S = 600.0


def _values(inst, methods=THREE):
    return {m: solve_method(inst, m) for m in methods}


def _tol(v, rel=1e-6):
    return rel * max(1.0, abs(v))


# --- generators ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rotation", ["haar", "qr"])
@pytest.mark.parametrize("n", [1, 2, 7])
def test_rotations_are_orthogonal_and_seeded(rotation, n):
    from safeguarded.experiments import rng_for

    Q1 = rotation_matrix(n, rng_for(3), rotation)
    Q2 = rotation_matrix(n, rng_for(3), rotation)
    np.testing.assert_array_equal(Q1, Q2)
    np.testing.assert_allclose(Q1.T @ Q1, np.eye(n), atol=1e-12)


def test_haar_rotation_has_haar_moments():
    # Under Haar measure on O(n), E[Q_11] = 0 and E[Q_11^2] = 1/n; plain QR of randn (the authors'
    # code, no sign fix) has a positive-biased Q_11 under LAPACK's convention.
    from safeguarded.experiments import rng_for

    n, reps = 4, 3000
    q11 = np.array([rotation_matrix(n, rng_for(i), "haar")[0, 0] for i in range(reps)])
    assert abs(q11.mean()) < 4 * np.sqrt(1 / n / reps)
    assert abs((q11**2).mean() - 1 / n) < 0.02


def test_scalings_thesis_vs_code():
    hc_thesis = draw_instance("hypercube", 6, 0, scaling="thesis")
    hc_code = draw_instance("hypercube", 6, 0, scaling="code")
    # same draws: the code's D ~ U[0, 1] is the thesis's U[0, 10] divided by 10
    np.testing.assert_allclose(hc_code.L * 10, hc_thesis.L, rtol=1e-12)
    s_thesis = draw_instance("stqp1", 7, 2, scaling="thesis")
    s_code = draw_instance("stqp1", 7, 2, scaling="code")
    np.testing.assert_allclose(s_code.Q, s_thesis.Q * 7 / 10, rtol=1e-10, atol=1e-12)
    lam = np.linalg.eigvalsh(s_thesis.Q)
    assert lam.min() >= -7.5 and lam.max() <= 2.5


def test_stqp_relaxations_are_positively_homogeneous():
    # which justifies deriving the code's n-scaled StQP series from the thesis-scaled solves
    n = 6
    a, b = draw_instance("stqp2", n, 1, scaling="thesis"), draw_instance("stqp2", n, 1, scaling="code")
    for m in THREE:
        va, vb = solve_method(a, m).value, solve_method(b, m).value
        assert vb == pytest.approx(va * n / 10, rel=1e-5, abs=1e-7)


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="n must be"):
        draw_instance("simplex", 0, 0)
    with pytest.raises(ValueError, match="symmetric"):
        stqp_from_matrix(np.array([[1.0, 2.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="symmetric"):
        eigen_split(np.array([[0.0, 1.0], [-1.0, 0.0]]))
    with pytest.raises(ValueError, match="positive semidefinite"):
        simplex_problem(np.array([1.0, -2.0]), np.eye(2))
    with pytest.raises(ValueError, match="positive semidefinite"):
        hypercube_problem(np.diag([1.0, -0.1]), np.eye(2))
    with pytest.raises(ValueError, match="n must be >= k"):
        simplex_cube_problem(np.ones(3), np.eye(3), k=3)
    with pytest.raises(ValueError, match="setting"):
        draw_instance("cube", 3, 0)
    with pytest.raises(ValueError, match="methods"):
        relaxation_cell("simplex", 3, ["sdp"], seed=0)


def test_eigen_split():
    inst = draw_instance("stqp2", 9, 4)
    P, N = eigen_split(inst.Q)
    np.testing.assert_allclose(P - N, inst.Q, atol=1e-12)
    assert np.linalg.eigvalsh(P).min() > -1e-12 and np.linalg.eigvalsh(N).min() > -1e-12
    np.testing.assert_allclose(P @ N, 0, atol=1e-10)


def test_vertices_of_the_liftings_are_the_polytope_vertices():
    for inst, count in ((draw_instance("hypercube", 4, 0), 16), (draw_instance("simplex_cube", 7, 0), 8 * 4)):
        V = lifting_vertices(inst)
        assert V.shape == (inst.n, count)
        assert np.all(inst.A @ V <= inst.b[:, None] + 1e-12)
        # a vertex makes n linearly independent constraints active
        for v in V.T:
            active = np.isclose(inst.A @ v, inst.b)
            assert np.linalg.matrix_rank(inst.A.toarray()[active]) == inst.n


# --- Corollary 16 / Theorem 22 on simplicial instances --------------------------------------------


@pytest.mark.parametrize("n,seed", [(2, 0), (5, 1), (12, 2), (25, 3)])
def test_corollary16_three_relaxations_agree_and_X_is_diagonal(n, seed):
    inst = draw_instance("simplex", n, seed)
    res = _values(inst, THREE + ("proposed_closed_form",))
    ref = res["proposed_closed_form"].value
    for m in THREE:
        assert res[m].status == "optimal"
        assert res[m].value == pytest.approx(ref, rel=1e-5), m
    # Theorem 22: the RLT optimum is X = Diag(x) (unique here, since M = L^T L is positive definite)
    for m in ("rlt", "rlt_sdp"):
        assert res[m].extra["diag_deviation"] < 1e-5
        np.testing.assert_allclose(res[m].x, res["proposed_closed_form"].x, atol=1e-4)


def test_closed_form_satisfies_kkt():
    inst = draw_instance("simplex", 30, 5)
    r = proposed_simplex_closed_form(inst)
    a = np.diag(inst.M) - 2 * inst.M @ inst.c
    grad = a + inst.barrier.w / r.x  # stationarity on the simplex: a_i + w_i / x_i = mu for all i
    assert np.ptp(grad) < 1e-8 * np.abs(grad).max()
    assert r.x.min() > 0 and abs(r.x.sum() - 1) < 1e-14


def test_simplicial_rlt_value_is_at_least_every_feasible_point():
    inst = draw_instance("simplex", 8, 7)
    z = proposed_simplex_closed_form(inst).value
    rng = np.random.default_rng(0)
    pts = rng.dirichlet(np.ones(8), size=2000)
    assert max(inst.objective(p) for p in pts) <= z + 1e-9


# --- Theorem 24 on lifted polytopes ---------------------------------------------------------------


@pytest.mark.parametrize(
    "setting,n,scaling",
    [
        ("hypercube", 2, "thesis"),
        ("hypercube", 5, "thesis"),
        ("hypercube", 7, "code"),
        ("simplex_cube", 5, "thesis"),
        ("simplex_cube", 9, "thesis"),
    ],
)
def test_theorem24_proposed_le_sdp_le_rlt(setting, n, scaling):
    for seed in range(2):
        v = {m: r.value for m, r in _values(draw_instance(setting, n, seed, scaling=scaling)).items()}
        assert v["proposed"] <= v["rlt_sdp"] + _tol(v["rlt_sdp"])
        assert v["rlt_sdp"] <= v["rlt"] + _tol(v["rlt"])


def test_theorem24_can_be_strict():
    # the lifted relaxation is strictly tighter than RLT on a hypercube with the code's scaling
    v = {m: r.value for m, r in _values(draw_instance("hypercube", 6, 0, scaling="code")).items()}
    assert v["proposed"] < v["rlt"] - 1e-3


# --- every relaxation bounds the global optimum ---------------------------------------------------


@pytest.mark.parametrize("setting,n", [("simplex", 2), ("simplex", 3), ("hypercube", 2), ("hypercube", 3)])
def test_relaxations_bound_the_scip_global_optimum(setting, n):
    inst = draw_instance(setting, n, 11)
    glob = scip_global(inst, time_limit=SAFETY_LIMIT_S)
    assert glob["certified"], glob["status"]
    grid_value, _ = grid_maximum(inst, resolution=60 if n == 3 else 400)
    assert glob["value"] >= grid_value - 1e-6 * max(1, abs(grid_value))  # SCIP is not beaten by a grid
    for m, r in _values(inst).items():
        assert r.value >= glob["value"] - _tol(glob["value"]), m


def test_relaxations_bound_the_global_optimum_simplex_cube():
    inst = draw_instance("simplex_cube", 5, 3)
    glob = scip_global(inst, time_limit=SAFETY_LIMIT_S)
    assert glob["certified"], glob["status"]
    for m, r in _values(inst).items():
        assert r.value >= glob["value"] - _tol(glob["value"]), m


# --- StQP closed forms ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind,n,seed", [(1, 4, 0), (1, 7, 1), (2, 5, 2), (2, 8, 3)])
def test_stqp_closed_forms_and_bounds(kind, n, seed):
    st = draw_instance(f"stqp{kind}", n, seed)
    v = {m: r.value for m, r in _values(st).items()}
    # RLT of the StQP: any symmetric X >= 0 with unit mass is feasible, so z_RLT = max_ij Q_ij
    assert v["rlt"] == pytest.approx(st.Q.max(), rel=1e-6, abs=1e-7)
    # RLT/SDP <= proposed (X >= xx^T and Diag(x) >= X in the Loewner order), and <= RLT
    assert v["rlt_sdp"] <= v["proposed"] + _tol(v["proposed"])
    assert v["rlt_sdp"] <= v["rlt"] + _tol(v["rlt"])
    glob, x = stqp_global_enumeration(st)
    pts = np.random.default_rng(seed).dirichlet(np.ones(n), size=3000)
    assert max(st.objective(p) for p in pts) <= glob + 1e-12  # enumeration is not beaten by sampling
    for m in THREE:
        assert v[m] >= glob - _tol(glob), m


# --- solver discipline and helpers ----------------------------------------------------------------


def test_fallback_is_recorded():
    import cvxpy as cp

    x = cp.Variable(3, nonneg=True)
    prob = cp.Problem(cp.Maximize(cp.sum(cp.log(x))), [cp.sum(x) == 1])
    record, fallback, first_error = solve_chain(
        prob, name="t", problem_class="EXP", chain=("HIGHS", "CLARABEL")
    )
    assert fallback and record.solver == "CLARABEL" and "HIGHS" in first_error
    assert record.objective == pytest.approx(3 * np.log(1 / 3), rel=1e-7)


def test_cell_rows_and_summaries():
    rows = relaxation_cell("hypercube", 3, ["rlt", "proposed"], seed=0)
    assert [r["method"] for r in rows] == ["rlt", "proposed"]
    assert all(
        r["status"] == "optimal" and r["solve_time"] >= 0 and r["wall_time"] >= r["solve_time"] * 0
        for r in rows
    )
    assert relative_gap(3.0, 2.0) == pytest.approx(50.0)
    assert relative_gap(0.6, 0.5) == pytest.approx(10.0)  # max{1, |z*|} in the denominator
    n = np.array([10, 20, 40, 80])
    assert loglog_slope(n, 3e-4 * n**2.5) == pytest.approx(2.5)
    frame = pd.DataFrame({"n": [1, 1, 1, 2], "t": [1.0, np.nan, 3.0, 2.0]})
    s = median_iqr(frame, ["n"], "t")
    assert s.loc[0, "failed"] == 1 and s.loc[0, "instances"] == 2 and s.loc[0, "median"] == 2.0


def test_lifting_with_identity_vertices_is_the_simplicial_proposed_rlt():
    from safeguarded.rlt.relaxations import proposed_lifted, proposed_simplex_conic

    inst = draw_instance("simplex", 9, 4)
    lifted = proposed_lifted(inst, V=np.eye(9))
    assert lifted.value == pytest.approx(proposed_simplex_conic(inst).value, rel=1e-6)
    assert lifted.value == pytest.approx(proposed_simplex_closed_form(inst).value, rel=1e-6)


@pytest.mark.parametrize("setting,n", [("hypercube", 4), ("simplex_cube", 6)])
def test_theorem24_construction_maps_the_lifted_optimum_into_rlt_sdp(setting, n):
    # Proof of Theorem 24: (X, x) = (V Diag(lambda) V^T, V lambda) is feasible in the RLT/SDP of (137)
    # (products (138) >= 0, X >= x x^T) and has the same objective as the lifted relaxation.
    from safeguarded.rlt.relaxations import proposed_lifted

    inst = draw_instance(setting, n, 2)
    res = proposed_lifted(inst)
    V = lifting_vertices(inst)
    R = inst.L @ (V - inst.c[:, None])
    # lambda is not returned (only x = V lambda); rebuild an optimal lambda with the same x
    import cvxpy as cp

    lam_var = cp.Variable(V.shape[1], nonneg=True)
    fv = np.einsum("ij,ij->j", R, R)
    from safeguarded.solvers import solve

    rebuild = cp.Problem(cp.Maximize(fv @ lam_var), [cp.sum(lam_var) == 1, V @ lam_var == res.x])
    solve(rebuild, name="rlt.test.rebuild_lambda", solver="CLARABEL", problem_class="LP")
    lam = np.clip(lam_var.value, 0, None)
    lam /= lam.sum()
    X, x = (V * lam) @ V.T, V @ lam
    A, b = inst.A.toarray(), inst.b
    S = A @ X @ A.T - np.outer(A @ x, b) - np.outer(b, A @ x) + np.outer(b, b)
    assert S.min() >= -1e-7
    assert np.linalg.eigvalsh(X - np.outer(x, x)).min() >= -1e-8
    M, c = inst.M, inst.c
    lifted_obj = np.sum(M * X) - 2 * (M @ c) @ x + c @ M @ c + inst.barrier(x)
    assert lifted_obj >= res.value - 1e-5 * max(1, abs(res.value))
    sdp = solve_method(inst, "rlt_sdp").value
    assert sdp >= lifted_obj - 1e-5 * max(1, abs(sdp))

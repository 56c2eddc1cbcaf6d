"""Tests of safeguarded.convex_max (thesis §5): bounds against independent global optima."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from safeguarded.convex_max import (
    BallInstance,
    InstanceFileError,
    PolyInstance,
    box_enumeration,
    check_polyhedron,
    cor10_bounds,
    cor11_exact,
    load_instance,
    lse,
    poly_bounds,
)
from safeguarded.convex_max.baselines import scip_global, summax_milp
from safeguarded.convex_max.instances import read_mat
from safeguarded.convex_max.polyhedron import lse_upper_bound, objective

# a guard against a hang, not a timing assertion: generous, so that a loaded machine cannot turn
# an optimal solve into a "time_limit" status
SAFETY_LIMIT_S = 600.0


def _box_vertices_max(inst: PolyInstance, hi: np.ndarray, chunk: int = 1 << 15) -> float:
    """max f over the 2^n vertices of the box 0 <= x <= hi (the global optimum of a convex f)."""
    n = inst.n
    best = -np.inf
    bits = np.arange(n)
    for s in range(0, 1 << n, chunk):
        idx = np.arange(s, min(1 << n, s + chunk))
        X = ((idx[:, None] >> bits) & 1) * hi[None, :]
        Z = X @ inst.A.T + inst.b
        if inst.kind == "lse":
            vals = lse(Z, axis=1)
        else:
            vals = Z.reshape(len(idx), inst.K, inst.J).max(axis=2).sum(axis=1)
        best = max(best, float(vals.max()))
    return best


def _feasible(inst: PolyInstance, x: np.ndarray, tol: float = 1e-7) -> bool:
    return bool(np.all(x >= -tol) and np.all(inst.D @ x <= inst.d + tol * (1 + np.abs(inst.d))))


# ------------------------------------------------------------------ functions and input checks
def test_lse_is_stable_and_exact():
    z = np.array([1000.0, 1000.0, -1000.0])
    assert lse(z) == pytest.approx(1000.0 + np.log(2.0), abs=1e-12)
    small = np.array([0.3, -1.2, 2.0])
    assert lse(small) == pytest.approx(np.log(np.exp(small).sum()), rel=1e-14)


def test_bad_inputs_name_the_parameter(tmp_path, data_mirror):
    A = np.ones((2, 3))
    with pytest.raises(ValueError, match="rho"):
        BallInstance(A, np.zeros(2), np.zeros(3), 0.0)
    with pytest.raises(ValueError, match="rho"):
        BallInstance(A, np.zeros(2), np.zeros(3), -1.0)
    with pytest.raises(ValueError, match="a must have length 3"):
        BallInstance(A, np.zeros(2), np.zeros(4), 1.0)
    with pytest.raises(ValueError, match="b must have length 2"):
        BallInstance(A, np.zeros(3), np.zeros(3), 1.0)
    with pytest.raises(ValueError, match="J\\*K"):
        PolyInstance(np.eye(3), np.ones(3), "summax", A=A, b=np.zeros(2), J=3, K=1)
    with pytest.raises(ValueError, match="empty"):
        check_polyhedron(np.eye(2), -np.ones(2))
    with pytest.raises(ValueError, match="unbounded"):
        check_polyhedron(np.array([[1.0, -1.0]]), np.ones(1))
    bad = tmp_path / "P1.mat"
    bad.write_bytes(b"MATLAB 5.0 MAT-file, this is not a mat file" + b"\x00" * 200)
    with pytest.raises(InstanceFileError, match="P1.mat"):
        read_mat(bad)
    with pytest.raises(ValueError, match="name must be one of"):
        load_instance("table37", "P10")


def test_loader_shapes(data_mirror):
    inst = load_instance("table41", "P4")
    assert (inst.n, inst.J, inst.K, inst.q) == (30, 20, 20, 60)
    quad = load_instance("table39", "P1")
    assert quad.report(0.0) == 40.0 and quad.q == 10  # ½(·) + 40 (App. 5.G.3)


# ------------------------------------------------------------------ Cor. 10 (2-norm ball)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cor10_brackets_the_global_optimum_in_the_plane(seed):
    rng = np.random.default_rng(seed)
    inst = BallInstance(rng.uniform(-2, 2, (6, 2)), rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 2), 1.5)
    res = cor10_bounds(inst)
    theta = np.linspace(0, 2 * np.pi, 200_001)
    X = inst.a[None, :] + inst.rho * np.c_[np.cos(theta), np.sin(theta)]
    opt = float(lse(X @ inst.A.T + inst.b, axis=1).max())  # max of a convex f is on the circle
    assert res.upper >= opt - 1e-7
    assert res.lower <= opt + 1e-12
    assert np.linalg.norm(res.x - inst.a) == pytest.approx(inst.rho, rel=1e-12)  # extreme point (L5073)
    assert res.lower == pytest.approx(float(lse(inst.A @ res.x + inst.b)), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_cor10_relaxation_value_at_w_is_between_lb_and_ub(seed):
    """(81) at the returned w lower-estimates (81)'s optimum: LB <= it <= UB (up to the solver gap), and
    it equals a direct evaluation with scipy's entropy (an independent formula for -f*(w))."""
    from scipy.stats import entropy

    rng = np.random.default_rng(seed)
    inst = BallInstance(rng.uniform(-2, 2, (8, 5)), rng.uniform(-1, 1, 8), rng.uniform(-1, 1, 5), 2.0)
    res = cor10_bounds(inst)
    direct = (inst.rho * np.sqrt(np.sum(res.w * np.sum(inst.A**2, axis=1)))
              + (inst.A @ inst.a + inst.b) @ res.w + entropy(res.w))
    assert res.upper_at_w == pytest.approx(direct, rel=1e-12)
    assert res.lower <= res.upper_at_w + 1e-9
    assert res.upper_at_w <= res.upper + 1e-6 * abs(res.upper)


def test_cor10_table37_p1_scs_reproduces_clarabel(data_mirror):
    inst = load_instance("table37", "P1")
    ref = cor10_bounds(inst)
    scs = cor10_bounds(inst, solver="SCS")
    assert scs.upper == pytest.approx(ref.upper, rel=2e-4)
    assert ref.upper >= ref.lower


# ------------------------------------------------------------------ Cor. 11 (∞-norm box)
@pytest.mark.parametrize("name", ["P1", "P2"])
def test_cor11_equals_sign_enumeration(name, data_mirror):
    inst = load_instance("table38", name)
    exact = cor11_exact(inst, time_limit=SAFETY_LIMIT_S)
    brute, _ = box_enumeration(inst)
    assert exact.status == "optimal"
    assert exact.value == pytest.approx(brute, rel=1e-9)
    assert exact.bound >= brute - 1e-6
    assert np.max(np.abs(exact.x - inst.a)) == pytest.approx(inst.rho)


def test_cor11_random_small_boxes():
    rng = np.random.default_rng(5)
    for _ in range(3):
        inst = BallInstance(rng.uniform(-3, 3, (4, 7)), rng.uniform(-1, 1, 4), rng.uniform(0, 1, 7), 2.0)
        exact = cor11_exact(inst, time_limit=SAFETY_LIMIT_S)
        assert exact.value == pytest.approx(box_enumeration(inst)[0], rel=1e-9)


# ------------------------------------------------------------------ Theorem 21 + Algorithm 12
@pytest.mark.parametrize(
    "table,name", [("table41", "P1"), ("table41", "P2"), ("table41", "P3"), ("table40", "P1-size10")]
)
def test_poly_bounds_bracket_vertex_enumeration(table, name, data_mirror):
    inst = load_instance(table, name)
    hi = np.array([inst.n / (i + 1) for i in range(inst.n)])  # box 0 <= x_i <= n/i (App. 5.G.4/5)
    opt = _box_vertices_max(inst, hi)
    res = poly_bounds(inst)
    tol = 1e-6 * max(1.0, abs(opt))
    assert res.upper.value >= opt - tol
    assert res.lower.value <= opt + tol
    assert _feasible(inst, res.lower.x)
    assert objective(inst, res.lower.x) == pytest.approx(res.lower.value, rel=1e-12)


def test_summax_single_block_has_zero_gap():
    """K = 1 (a max of affine functions, positively homogeneous; Remark 4 / L5385): UB = LB = optimum."""
    rng = np.random.default_rng(3)
    for _ in range(3):
        n, J = 6, 8
        D = np.vstack([np.eye(n), rng.uniform(0, 1, (4, n))])
        d = np.concatenate([rng.uniform(1, 3, n), rng.uniform(2, 6, 4)])
        inst = PolyInstance(D, d, "summax", A=rng.uniform(-5, 5, (J, n)), b=np.zeros(J), J=J, K=1)
        from safeguarded.convex_max.lp import PolyhedronLP

        lp = PolyhedronLP(D, d)
        opt = max(float(inst.A[j] @ lp.argmax(inst.A[j])) for j in range(J))  # max_j max_x A_j x
        res = poly_bounds(inst)
        assert res.upper.value == pytest.approx(opt, rel=1e-7)
        assert res.lower.value == pytest.approx(opt, rel=1e-9)


@pytest.mark.parametrize("name", ["P3", "P7", "P11"])
def test_summax_reduced_lp_equals_literal_124(name, data_mirror):
    """(124') (n + m + nm rows) has the optimum of (124) as printed; its V = s is an optimal LDR of (124),
    and the reported bound (the LDR evaluated exactly) is the LP optimum up to the solver tolerance."""
    from safeguarded.convex_max.polyhedron import summax_ldr_bound, summax_upper_bound

    inst = load_instance("table41", name)
    literal = summax_upper_bound(inst, form="literal", method="simplex")
    reduced = summax_upper_bound(inst, form="reduced", method="simplex")
    ipm = summax_upper_bound(inst)  # the default: reduced form, IPM without crossover
    opt = literal.extra["lp_objective"]
    assert reduced.extra["rows"] < literal.extra["rows"]
    assert reduced.extra["lp_objective"] == pytest.approx(opt, rel=1e-9)
    assert np.all(reduced.V >= -1e-9)  # an optimal LDR with V >= 0 exists: the s of (124')
    assert summax_ldr_bound(inst, reduced.V) == pytest.approx(opt, rel=1e-9)
    assert summax_ldr_bound(inst, literal.V) == pytest.approx(opt, rel=1e-9)
    assert ipm.value >= opt * (1 - 1e-9) and ipm.value == pytest.approx(opt, rel=1e-7)


@pytest.mark.parametrize("name", ["P2", "P4", "P11"])  # boxes (closed-form support) and a general polyhedron
def test_summax_generation_reaches_the_optimum_of_124(name, data_mirror):
    """Generation over the pieces j ends at the optimum of (124') with fewer pieces, and its full V (LP
    solution for the kept pieces, optimal multipliers for the dropped ones) is an optimal LDR of (124)."""
    from safeguarded.convex_max.polyhedron import summax_ldr_bound, summax_upper_bound

    inst = load_instance("table41", name)
    full = summax_upper_bound(inst, form="reduced", method="simplex")
    gen = summax_upper_bound(inst, form="generation", method="simplex")
    opt = full.extra["lp_objective"]
    assert gen.extra["lp_objective"] == pytest.approx(opt, rel=1e-9)
    assert gen.extra["pieces"] < inst.m
    assert np.all(gen.V >= -1e-9)
    assert summax_ldr_bound(inst, gen.V) == pytest.approx(opt, rel=1e-8)


def test_summax_ldr_bound_is_an_upper_bound_for_any_ldr(data_mirror):
    """Theorem 21 at any V (here random, and V = 0) bounds the global optimum (vertex enumeration)."""
    from safeguarded.convex_max.polyhedron import summax_ldr_bound, summax_upper_bound

    inst = load_instance("table41", "P2")
    hi = np.array([inst.n / (i + 1) for i in range(inst.n)])
    opt = _box_vertices_max(inst, hi)
    best = summax_upper_bound(inst).value
    rng = np.random.default_rng(0)
    shape = (inst.q, inst.m)
    for V in [np.zeros(shape), rng.normal(size=shape), rng.uniform(0, 3, shape)]:
        value = summax_ldr_bound(inst, V)
        assert value >= opt - 1e-9 * abs(opt)
        assert value >= best - 1e-7 * abs(best)  # the LP's LDR is the best


def test_lse_polyhedron_against_scip_and_scs():
    rng = np.random.default_rng(11)
    n = m = 4
    D = rng.uniform(0, 1, (n, n))
    inst = PolyInstance(D, rng.uniform(2, 5, n), "lse", A=rng.uniform(-3, 3, (m, n)), b=rng.uniform(-1, 1, m))
    res = poly_bounds(inst)
    glob = scip_global(inst, time_limit=SAFETY_LIMIT_S)
    assert glob.status == "optimal"
    assert res.upper.value >= glob.value - 1e-5
    assert res.lower.value <= glob.value + 1e-5
    assert _feasible(inst, res.lower.x)
    scs = lse_upper_bound(inst, solver="SCS")
    assert scs.value == pytest.approx(res.upper.value, rel=1e-3)


def test_quadratic_bounds_against_scip(data_mirror):
    inst = load_instance("table39", "P3")
    res = poly_bounds(inst)
    glob = scip_global(inst, time_limit=SAFETY_LIMIT_S, stand_in_for="CPLEX")
    assert glob.status == "optimal"
    assert res.upper.value >= glob.value - 1e-4 * glob.value
    assert res.lower.value <= glob.value * (1 + 1e-9)
    assert _feasible(inst, res.lower.x)
    assert objective(inst, res.lower.x) == pytest.approx(res.lower.value, rel=1e-12)


def test_summax_milp_stand_in_is_global_on_small_instance(data_mirror):
    inst = load_instance("table41", "P2")
    hi = np.array([inst.n / (i + 1) for i in range(inst.n)])
    opt = _box_vertices_max(inst, hi)
    res = summax_milp(inst, time_limit=SAFETY_LIMIT_S)
    assert res.status == "optimal"
    assert res.value == pytest.approx(opt, rel=1e-7)


def test_generated_instances_are_reproducible():
    from safeguarded.convex_max import generate_lse_ball

    kw = dict(m=5, n=7, A_range=(-0.5, 0.5), b_range=(-0.25, 0.25), a_range=(-0.5, 0.5), rho=2.0)
    one, two = generate_lse_ball(**kw, seed=4), generate_lse_ball(**kw, seed=4)
    assert one.generated and np.array_equal(one.A, two.A) and np.array_equal(one.a, two.a)
    assert not np.array_equal(one.A, generate_lse_ball(**kw, seed=5).A)


def test_vertex_enumeration_helper_is_itself_right():
    inst = PolyInstance(np.vstack([np.eye(2), -np.eye(2)]), np.array([1.0, 2.0, 0.0, 0.0]), "lse",
                        A=np.array([[1.0, -1.0], [-2.0, 0.5]]), b=np.zeros(2))
    brute = max(float(lse(inst.A @ np.array(v))) for v in itertools.product([0.0, 1.0], [0.0, 2.0]))
    assert _box_vertices_max(inst, np.array([1.0, 2.0])) == pytest.approx(brute)


def test_quadratic_certified_bound_is_feasible_and_valid(data_mirror):
    """The repaired point of (113) satisfies its cones exactly and its value bounds the optimum."""
    from safeguarded.convex_max.polyhedron import quad_upper_bound

    inst = load_instance("table39", "P3")
    ub = quad_upper_bound(inst)
    certified = ub.extra["certified"]
    assert np.isfinite(certified)
    assert certified >= ub.value - 1e-6 * ub.value  # repair never improves on the solver's optimum
    assert certified <= ub.value * (1 + 1e-4)  # and costs little
    assert certified >= 4674.677147 - 1e-6  # global optimum of P3 (SCIP, test above; thesis 4,674.70)
    rng = np.random.default_rng(0)
    for _ in range(200):  # the bound holds at random feasible points too
        x = rng.uniform() * _lp(inst).argmax(rng.normal(size=inst.n))
        assert objective(inst, x) <= certified


def test_quadratic_certificate_survives_a_degenerate_denominator(data_mirror):
    """An approximate solution with 1 - d'u - beta'd slightly negative (as Clarabel returns on Table 39
    P5–P7) cannot be repaired by raising alpha alone; the blend with the interior point can, and its
    value is still a valid bound close to the optimum."""
    from safeguarded.convex_max.polyhedron import quad_certified_tau, quad_upper_bound

    inst = load_instance("table39", "P3")
    ub = quad_upper_bound(inst)
    S = ub.extra["scale"]
    L, ell = inst.L / np.sqrt(S), inst.ell / S
    alpha, beta = ub.extra["vbar"] + ub.extra["vhat"], ub.extra["vbar"] - ub.extra["vhat"]
    den = 1 - inst.d @ ub.u - beta @ inst.d
    beta_bad = beta + (den + 1e-8) / inst.d.sum()  # now 1 - d'u - beta'd = -1e-8
    assert 1 - inst.d @ ub.u - beta_bad @ inst.d < 0
    value = S * quad_certified_tau(L, ell, inst.D, inst.d, ub.u, alpha, beta_bad, ub.V)
    assert np.isfinite(value)
    assert value >= ub.value * (1 - 1e-7)  # never below the optimum of (113)
    assert value <= ub.value * (1 + 1e-3)
    rng = np.random.default_rng(1)
    for _ in range(100):
        x = rng.uniform() * _lp(inst).argmax(rng.normal(size=inst.n))
        assert objective(inst, x) <= value


def _lp(inst):
    from safeguarded.convex_max.lp import PolyhedronLP

    return PolyhedronLP(inst.D, inst.d)


def test_certified_claim_of_a_failed_row_is_inconclusive():
    """A row whose UB solve failed (NaN bounds) cannot certify or refute UB = LB: inconclusive, not fails."""
    import pandas as pd

    from safeguarded.claims import ClaimSet
    from safeguarded.convex_max import report

    claims = ClaimSet("convex_max", "test_certified", scale="paper", solver="CLARABEL", runs="deterministic")
    df = pd.DataFrame({"problem": ["P4", "P5"], "upper": [np.nan, 45.0356], "lower": [np.nan, 45.0356]})
    report.register_certified(claims, "table40", df)
    verdicts = {c.claim: c.verdict for c in claims.claims}
    assert verdicts["P4 certified (UB = LB)"] == "inconclusive"
    assert verdicts["P5 certified (UB = LB)"] == "qualitative-ok"


def test_deviation_table_lists_exactly_the_bounds_outside_their_tolerance_with_rule_based_reasons():
    import pandas as pd

    from safeguarded.convex_max.report import deviation_table, explain_deviation
    from safeguarded.convex_max.thesis import TABLE37

    printed = float(TABLE37["P7"]["upper"])
    df = pd.DataFrame([
        # within half a unit of 570.8467: not listed
        dict(problem="P7", upper=printed + 4e-5, lower=printed - 4e-5, upper_at_w=printed),
        # UB above the printed value and the relaxation at our point above it too: rule (2)
        dict(problem="P8", upper=601.69, lower=601.6886, upper_at_w=601.6899),
        # UB below our own LB: rule (1), whatever the printed value
        dict(problem="P9", upper=890.7, lower=890.7722, upper_at_w=890.7),
    ])
    dev = deviation_table("table37", df)
    assert list(zip(dev["problem"], dev["bound"], strict=True)) == [("P8", "upper"), ("P9", "upper")]
    assert "below the relaxation's optimum" in dev["reason"].iloc[0]
    assert "below our own LB" in dev["reason"].iloc[1]
    assert explain_deviation("table37", df.iloc[0], "upper") == ""
    # an LB above the printed value: the thesis's point is worse
    assert "worse" in explain_deviation("table37", pd.Series(dict(problem="P7", upper=571.0, lower=570.9)),
                                        "lower")


def test_knitro_values_against_the_local_stand_in_confirm_or_refute_only_by_the_bound():
    """§2e for Knitro's columns: equal at the printed digits -> reproduced; a printed local value above our
    certified bound (plus half a unit and the bound's own inaccuracy) -> deviates; else inconclusive. The
    verdicts a ClaimSet gives are the comparison's."""
    import pandas as pd

    from safeguarded.claims import ClaimSet
    from safeguarded.convex_max import report

    # Table 37: P1 Knitro 9.7890 (no multistart), P2 Knitro 54.0329, multistart 55.8913, printed UB 56.0521
    df = pd.DataFrame([
        dict(problem="P1", local_value=9.78897, ms_value=9.78897, upper=10.0186, lower=9.7816),
        dict(problem="P2", local_value=55.0, ms_value=55.75, upper=55.8, lower=55.7288),  # UB below 55.8913
        dict(problem="P4", local_value=170.0, ms_value=179.1, upper=179.12237, lower=179.12246),
    ])
    got = report.local_comparison("table37", df)
    verdicts = dict(zip(got["problem"] + " " + got["run"], got["verdict"], strict=True))
    assert verdicts == {"P1 single start": "reproduced", "P2 single start": "inconclusive",
                        "P2 multistart": "deviates", "P4 single start": "inconclusive",
                        # 179.1224 <= UB 179.12237 + 9e-5 (UB below LB) + 5e-5: not refuted
                        "P4 multistart": "inconclusive"}
    claims = ClaimSet("convex_max", "test_knitro", scale="paper", solver="CLARABEL", runs="deterministic")
    report.register_local_values(claims, "table37", df)
    rows = {c.claim: c for c in claims.claims}
    named = {k: f"{k.split()[0]} Knitro {k.split(' ', 1)[1]} value" for k in verdicts}
    assert {k: rows[named[k]].verdict for k in verdicts} == verdicts
    assert rows["P2 Knitro single start value"].note.startswith("confirms only:")
    assert "above it" in rows["P2 Knitro multistart value"].note
    assert all(c.solver == report.LOCAL_STANDIN for c in claims.claims)
    # the text's single-start statement: misses everywhere but the named problem
    claims = ClaimSet("convex_max", "test_single", scale="paper", solver="CLARABEL", runs="deterministic")
    t40 = pd.DataFrame([dict(problem="P1-size40", local_value=248.75887, ms_value=248.75887, lower=248.75887),
                        dict(problem="P2", local_value=59.8, ms_value=64.8926, lower=np.nan)])
    report.register_single_start(claims, "table40", t40, finds=("P1-size40",), location="L5377")
    assert claims.claims[-1].verdict == "qualitative-ok"
    report.register_single_start(claims, "table40", t40, finds=("P2",), location="L5377")
    assert claims.claims[-1].verdict == "qualitative-fails"


def test_block_argmax_is_a_maximiser_and_breaks_ties_as_asked():
    """Each block's one-hot maximiser attains c'w's maximum over the product of simplices, at the first or
    the last tied entry; without ties both rules agree (Table 41's lower bounds hinge on the rule)."""
    from safeguarded.convex_max.functions import block_argmax

    c = np.array([3.0, 1.0, 3.0, 0.0, 2.0, 2.0 - 1e-12, -1.0, 5.0, 4.0])  # K = 3 blocks of J = 3
    first, last = block_argmax(c, 3, 3), block_argmax(c, 3, 3, tie="last")
    assert first.tolist() == [1, 0, 0, 0, 1, 0, 0, 1, 0]
    assert last.tolist() == [0, 0, 1, 0, 0, 1, 0, 1, 0]
    assert c @ first == pytest.approx(c @ last) == pytest.approx(3 + 2 + 5)
    rng = np.random.default_rng(0)
    for _ in range(20):
        c = rng.normal(size=12)
        assert np.array_equal(block_argmax(c, 4, 3), block_argmax(c, 4, 3, tie="last"))
        assert c @ block_argmax(c, 4, 3) == pytest.approx(c.reshape(3, 4).max(axis=1).sum())

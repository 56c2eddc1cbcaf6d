"""Independent checks of the bounding LPs P(π, β), D(π, β) and Algorithms 1–2 (dp_noise.bounds)."""

from __future__ import annotations

import itertools
import math

import cvxpy as cp
import numpy as np
import pytest

from safeguarded.dp_noise import bounds as b
from safeguarded.dp_noise.mechanisms import TruncatedLaplace, delta_of_density
from safeguarded.experiments import rng_for
from safeguarded.solvers import solve


def _problem(eps, delta, part, kind="upper", loss="l1"):
    cells = part if kind == "upper" else part.padded()
    costs = b.cell_costs(cells.edges, loss, "mean" if kind == "upper" else "inf")
    return b._Problem(cells, part.lo, part.hi, eps, delta, costs)


def _enumerated_lp_value(eps, delta, part, kind, loss):
    """The bounding LP with *every* (φ, A) of 𝓔(L, β) written out (2^n events), solved by Clarabel."""
    prob = _problem(eps, delta, part, kind, loss)
    n_ev = prob.ev_hi - prob.ev_lo
    rows = []
    for s in range(-part.k, part.k + 1):
        for bits in itertools.product([False, True], repeat=n_ev):
            event = np.array(bits)
            if event.any():
                rows.append(b._cut_row(prob, s, event))
    mat = np.array(rows)
    p = cp.Variable(prob.n, nonneg=True)
    problem = cp.Problem(cp.Minimize(prob.costs @ p), [cp.sum(p) == 1, mat @ p <= delta])
    rec = solve(problem, name="test.enumerated", solver="CLARABEL", problem_class="LP")
    return rec.objective


@pytest.mark.parametrize("kind", ["upper", "lower"])
@pytest.mark.parametrize("loss", ["l1", "l2"])
def test_values_equal_fully_enumerated_lp(kind, loss):
    """Both solution methods equal the LP with all 2^n events enumerated (second solver: Clarabel)."""
    eps, delta = 0.8, 0.2
    part = b.uniform_partition(3, 2)  # 7 fine cells, 5 shifts: 5 · 127 enumerated constraints
    ref = _enumerated_lp_value(eps, delta, part, kind, loss)
    fn = b.upper_bound if kind == "upper" else b.lower_bound
    for method in b.METHODS:
        res = fn(eps, delta, part, loss, method=method)
        assert res.value == pytest.approx(ref, rel=1e-6, abs=1e-8), method


@pytest.mark.parametrize("method", b.METHODS)
def test_final_noise_satisfies_every_constraint_by_brute_force(method):
    eps, delta = 1.0, 0.1
    part = b.uniform_partition(5, 2)  # 11 fine cells in the event range
    for kind, fn in (("upper", b.upper_bound), ("lower", b.lower_bound)):
        res = fn(eps, delta, part, method=method)
        prob = _problem(eps, delta, part, kind)
        assert b.max_shortfall_bruteforce(prob, res.masses) <= delta + 1e-8
    # the upper-bound noise is a genuine (ε, δ)-DP mechanism for every real shift |φ| ≤ Δf
    noise = b.upper_bound(eps, delta, part, method=method).noise()
    num = delta_of_density(noise.pdf, eps, lim=4.0, n_grid=160_001, n_shift=41)
    assert num <= delta + 2e-3


def test_methods_agree_on_nonuniform_partition():
    part = b.graded_partition(8, 4, fine=3, growth=1.6)
    assert part.n_cells < 2 * 8 + 1
    methods = [m for m in b.METHODS if m != "ipm"]  # the IPM is for uniform grids (its refusal is tested)
    vals = {m: b.upper_bound(0.7, 0.15, part, method=m).value for m in methods}
    lows = {m: b.lower_bound(0.7, 0.15, part, method=m, uncertified_nonuniform=True).value for m in methods}
    for v in (vals, lows):
        assert max(v.values()) - min(v.values()) < 1e-7 * max(v.values())
    assert vals["compact"] >= lows["compact"]


def test_separation_vectorised_equals_algorithm2():
    rng = rng_for(3)
    for part in (b.uniform_partition(6, 3), b.graded_partition(9, 3, fine=2, growth=1.7)):
        for kind in ("upper", "lower"):
            prob = _problem(0.9, 0.05, part, kind)
            for _ in range(5):
                p = rng.dirichlet(np.full(prob.n, 0.5))
                _, vals, _ = b.privacy_shortfalls(prob, p)
                _, v2 = b.separation_algorithm2(prob, p)
                assert max(vals.max(), 0.0) == pytest.approx(v2, rel=1e-10, abs=1e-14)
                if prob.ev_hi - prob.ev_lo <= 16 and kind == "upper":
                    assert b.max_shortfall_bruteforce(prob, p) == pytest.approx(v2, rel=1e-10)


@pytest.mark.parametrize("eps,delta", [(1.0, 0.1), (0.3, 0.2), (3.0, 0.3)])
def test_upper_bound_above_lower_bound_and_gap_shrinks(eps, delta):
    """P(L, β) ≥ D(L, β); under dyadic refinement P decreases, D increases, the gap shrinks (Thm 1)."""
    lam = b.support_rule(eps, delta)
    prev = None
    for k in (2, 4, 8):
        part = b.uniform_partition(lam * k, k)
        up, lo = b.upper_bound(eps, delta, part), b.lower_bound(eps, delta, part)
        assert up.value >= lo.value - 1e-10
        # the truncated Laplace mechanism is feasible in P, so D ≤ P* ≤ E|TLap|
        assert lo.value <= TruncatedLaplace(eps, delta).amplitude() + 1e-9
        if prev is not None:
            assert up.value <= prev[0] + 1e-9
            assert lo.value >= prev[1] - 1e-9
            assert up.value - lo.value < prev[0] - prev[1]
        prev = (up.value, lo.value)


def test_reference_cell_of_table4():
    """(ε, δ) = (1, 0.1), Δf = 1, ℓ1, support ±3, β = 0.05: the catalog's independent numbers."""
    part = b.uniform_partition(60, 20)
    up, lo = b.upper_bound(1, 0.1, part), b.lower_bound(1, 0.1, part)
    assert up.value == pytest.approx(0.691070, abs=2e-6)
    assert lo.value == pytest.approx(0.666068, abs=2e-6)


def test_scale_equivariance_and_monotone_restriction():
    p1 = b.upper_bound(1.0, 0.1, b.uniform_partition(12, 4, 1.0), "l1").value
    p2 = b.upper_bound(1.0, 0.1, b.uniform_partition(12, 4, 2.0), "l1").value
    q2 = b.upper_bound(1.0, 0.1, b.uniform_partition(12, 4, 2.0), "l2").value
    q1 = b.upper_bound(1.0, 0.1, b.uniform_partition(12, 4, 1.0), "l2").value
    assert p2 == pytest.approx(2 * p1, rel=1e-7)
    assert q2 == pytest.approx(4 * q1, rel=1e-7)
    part = b.uniform_partition(12, 4)
    free = b.upper_bound(3.0, 0.3, part)
    mono = b.upper_bound(3.0, 0.3, part, monotone=True)
    assert mono.value >= free.value - 1e-10
    d = mono.masses / part.widths
    left = part.breaks[1:] <= 0
    assert np.all(np.diff(d[left]) >= -1e-9)
    assert np.all(np.diff(d[~left]) <= 1e-9)


def test_bad_input():
    part = b.uniform_partition(6, 2)
    with pytest.raises(ValueError, match="epsilon must be in"):
        b.upper_bound(0.0, 0.1, part)
    with pytest.raises(ValueError, match="delta must be in"):
        b.upper_bound(1.0, 1.0, part)
    with pytest.raises(ValueError, match="sensitivity must be in"):
        b.uniform_partition(6, 2, sensitivity=-1.0)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        b.uniform_partition(6, 0)
    with pytest.raises(ValueError, match="L must be a positive integer"):
        b.uniform_partition(0, 2)
    with pytest.raises(ValueError, match="loss must be"):
        b.upper_bound(1.0, 0.1, part, "l3")
    with pytest.raises(ValueError, match="method must be"):
        b.upper_bound(1.0, 0.1, part, method="simplex")
    with pytest.raises(ValueError, match="breaks must be strictly increasing"):
        b.Partition(np.array([0, 0, 1]), 2)
    with pytest.raises(ValueError, match="partition must contain the cell"):
        b.upper_bound(1.0, 0.1, b.Partition(np.array([2, 3, 4]), 2))
    # a support that cannot hold a DP noise: P(L, β) is infeasible (δ = 0 with finite support)
    for method in b.METHODS:
        with pytest.raises(ValueError, match="cannot hold an"):
            b.upper_bound(0.5, 0.0, b.uniform_partition(2, 2), method=method)
    with pytest.raises(ValueError, match="tol must be"):
        b.upper_bound(1.0, 0.1, part, method="cutting_plane", tol=0.0)


def test_cell_costs_against_quadrature():
    edges = np.array([-2.0, -0.3, 0.4, 1.1, 3.0])
    for loss, fn in (("l1", np.abs), ("l2", np.square)):
        ours = b.cell_costs(edges, loss, "mean")
        ref = b.cell_costs(edges, fn, "mean")
        np.testing.assert_allclose(ours, ref, rtol=1e-10)
        np.testing.assert_allclose(
            b.cell_costs(edges, loss, "inf"), b.cell_costs(edges, fn, "inf"), atol=1e-12
        )
    assert math.isclose(b.cell_costs(np.array([-1.0, 1.0]), "l1", "mean")[0], 0.5)


def _shortfall_by_quadrature(p, beta, eps, phi, a, c, n=20_001):
    """V(φ, [a, c)) = ∫_a^c f(x) − e^ε f(x − φ) dx for the step density f = p(⌊x/β⌋) (midpoint rule)."""
    x = a + (np.arange(n) + 0.5) * (c - a) / n
    f = lambda z: p(np.floor(z / beta).astype(int))  # noqa: E731
    return float(np.sum(f(x) - math.exp(eps) * f(x - phi)) * (c - a) / n)


@pytest.mark.parametrize("phi", [0.35, -0.35, 0.8, -1.6, 2.0])
def test_interval_split_satisfies_observation5(phi):
    """Definition 1 / Observation 5 (L1064–L1079): on I_i¹ the shortfall is |A|(p(i) − e^ε p(j−1)), on
    I_i² it is |A|(p(i) − e^ε p(j)); checked by direct integration of a random step density."""
    rng = np.random.default_rng(5)
    beta, eps = 0.5, 0.7
    table = rng.uniform(0.1, 1.0, size=41)
    p = lambda idx: table[np.asarray(idx) + 20]  # noqa: E731
    for i in (-3, 0, 2):
        j, (a1, c1), (a2, c2) = b.interval_split(i, phi, beta)
        assert math.isclose(a1, i * beta) and math.isclose(c2, (i + 1) * beta) and math.isclose(c1, a2)
        assert i * beta <= phi + j * beta < (i + 1) * beta + 1e-12
        if c1 - a1 > 1e-9:
            expected = (c1 - a1) * (p(i) - math.exp(eps) * p(j - 1))
            assert _shortfall_by_quadrature(p, beta, eps, phi, a1, c1) == pytest.approx(expected, rel=1e-6)
        expected = (c2 - a2) * (p(i) - math.exp(eps) * p(j))
        assert _shortfall_by_quadrature(p, beta, eps, phi, a2, c2) == pytest.approx(expected, rel=1e-6)


def test_lower_bound_refuses_nonuniform_partitions():
    """D(π, β) on coarse cells is not certified (see lower_bound's docstring): refused by default."""
    with pytest.raises(ValueError, match="partition must be uniform"):
        b.lower_bound(0.7, 0.15, b.graded_partition(8, 4, fine=3, growth=1.6))


def test_interval_split_bad_input():
    with pytest.raises(ValueError, match="beta"):
        b.interval_split(0, 0.3, 0.0)
    with pytest.raises(ValueError, match="i must be an integer"):
        b.interval_split(0.5, 0.3, 1.0)
    with pytest.raises(ValueError, match="phi"):
        b.interval_split(0, float("nan"), 1.0)


def test_figure2_fixed_support_does_not_converge():
    """Theorem 1's remark (L646): refining β on a fixed support L too small for the optimum leaves D
    strictly below the bounds of a larger support, while a large enough support brackets P*."""
    from safeguarded.dp_noise.synthetic import figure2_cell

    small = figure2_cell(1.0, 0.2, support=1, k=8)
    large = figure2_cell(1.0, 0.2, support=4, k=8)
    assert math.isnan(small["P"])  # support ±1 cannot hold a (1, 0.2)-DP noise (TLap needs ±3.33)
    assert large["D"] <= large["P"]
    assert small["D"] < large["D"] - 0.05


# --------------------------------------------------------------------------------------------------
# warm-started column generation (issue 18 item 3)
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("warm_start", ["tlap", "coarse"])
@pytest.mark.parametrize(
    "eps,delta,loss,L,k", [(1.0, 0.1, "l1", 24, 8), (0.3, 0.2, "l2", 24, 8), (3.0, 0.05, "l1", 20, 10)]
)
def test_warm_started_generation_equals_compact_and_is_feasible(warm_start, eps, delta, loss, L, k):
    """The warm start only chooses columns earlier: same LP optimum as the compact LP (1e-7 relative),
    masses feasible under the literal Algorithm 2 (an independent loop over cells), and P ≥ D."""
    part = b.uniform_partition(L, k)
    values = {}
    for kind, fn in (("upper", b.upper_bound), ("lower", b.lower_bound)):
        ref = fn(eps, delta, part, loss, method="compact")
        res = fn(eps, delta, part, loss, method="generation", warm_start=warm_start)
        assert res.value == pytest.approx(ref.value, rel=1e-7), kind
        _, v2 = b.separation_algorithm2(_problem(eps, delta, part, kind, loss), res.masses)
        assert v2 - delta <= 1e-8, kind
        assert res.profile["rounds"] == res.iterations and res.profile["columns"] >= res.masses.size
        values[kind] = res.value
    assert values["upper"] >= values["lower"]


def test_warm_start_masses_are_feasible_by_brute_force():
    """The truncated-Laplace cell masses (the seed) satisfy every (φ, A) of P(L, β) — all 2^n events —
    and their cost equals the mechanism's closed-form amplitude up to the cell averaging."""
    eps, delta = 1.0, 0.2
    part = b.uniform_partition(7, 2)  # support [-3.5, 4) ⊇ the TLap support ±3.33, 15 event cells
    p = b.truncated_laplace_masses(eps, delta, part)
    assert p.sum() == pytest.approx(1.0)
    assert b.max_shortfall_bruteforce(_problem(eps, delta, part), p) <= delta + 1e-12
    tl = TruncatedLaplace(eps, delta)
    costs = b.cell_costs(part.edges, "l1", "mean")
    assert abs(float(costs @ p) - tl.amplitude()) <= part.beta / 2


def test_warm_start_bad_input():
    part = b.uniform_partition(6, 2)
    with pytest.raises(ValueError, match="warm_start must be one of"):
        b.upper_bound(1.0, 0.1, part, warm_start="laplace")
    with pytest.raises(ValueError, match="margin must be in"):
        b.lower_bound(1.0, 0.1, part, margin=1.5)


@pytest.mark.parametrize("eps,delta,k", [(1.0, 0.1, 6), (5.0, 0.25, 8), (0.2, 0.3, 4)])
def test_l1_gap_on_a_uniform_grid_is_at_least_half_a_cell(eps, delta, k):
    """ℓ1, uniform grid: P(L, β) − D(L, β) ≥ β/2, because c_i − c̲_i = β/2 in every cell (so P equals the
    same LP with infimum costs plus β/2) and D relaxes that LP (padding).  Sets the k a target gap needs."""
    part = b.uniform_partition(b.support_rule(eps, delta) * k, k)
    np.testing.assert_allclose(
        b.cell_costs(part.edges, "l1", "mean") - b.cell_costs(part.edges, "l1", "inf"), part.beta / 2
    )
    up, lo = b.upper_bound(eps, delta, part), b.lower_bound(eps, delta, part)
    assert up.value - lo.value >= part.beta / 2 - 1e-9


# --------------------------------------------------------------------------------------------------
# the cover bound C(π, β): a lower bound valid on non-uniform partitions (dp_noise.nonuniform)
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["flow", "potential", "cuts"])
@pytest.mark.parametrize("loss", ["l1", "l2"])
def test_cover_bound_equals_lower_bound_on_uniform_partitions(method, loss):
    """On single fine cells cover_s(A) = A − s, so C(L, β) is the padded primal form of D(L, β)."""
    from safeguarded.dp_noise import nonuniform as nu

    for eps, delta, L, k in [(0.8, 0.2, 3, 2), (3.0, 0.05, 20, 10)]:
        part = b.uniform_partition(L, k)
        ref = b.lower_bound(eps, delta, part, loss, method="compact").value
        res = nu.cover_lower_bound(eps, delta, part, loss, method=method)
        assert res.value == pytest.approx(ref, rel=1e-7, abs=1e-10)
        assert res.masses.size == part.n_cells + 2 * k


def test_cover_separation_dp_equals_bruteforce_over_all_events():
    """The O(N)-per-shift DP equals enumeration of all 2^N events, on uniform and non-uniform cells,
    and the returned event attains the returned value."""
    from safeguarded.dp_noise import nonuniform as nu

    rng = rng_for(11)
    parts = [
        b.Partition(np.array([-3, -1, 0, 1, 2, 4]), 2),
        b.Partition(np.array([-5, -2, 0, 1, 3, 4, 7]), 3),
        b.graded_partition(9, 3, fine=2, growth=1.7),
        b.uniform_partition(3, 2),
    ]
    for part in parts:
        for conc in (0.3, 2.0):
            q = rng.dirichlet(np.full(part.n_cells + 2 * part.k, conc))
            shifts, vals, events = nu.worst_events(part, 0.7, q)
            brute = nu.worst_events_bruteforce(part, 0.7, q, shifts)
            np.testing.assert_allclose(vals, brute, rtol=1e-12, atol=1e-14)
            for s, v, ev in zip(shifts, vals, events, strict=True):
                got = nu.event_value(part, 0.7, q, int(s), ev) if ev.any() else 0.0
                assert got == pytest.approx(v, abs=1e-14)


def test_cover_bound_methods_agree_and_stay_below_upper_bound_on_nonuniform_partitions():
    from safeguarded.dp_noise import nonuniform as nu

    for eps, delta, loss in [(1.0, 0.1, "l1"), (3.0, 0.25, "l2")]:
        lam = b.support_rule(eps, delta)
        part = nu.refined_partition(lam * 12, 12, coarse=4, core=3, centres=(0.0, 1.0, -1.0))
        assert np.any(part.widths > 1) and np.any(part.widths == 1)
        vals = {
            m: nu.cover_lower_bound(eps, delta, part, loss, method=m).value for m in ("flow", "potential")
        }
        assert vals["flow"] == pytest.approx(vals["potential"], rel=1e-7)
        up = b.upper_bound(eps, delta, part, loss).value
        assert 0 < vals["flow"] <= up
        # a subset of the shifts is a relaxation: weaker (never larger), still a bound
        weaker = nu.cover_lower_bound(eps, delta, part, loss, shifts=np.array([-12, 12])).value
        assert weaker <= vals["flow"] + 1e-10


def test_cover_bound_is_below_private_mechanisms_where_the_naive_reconstruction_fails():
    """The partition of tests/test_gaussian_mixtures_optimum.py on which D(π, β) with uniform densities in
    coarse cells exceeds the loss of a privacy-checked multi-Gaussian: the cover bound stays below it, below
    the truncated Laplace and analytic Gaussian, and below the upper bound P(π, β)."""
    from safeguarded.dp_noise import nonuniform as nu
    from safeguarded.gaussian_mixtures import grid, optimum
    from safeguarded.gaussian_mixtures import multi_gaussian as mg

    eps, delta = 0.75, 5e-4
    part = optimum.lp_partition(eps, delta, work=10000)
    naive = b.lower_bound(eps, delta, part, "l1", method="compact", uncertified_nonuniform=True).value
    mixture = mg.amplitude(mg.calibrate(eps, delta, 1.0, 9, 0.01).sigma, eps, 1.0, 9)
    assert naive > mixture  # the finding that made lower_bound refuse non-uniform partitions
    cover = nu.cover_lower_bound(eps, delta, part, "l1").value
    assert cover <= mixture
    assert cover <= TruncatedLaplace(eps, delta).amplitude()
    assert cover <= grid.analytic_gaussian_sigma(eps, delta) * math.sqrt(2 / math.pi)
    up = b.upper_bound(eps, delta, part, "l1")
    assert cover <= up.value
    # the repo C++'s "lower bound" (noise_amplitude_lower): the infimum cost of the upper bound's own noise
    # on its cells — also above the private mixture on this partition, so not a bound either
    authors = float(b.cell_costs(part.edges, "l1", "inf") @ up.masses)
    assert authors > mixture > cover


def test_cover_bound_time_limit_returns_a_weaker_relaxation_or_raises():
    """A capped solve is a relaxation of C(π, β): its value is below the converged one (still a bound)."""
    from safeguarded.dp_noise import nonuniform as nu

    part = nu.refined_partition(36, 12, coarse=3, core=3)
    full = nu.cover_lower_bound(1.0, 0.1, part)
    capped = nu.cover_lower_bound(1.0, 0.1, part, max_seconds=1e-9, max_blocks=1, on_limit="relaxation")
    assert full.profile["converged"] and not capped.profile["converged"]
    assert capped.value <= full.value + 1e-12 and capped.max_shortfall > 0
    with pytest.raises(b.SolverError, match="time_limit"):
        nu.cover_lower_bound(1.0, 0.1, part, max_seconds=1e-9, max_blocks=1)
    with pytest.raises(ValueError, match="on_limit must be"):
        nu.cover_lower_bound(1.0, 0.1, part, on_limit="ignore")


def test_refined_partition_shape():
    from safeguarded.dp_noise import nonuniform as nu

    part = nu.refined_partition(40, 10, coarse=5, core=2, centres=(0.0, 2.0))
    assert part.lo == -40 and part.hi == 41
    assert set(range(-2, 4)) <= set(part.breaks.tolist())  # single fine cells around 0
    assert set(range(18, 24)) <= set(part.breaks.tolist())  # and around 2Δf
    assert part.widths.max() <= 5
    assert nu.refined_partition(40, 10, coarse=1).n_cells == b.uniform_partition(40, 10).n_cells


def test_cover_bound_bad_input():
    from safeguarded.dp_noise import nonuniform as nu

    part = b.uniform_partition(6, 2)
    with pytest.raises(ValueError, match="epsilon must be in"):
        nu.cover_lower_bound(0.0, 0.1, part)
    with pytest.raises(ValueError, match="delta must be in"):
        nu.cover_lower_bound(1.0, 1.5, part)
    with pytest.raises(ValueError, match="loss must be"):
        nu.cover_lower_bound(1.0, 0.1, part, "l3")
    with pytest.raises(ValueError, match="method must be"):
        nu.cover_lower_bound(1.0, 0.1, part, method="simplex")
    with pytest.raises(ValueError, match="partition must be"):
        nu.cover_lower_bound(1.0, 0.1, "not a partition")
    with pytest.raises(ValueError, match="shifts must be"):
        nu.cover_lower_bound(1.0, 0.1, part, shifts=np.array([5]))
    with pytest.raises(ValueError, match="max_blocks must be"):
        nu.cover_lower_bound(1.0, 0.1, part, max_blocks=0)
    with pytest.raises(ValueError, match="q must have shape"):
        nu.worst_events(part, 1.0, np.ones(3))
    with pytest.raises(ValueError, match="partition must have at most"):
        nu.worst_events_bruteforce(b.uniform_partition(10, 2), 1.0, np.full(25, 0.04))
    with pytest.raises(ValueError, match="coarse must be"):
        nu.refined_partition(10, 2, coarse=0)
    with pytest.raises(ValueError, match="growth must be"):
        nu.refined_partition(10, 2, coarse=2, growth=0.5)

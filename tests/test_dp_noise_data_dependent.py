"""Checks of the data-dependent bounds P′(L, β), D′(L, β) (safeguarded.dp_noise.data_dependent)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise import data_dependent as dd


def _bruteforce_max_shortfall(res: dd.DDResult) -> float:
    """max over every (k, m, s) family of P′ and every union A of fine cells of the event range."""
    cells = res.partition
    n_ev = cells.hi - cells.lo
    d = np.repeat(res.masses / cells.widths, cells.widths, axis=1)
    ee = math.exp(res.epsilon)
    best = -np.inf
    for k, m, s in dd.dd_triples(res.K, cells.k, "upper"):
        src = np.arange(n_ev) - s
        neg = np.where((src >= 0) & (src < n_ev), d[m, np.clip(src, 0, n_ev - 1)], 0.0)
        terms = d[k] - ee * neg
        for bits in itertools.product([0, 1], repeat=n_ev):
            best = max(best, float(np.dot(bits, terms)) - res.delta)
    return best


def test_upper_bound_noise_satisfies_every_constraint_by_brute_force():
    part = bd.uniform_partition(3, 2)  # 7 fine cells: 128 events per (k, m, s)
    res = dd.dd_upper_bound(1.5, 0.3, 3, part)
    assert _bruteforce_max_shortfall(res) <= 1e-8
    np.testing.assert_allclose(res.masses.sum(axis=1), 1.0)


def test_single_interval_equals_data_independent_lp_with_sensitivity_beta():
    """K = 1: the only shifts are ±β, i.e. the DI problem P(L, β) with Δf = β (k = 1)."""
    for eps, delta in [(0.5, 0.1), (2.0, 0.05)]:
        part = bd.uniform_partition(8, 4)
        ddv = dd.dd_upper_bound(eps, delta, 1, part).value
        di = bd.upper_bound(eps, delta, bd.Partition(part.breaks, 1, part.beta)).value
        assert ddv == pytest.approx(di, rel=1e-7)


@pytest.mark.parametrize("eps,delta", [(1.0, 0.2), (0.3, 0.1)])
def test_bounds_are_ordered(eps, delta):
    part = bd.uniform_partition(2 * bd.support_rule(eps, delta), 2)
    for K in (2, 4):
        up, lo = dd.dd_upper_bound(eps, delta, K, part), dd.dd_lower_bound(eps, delta, K, part)
        di = bd.upper_bound(eps, delta, part).value  # DI noise is feasible in P′
        assert lo.value <= up.value + 1e-9
        assert up.value <= di + 1e-9
        assert up.max_shortfall <= 1e-8 and lo.max_shortfall <= 1e-8


def test_bad_input():
    part = bd.uniform_partition(4, 2)
    with pytest.raises(ValueError, match="K must be a positive integer"):
        dd.dd_upper_bound(1.0, 0.1, 0, part)
    with pytest.raises(ValueError, match="epsilon must be in"):
        dd.dd_upper_bound(-1.0, 0.1, 2, part)
    with pytest.raises(ValueError, match="delta must be in"):
        dd.dd_lower_bound(1.0, 2.0, 2, part)
    with pytest.raises(ValueError, match="partition must be a Partition"):
        dd.dd_upper_bound(1.0, 0.1, 2, "grid")
    with pytest.raises(ValueError, match="cannot hold"):
        dd.dd_upper_bound(0.5, 0.0, 2, bd.uniform_partition(2, 2))


def test_grouped_phi_partition():
    """Tying distributions (non-uniform Φ partition) restricts P′; singleton groups change nothing."""
    part = bd.uniform_partition(6, 2)
    free = dd.dd_upper_bound(1.0, 0.2, 4, part).value
    single = dd.dd_upper_bound(1.0, 0.2, 4, part, groups=np.arange(4)).value
    tied = dd.dd_upper_bound(1.0, 0.2, 4, part, groups=np.array([0, 0, 1, 1]))
    one = dd.dd_upper_bound(1.0, 0.2, 4, part, groups=np.zeros(4, dtype=int)).value
    assert single == pytest.approx(free, rel=1e-9)
    assert free - 1e-9 <= tied.value <= one + 1e-9
    assert one <= bd.upper_bound(1.0, 0.2, part).value + 1e-9  # one distribution, fewer shifts than DI
    assert tied.masses.shape[0] == 2 and tied.max_shortfall <= 1e-8
    with pytest.raises(ValueError, match="groups must be"):
        dd.dd_upper_bound(1.0, 0.2, 4, part, groups=np.array([1, 1, 0, 0]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_literal_algorithm3_equals_vectorised_separation(seed):
    """Algorithm 3 (L1873–L1899), run literally on the cells, finds the same maximum shortfall as the
    vectorised fine-grid separation, for random (infeasible) families on a non-uniform partition."""
    part = bd.Partition(np.array([-6, -4, -3, -1, 0, 1, 2, 4, 7]), 3)
    K, eps, delta = 4, 0.8, 0.05
    rng = np.random.default_rng(seed)
    masses = rng.dirichlet(np.ones(part.n_cells), size=K)
    res = dd.DDResult("upper", 0.0, masses, part, eps, delta, K, "none", "", 0.0, 0, 0.0)
    triples = dd.dd_triples(K, part.k, "upper")
    prob = bd._Problem(part, part.lo, part.hi, eps, delta, np.zeros(part.n_cells))
    where, value = bd.separation_algorithm3(prob, masses, triples)
    assert where in triples
    assert value - delta == pytest.approx(dd.dd_max_shortfall(res), abs=1e-12)


def _dd_hockey_stick(noise: dd.DataDependentNoise, eps, phis, shifts, h):
    """max over query outputs φ ∈ phis and neighbours φ + t (t ∈ shifts) of ∫ (f_φ − e^ε f_{φ+t})⁺, where
    f_φ is the density of φ + X_{g(φ)}; midpoint rule on a grid of step h (exact when every breakpoint
    φ + edge is a multiple of h).  Independent of the LP's discretisation of Φ (three shifts per pair)."""
    lo = phis.min() + shifts.min() + noise.edges[0] - 1
    hi = phis.max() + shifts.max() + noise.edges[-1] + 1
    x = np.arange(lo, hi, h) + h / 2
    dens = noise.masses / np.diff(noise.edges)

    def density(phi):
        z = x - phi
        cell = np.clip(np.searchsorted(noise.edges, z, side="right") - 1, 0, dens.shape[1] - 1)
        inside = (z >= noise.edges[0]) & (z < noise.edges[-1])
        return np.where(inside, dens[noise.group_of(phi), cell], 0.0)

    worst = 0.0
    for phi in phis:
        f = density(phi)
        for t in shifts:
            g = density(phi + t)
            worst = max(worst, float(np.maximum(f - math.exp(eps) * g, 0.0).sum() * h))
    return worst


def test_sign_preserving_noise_is_private_for_every_query_output():
    """Table 3's data-dependent noise: the hockey-stick divergence between the outputs of any two query
    values at most Δ apart (including values between the Φ grid points) is ≤ δ."""
    eps, delta, sens = 1.0, 0.1, 2.0
    noise, res = dd.sign_preserving_noise(eps, delta, sens, k=2, phi_cell=2.0, phi_range=10.0, support=6)
    assert res.masses.shape[0] == 12  # 10 inner Φ cells + the two unbounded ones
    h = 0.25
    phis = np.arange(-14.0, 14.0 + h / 2, h)
    shifts = np.arange(-sens, sens + h / 2, h)
    assert _dd_hockey_stick(noise, eps, phis, shifts, h) <= delta + 1e-9
    # the loss does its job: far from 0 the noise rarely flips the sign of the output (a DI noise
    # symmetric about 0 flips it about half the time)
    rng = np.random.default_rng(0)
    for value in (-20.0, 20.0):
        assert (noise.sample(rng, np.full(20_000, value)) * np.sign(value) < 0).mean() < 0.2


def test_data_dependent_sampler_matches_its_masses():
    part = bd.uniform_partition(4, 2)
    masses = np.random.default_rng(3).dirichlet(np.ones(part.n_cells), size=3)
    noise = dd.DataDependentNoise(np.array([-1.0, 1.0]), part.edges, masses)
    rng = np.random.default_rng(4)
    for value, g in ((-3.0, 0), (0.0, 1), (2.0, 2)):
        x = noise.sample(rng, np.full(40_000, value))
        freq = np.histogram(x, bins=part.edges)[0] / x.size
        np.testing.assert_allclose(freq, masses[g], atol=0.01)


def test_per_distribution_losses_and_weights_bad_input():
    part = bd.uniform_partition(4, 2)
    with pytest.raises(ValueError, match="one loss per distribution"):
        dd.dd_upper_bound(1.0, 0.1, 3, part, ["l1", "l1"])
    with pytest.raises(ValueError, match="weights"):
        dd.dd_upper_bound(1.0, 0.1, 3, part, "l1", weights=[0.5, 0.5])
    with pytest.raises(ValueError, match="phi_breaks"):
        dd.sign_preserving_noise(1.0, 0.1, 2.0, k=4, phi_cell=0.25)
    with pytest.raises(ValueError, match="phi_breaks"):
        dd.interval_noise(1.0, 0.1, 1.0, [0.0, 0.0, 1.0])


def test_naive_bayes_interval_noise_is_private_for_every_statistic_value():
    """Table 2's (OPT) noise (7 value intervals, unit sensitivity): hockey-stick ≤ δ for all pairs of
    statistic values at most 1 apart, on and between the interval breakpoints."""
    from safeguarded.dp_noise.learning import dd_noise_nb

    noise = dd_noise_nb(1.0, 0.1, 1.0, k=2)
    assert noise.masses.shape[0] == 7
    h = 0.25
    values, shifts = np.arange(-3.0, 13.0, h), np.arange(-1.0, 1.0 + h / 2, h)
    assert _dd_hockey_stick(noise, 1.0, values, shifts, h) <= 0.1 + 1e-9

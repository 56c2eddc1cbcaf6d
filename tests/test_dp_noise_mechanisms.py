"""Independent checks of the benchmark mechanisms of thesis §1 (safeguarded.dp_noise.mechanisms)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from dp_accounting.gaussian_mechanism import get_sigma_gaussian
from scipy import integrate

from safeguarded.dp_noise import mechanisms as m
from safeguarded.experiments import rng_for

EPS_GRID = [0.005, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0]
DELTA_GRID = [1e-6, 1e-4, 0.005, 0.1, 0.25, 0.75]


@pytest.mark.parametrize("eps", EPS_GRID)
@pytest.mark.parametrize("delta", DELTA_GRID)
def test_analytic_gaussian_matches_dp_accounting(eps, delta):
    """σ_AG equals Google dp-accounting's exact Gaussian calibration to 1e-8 (relative)."""
    for sens in (1.0, 2.5):
        ours = m.analytic_gaussian_sigma(eps, delta, sens)
        ref = sens * get_sigma_gaussian(eps, delta, tol=1e-14)
        assert ours == pytest.approx(ref, rel=1e-8)


def test_analytic_gaussian_is_tight_and_private():
    for eps, delta in [(1.0, 0.1), (0.1, 1e-5), (5.0, 0.3)]:
        sigma = m.analytic_gaussian_sigma(eps, delta)
        assert m.analytic_gaussian_delta(sigma, eps) <= delta
        assert m.analytic_gaussian_delta(sigma * (1 - 1e-6), eps) > delta
        # independent numerical privacy profile of the Gaussian density
        mech = m.AnalyticGaussian(eps, delta)
        num = m.delta_of_density(mech.pdf, eps, lim=12 * sigma + 2, n_grid=400_001, n_shift=11)
        assert num == pytest.approx(delta, abs=2e-5)


def test_reference_values_from_the_thesis_repo():
    # repo constant for (1, 0.1, 1) and Example 1 (Δf = 360 INR) of the thesis (L456–L466)
    assert m.analytic_gaussian_sigma(1, 0.1) == pytest.approx(1.0858777651918035, abs=1e-12)
    assert m.AnalyticGaussian(1, 0.2, 360).std() == pytest.approx(300.96, abs=0.005)
    assert m.ClassicalGaussian(1, 0.2, 360).std() == pytest.approx(689.21, abs=0.005)
    assert m.TruncatedLaplace(1, 0.2, 360).std() == pytest.approx(273.48, abs=0.005)
    assert m.Laplace(1, 0, 70000 / 194).std() == pytest.approx(510.28, abs=0.005)
    t = m.TruncatedLaplace(1, 0.1)
    assert t.support == pytest.approx(2.260868, abs=1e-6)
    assert t.amplitude() == pytest.approx(0.7368455, abs=1e-7)
    assert t.power() == pytest.approx(0.8787335, abs=1e-7)


@pytest.mark.parametrize(
    "mech",
    [
        m.Laplace(0.7, 0.0, 2.0),
        m.ClassicalGaussian(0.5, 0.05, 1.5),
        m.AnalyticGaussian(2.0, 0.01, 1.0),
        m.TruncatedLaplace(1.0, 0.1, 1.0),
        m.TruncatedLaplace(0.05, 0.2, 3.0),
        m.TruncatedLaplace(5.0, 0.25, 2.0),
        m.PiecewiseUniformNoise(np.array([-1.5, -0.5, 0.2, 0.7, 2.0]), np.array([0.1, 0.4, 0.3, 0.2])),
    ],
    ids=lambda x: x.name,
)
def test_costs_closed_form_vs_quadrature_and_monte_carlo(mech):
    # quadrature of the density (independent of the closed forms)
    lim = getattr(mech, "support", None) or 40.0 * mech.std()
    pts = [0.0] if not isinstance(mech, m.PiecewiseUniformNoise) else list(mech.edges)
    mass = integrate.quad(mech.pdf, -lim, lim, points=pts, limit=200)[0]
    l1 = integrate.quad(lambda x: abs(x) * mech.pdf(x), -lim, lim, points=pts, limit=200)[0]
    l2 = integrate.quad(lambda x: x * x * mech.pdf(x), -lim, lim, points=pts, limit=200)[0]
    assert mass == pytest.approx(1.0, abs=1e-7)
    assert mech.amplitude() == pytest.approx(l1, rel=1e-6)
    assert mech.power() == pytest.approx(l2, rel=1e-6)
    # Monte Carlo from the sampler: within 5 standard errors
    x = mech.sample(rng_for(0, 7), size=200_000)
    for values, closed in ((np.abs(x), mech.amplitude()), (x * x, mech.power())):
        se = values.std() / math.sqrt(values.size)
        assert abs(values.mean() - closed) < 5 * se
    if isinstance(mech, m.TruncatedLaplace):
        assert np.all(np.abs(x) <= mech.support)
        assert abs(np.mean(x < 0) - 0.5) < 0.005
    assert np.array_equal(x, mech.sample(rng_for(0, 7), size=x.size))  # same seed, same draws


@pytest.mark.parametrize("eps,delta", [(1.0, 0.1), (0.2, 0.05), (5.0, 0.25), (0.05, 0.5)])
def test_truncated_laplace_privacy_profile(eps, delta):
    """Numerical δ(ε) of the TLap density equals δ (the mechanism is tight), Laplace gives δ = 0."""
    t = m.TruncatedLaplace(eps, delta)
    num = m.delta_of_density(t.pdf, eps, lim=t.support + 2, n_grid=200_001, n_shift=21)
    assert num == pytest.approx(delta, abs=1e-3 * max(delta, 0.01))
    lap = m.Laplace(eps)
    assert m.delta_of_density(lap.pdf, eps, lim=60 / eps, n_grid=200_001, n_shift=5) < 1e-6


def test_classical_gaussian_is_private_for_small_eps():
    for eps, delta in [(0.5, 0.05), (0.9, 1e-3)]:
        g = m.ClassicalGaussian(eps, delta)
        assert m.analytic_gaussian_delta(g.sigma, eps) <= delta
        assert g.sigma >= m.analytic_gaussian_sigma(eps, delta)


def test_geng_lower_bound_constants_and_validity():
    # Figure 3 constants hard-coded in the authors' plotting scripts (Δf = 2); catalog §2.1
    assert m.geng_lower_bound_l1(1, 0.2, 2) == pytest.approx(0.573357, abs=1e-6)
    assert m.geng_lower_bound_l1(0.2, 0.05, 2) == pytest.approx(3.91688, abs=1e-5)
    assert m.TruncatedLaplace(5, 0.25, 2).amplitude() == pytest.approx(0.392281, abs=1e-6)
    assert m.geng_lower_bound_l1(1, 0.1, 1, n_rule="loop") == pytest.approx(0.25961, abs=1e-5)
    assert m.geng_lower_bound_l1(1, 0.1, 1) == pytest.approx(0.45062, abs=1e-5)
    # the residual variant is a genuine bound: never above the truncated Laplace upper bound
    for eps in (0.01, 0.5, 1, 2, 5):
        for delta in (0.005, 0.1, 0.3, 0.75):
            lb = m.geng_lower_bound_l1(eps, delta, n_rule="residual")
            assert 0 <= lb <= m.TruncatedLaplace(eps, delta).amplitude()
            assert lb >= m.geng_lower_bound_l1(eps, delta, n_rule="loop")


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"epsilon": 0, "delta": 0.1}, "epsilon must be in"),
        ({"epsilon": -1, "delta": 0.1}, "epsilon must be in"),
        ({"epsilon": float("nan"), "delta": 0.1}, "epsilon must be finite"),
        ({"epsilon": 1, "delta": 1.0}, "delta must be in"),
        ({"epsilon": 1, "delta": -0.1}, "delta must be in"),
        ({"epsilon": 1, "delta": 0.0}, r"delta must be in \(0, 1\)"),
        ({"epsilon": 1, "delta": 0.1, "sensitivity": 0}, "sensitivity must be in"),
        ({"epsilon": 1, "delta": 0.1, "sensitivity": "a"}, "sensitivity must be a real"),
    ],
)
def test_bad_input(kwargs, match):
    for cls in (m.ClassicalGaussian, m.AnalyticGaussian, m.TruncatedLaplace):
        with pytest.raises(ValueError, match=match):
            cls(**kwargs)
    with pytest.raises(ValueError, match=match):
        m.analytic_gaussian_sigma(*kwargs.values())


def test_bad_input_other():
    with pytest.raises(ValueError, match="delta must be in"):
        m.Laplace(1.0, 1.0)
    with pytest.raises(ValueError, match="rng must be"):
        m.Laplace(1.0).sample(0, size=3)
    with pytest.raises(ValueError, match="size must be"):
        m.Laplace(1.0).sample(np.random.default_rng(0), size=-1)
    with pytest.raises(ValueError, match="n_rule must be"):
        m.geng_lower_bound_l1(1, 0.1, n_rule="bogus")
    with pytest.raises(ValueError, match="loss must be"):
        m.Laplace(1.0).cost("l3")
    with pytest.raises(ValueError, match="masses must"):
        m.PiecewiseUniformNoise(np.array([0.0, 1.0]), np.array([0.5]))
    with pytest.raises(ValueError, match="sigma must be"):
        m.analytic_gaussian_delta(0.0, 1.0)


def test_piecewise_uniform_inverse_cdf_sampler():
    """KS test (100,000 draws, seed fixed, rule p > 0.01) of the inverse-CDF sampler against the CDF
    interpolated linearly through (edge, cumulative mass), with a zero-mass cell that is never drawn."""
    from scipy import stats

    edges = np.array([-2.0, -1.0, -0.25, 0.0, 0.5, 3.0])
    masses = np.array([0.1, 0.3, 0.0, 0.45, 0.15])
    noise = m.PiecewiseUniformNoise(edges, masses)
    x = noise.sample(rng_for(0, 8), size=100_000)
    cum = np.concatenate([[0.0], np.cumsum(masses)])
    assert stats.kstest(x, lambda v: np.interp(v, edges, cum)).pvalue > 0.01
    assert not np.any((x > -0.25) & (x < 0.0)) and x.min() >= -2.0 and x.max() <= 3.0
    np.testing.assert_array_equal(x[:5], noise.sample(rng_for(0, 8), size=5))  # draws concatenate

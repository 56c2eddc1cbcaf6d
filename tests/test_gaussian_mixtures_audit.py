"""Tests of the audit of the thesis' Tables 7 and 8 (implied sigma and its privacy check)."""

import math

import pytest

from safeguarded.gaussian_mixtures import audit, grid
from safeguarded.gaussian_mixtures import multi_gaussian as mg
from safeguarded.gaussian_mixtures import quasi_gaussian as qg


@pytest.mark.parametrize("mechanism,k", [("QG", 1), ("MG", 3)])
def test_implied_sigma_round_trip(mechanism, k):
    eps, delta, sigma = 1.0, 0.05, 0.4
    loss = qg.amplitude(sigma, eps) if mechanism == "QG" else mg.amplitude(sigma, eps, 1.0, k)
    a = grid.analytic_gaussian_sigma(eps, delta) * math.sqrt(2 / math.pi)
    imp = 100 * (a - loss) / a
    assert audit.implied_sigma(mechanism, imp, eps, delta, k) == pytest.approx(sigma, rel=1e-9)


@pytest.mark.parametrize("mechanism,k", [("QG", 1), ("MG", 3)])
def test_implied_sigma_l2_round_trip_and_differs_from_l1(mechanism, k):
    """norm="l2" inverts E X^2 against the analytic Gaussian's sigma^2 (Tables 13/14), not E|X|."""
    eps, delta, sigma = 1.0, 0.05, 0.4
    power = qg.power(sigma, eps) if mechanism == "QG" else mg.power(sigma, eps, 1.0, k)
    a2 = grid.analytic_gaussian_sigma(eps, delta) ** 2
    imp = 100 * (a2 - power) / a2
    assert audit.implied_sigma(mechanism, imp, eps, delta, k, norm="l2") == pytest.approx(sigma, rel=1e-9)
    l1 = audit.implied_sigma(mechanism, imp, eps, delta, k)  # the l1 reading of the number: another sigma
    assert not (l1 == pytest.approx(sigma, rel=1e-3))
    cell = (eps, delta)
    rows = audit.audit_params({cell: f"{imp:.2f}"}, mechanism, [eps], [delta], best_k={cell: k}, norm="l2")
    assert rows.sigma.iloc[0] == pytest.approx(sigma, rel=1e-3)
    with pytest.raises(ValueError, match="norm must be one of"):
        audit.implied_sigma(mechanism, imp, eps, delta, k, norm="L2")


def test_implied_sigma_of_a_calibrated_qg_is_private():
    cal = qg.calibrate(1.0, 0.1)
    a = grid.analytic_gaussian_sigma(1.0, 0.1) * math.sqrt(2 / math.pi)
    imp = 100 * (a - qg.amplitude(cal.sigma, 1.0)) / a
    sigma = audit.implied_sigma("QG", imp, 1.0, 0.1)
    check = grid.privacy_check_cell(1.0, 0.1, "QG", sigma)
    assert sigma == pytest.approx(cal.sigma, rel=1e-9)
    assert check["margin"] >= -1e-7


def test_implied_sigma_too_good_to_be_true_is_nan_and_bad_input():
    assert math.isnan(audit.implied_sigma("MG", 99.99, 0.1, 0.1, 1))
    with pytest.raises(ValueError, match="mechanism must be"):
        audit.implied_sigma("AG", 1.0, 1.0, 0.1)
    with pytest.raises(ValueError, match="improvement_pct"):
        audit.implied_sigma("QG", 100.0, 1.0, 0.1)


def test_audit_params_uses_the_privacy_favourable_end_of_the_rounding():
    rows = audit.audit_params({(1.0, 0.1): "13.13"}, "MG", [1.0], [0.1], best_k={(1.0, 0.1): "2"})
    exact = audit.implied_sigma("MG", 13.13, 1.0, 0.1, 2)
    assert rows.sigma.iloc[0] > exact  # a smaller improvement: a larger, more private sigma
    assert rows.sigma.iloc[0] == pytest.approx(audit.implied_sigma("MG", 13.125, 1.0, 0.1, 2))


def test_audit_cell_coarse_agrees_with_the_fine_check_and_flags_a_failure():
    fine = grid.privacy_check_cell(1.0, 1e-4, "MG", 0.3131, 9)
    coarse = audit.audit_cell(1.0, 1e-4, "MG", 0.3131, 9)
    assert coarse["method"].startswith("coarse")  # far from delta: no refinement needed
    assert coarse["delta_actual"] == pytest.approx(fine["delta_actual"], rel=1e-4)
    assert coarse["margin"] < -100  # the thesis's (1, 1e-4) multi-Gaussian is not (1, 1e-4)-DP
    tight = audit.audit_cell(1.0, 0.1, "QG", qg.calibrate(1.0, 0.1).sigma)
    assert tight["method"].startswith("fine") and tight["margin"] >= -1e-7

"""Inter-ARO* by the level bundle method (``robust_lr_aux.inter_aro_bundle``) against independent methods:
the one conic program over all pairs (``models.build_inter_aro``, Clarabel), the exact objective by its
own HiGHS LP (``models.inter_aro_exact_objective``), finite differences, and ``cv.uci_cell``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux.bundle_cell import uci_bundle_cell
from safeguarded.robust_lr_aux.inter_aro_bundle import (
    InterAroBundle,
    fit_inter_aro_bundle,
    pair_cost_subgradient,
    pair_costs,
)
from safeguarded.robust_lr_aux.models import Fit, build_inter_aro, inter_aro_exact_objective


def _instance(seed=3, N=10, N_hat=14, n=3):
    rng = np.random.default_rng(seed)
    X, X_aux = rng.normal(size=(N, n)), rng.normal(size=(N_hat, n))
    w = rng.normal(size=n)
    y = np.where(X @ w + 0.8 * rng.normal(size=N) >= 0, 1.0, -1.0)
    y_aux = np.where(X_aux @ w + 0.8 * rng.normal(size=N_hat) >= 0, 1.0, -1.0)
    return X, y, X_aux, y_aux


RADII = [(0.05, 0.5), (0.2, 1.0), (0.02, 2.0)]


@pytest.mark.parametrize("alpha", [0.0, 0.1])
def test_bundle_matches_the_one_conic_program_and_certifies_it(alpha):
    X, y, X_aux, y_aux = _instance()
    model = build_inter_aro(X, y, X_aux, y_aux, p=2, beta_bound=100.0)
    bundle = InterAroBundle(X, y, X_aux, y_aux, alpha=alpha, kappa=1.0)
    for eps, eps_hat in RADII:
        conic = model.fit(alpha=alpha, eps=eps, eps_hat=eps_hat, kappa=1.0).objective
        fit = bundle.fit(eps, eps_hat, gap=1e-7)
        lower = fit.extra["lower_bound"]
        assert lower <= conic + 1e-7 <= fit.objective + 2e-7  # the bound brackets Clarabel's optimum
        assert fit.objective - lower <= 1e-7 * (1 + fit.objective)


def test_bundle_objective_is_the_exactly_evaluated_objective_at_its_point():
    X, y, X_aux, y_aux = _instance(seed=5)
    fit = fit_inter_aro_bundle(X, y, X_aux, y_aux, alpha=0.05, eps=0.1, eps_hat=1.0, kappa=1.0)
    exact, s, s_hat = inter_aro_exact_objective(fit, X, y, X_aux, y_aux, alpha=0.05, eps=0.1, eps_hat=1.0,
                                                kappa=1.0)
    assert fit.objective == pytest.approx(exact, abs=1e-8)
    # the returned (s, s_hat) meet every pair constraint (Theorem 11), to the LP's tolerance
    lam, lam_hat = fit.extra["lam"], fit.extra["lam_hat"]
    C = pair_costs(fit.beta, lam, lam_hat, X, y, X_aux, y_aux, alpha=0.05, kappa=1.0)
    assert np.all(fit.extra["s"][:, None] + fit.extra["s_hat"][None, :] >= C - 1e-7)
    assert np.abs(fit.beta).max() <= fit.extra["lam"] + fit.extra["lam_hat"] + 1e-12


def test_pair_cost_subgradient_matches_finite_differences():
    X, y, X_aux, y_aux = _instance(seed=7)
    rng = np.random.default_rng(0)
    beta, lam, lam_hat = np.array([0.4, -0.7, 0.25]), 0.3, 0.45  # a generic point: every branch strict
    I, J = rng.integers(0, len(y), 12), rng.integers(0, len(y_aux), 12)
    w = rng.uniform(0.1, 1.0, 12)

    def value(theta):
        C = pair_costs(theta[:3], theta[3], theta[4], X, y, X_aux, y_aux, alpha=0.1, kappa=1.5)
        return float(w @ C[I, J])

    theta = np.concatenate([beta, [lam, lam_hat]])
    numeric = np.array([(value(theta + h) - value(theta - h)) / 2e-6 for h in 1e-6 * np.eye(5)])
    analytic = pair_cost_subgradient(beta, lam, lam_hat, I, J, w, X, y, X_aux, y_aux, alpha=0.1, kappa=1.5)
    np.testing.assert_allclose(analytic, numeric, atol=1e-6)


def test_cuts_kept_across_radii_give_the_fresh_fits_optimum():
    X, y, X_aux, y_aux = _instance(seed=11)
    shared = InterAroBundle(X, y, X_aux, y_aux, alpha=0.05, kappa=1.0)
    for eps, eps_hat in RADII:
        warm = shared.fit(eps, eps_hat)
        fresh = fit_inter_aro_bundle(X, y, X_aux, y_aux, alpha=0.05, eps=eps, eps_hat=eps_hat, kappa=1.0)
        assert warm.objective == pytest.approx(fresh.objective, abs=2e-6 * (1 + fresh.objective))


def test_an_unclosed_gap_is_an_error_not_a_result():
    X, y, X_aux, y_aux = _instance()
    with pytest.raises(RuntimeError, match="max_iter=1 "):
        InterAroBundle(X, y, X_aux, y_aux, alpha=0.05, kappa=1.0).fit(0.1, 1.0, max_iter=1)


def test_pair_costs_are_the_violations_at_zero_slacks():
    X, y, X_aux, y_aux = _instance()
    fit = Fit(np.array([0.3, -0.2, 0.1]), 0.0, [], {"lam": 0.2, "lam_hat": 0.4, "s": np.zeros(10),
                                                     "s_hat": np.zeros(14)})
    C = pair_costs(fit.beta, 0.2, 0.4, X, y, X_aux, y_aux, alpha=0.05, kappa=1.0)
    # by hand for one pair: max over the label l of L^alpha(arg) minus the kappa terms
    i, j = 2, 5
    vals = []
    for l in (1, -1):
        upper = np.minimum(l * fit.beta + 0.2, 0.4)
        lower = np.maximum(l * fit.beta - 0.2, -0.4)
        d = X_aux[j] - X[i]
        arg = l * X[i] @ fit.beta + np.maximum(d, 0) @ upper - np.maximum(-d, 0) @ lower
        loss = np.log1p(np.exp(-arg + 0.05 * np.linalg.norm(fit.beta)))
        vals.append(loss - 0.2 * (l != y[i]) - 0.4 * (l != y_aux[j]))
    assert C[i, j] == pytest.approx(max(vals), abs=1e-12)


def test_bundle_cell_reproduces_uci_cell_on_a_small_spect_run(data_mirror):
    """Same data, folds and random streams: the four other methods' rows are identical and DRO+ARO+Aux
    chooses the same radii and errs the same as with the one conic program over all pairs."""
    kw = dict(eps=(0.1,), eps_inter=(0.01, 0.1), eps_hat=(1.0, 10.0), weights=(0.0, 1.0), kappas=("1",),
              folds=2, max_aux=15, seed=0)
    bundle = pd.DataFrame(uci_bundle_cell("spect", 0.05, **kw)).set_index("method")
    conic = pd.DataFrame(cv.uci_cell("spect", 0.05, cg_threshold=10**6, **kw)).set_index("method")
    assert list(bundle.index) == list(conic.index) == list(cv.METHODS[:5])
    np.testing.assert_array_equal(bundle["error"].to_numpy(), conic["error"].to_numpy())
    for col in ("eps", "eps_hat", "kappa", "W"):
        assert bundle.loc["DRO+ARO+Aux", col] == pytest.approx(conic.loc["DRO+ARO+Aux", col])
    assert bundle.loc["DRO+ARO+Aux", "solver"] == "HIGHS+CLARABEL"
    assert "certified lower bound" in bundle.loc["DRO+ARO+Aux", "note"]

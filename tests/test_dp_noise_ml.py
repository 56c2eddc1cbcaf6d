"""Checks of the DP proximal coordinate descent (safeguarded.dp_noise.ml)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import expit

from safeguarded.dp_noise import ml
from safeguarded.dp_noise.mechanisms import TruncatedLaplace
from safeguarded.experiments import rng_for


def _toy(n=300, d=6, seed=0):
    rng = rng_for(seed)
    X = np.hstack([np.ones((n, 1)), rng.uniform(-1, 1, size=(n, d - 1))])
    w = rng.normal(size=d)
    y = np.where(rng.random(n) < expit(3 * X @ w), 1.0, -1.0)
    return X, y


def _objective(h, X, y, lam):
    return np.mean(np.logaddexp(0, -y * (X @ h))) + lam * np.abs(h).sum()


def test_nonprivate_pcd_reaches_the_logistic_optimum():
    """Non-private PCD with all coordinates converges to the optimum found by L-BFGS (independent solver)."""
    X, y = _toy()
    res = ml.dp_pcd(X, y, rng_for(1), noise=None, iterations=400, coords_per_iter=X.shape[1], lam=0.0)
    ref = minimize(_objective, np.zeros(X.shape[1]), args=(X, y, 0.0), method="L-BFGS-B", tol=1e-12)
    assert _objective(res.H[0], X, y, 0.0) == pytest.approx(ref.fun, rel=1e-4)
    assert res.train_error[0] == pytest.approx(ml.misclassification(X, y, ref.x)[0], abs=0.01)


def test_gradient_sum_sensitivity_is_two():
    """Replacing one record changes every coordinate-gradient sum by at most 2 when max|x_ij| <= 1."""
    X, y = _toy(n=50)
    rng = rng_for(2)
    for _ in range(200):
        h = rng.normal(scale=3, size=X.shape[1])
        i = rng.integers(len(y))
        X2, y2 = X.copy(), y.copy()
        X2[i] = np.r_[1.0, rng.uniform(-1, 1, X.shape[1] - 1)]
        y2[i] = -y2[i]
        g1 = -(y * expit(-y * (X @ h))) @ X
        g2 = -(y2 * expit(-y2 * (X2 @ h))) @ X2
        assert np.max(np.abs(g1 - g2)) <= 2 + 1e-12


def test_noise_reproducible_and_zero_noise_equals_nonprivate():
    X, y = _toy(n=120)
    tl = TruncatedLaplace(1.0, 0.1, 2.0)
    a = ml.dp_pcd(X, y, rng_for(3), noise=tl.sample, n_sims=7, iterations=10)
    b = ml.dp_pcd(X, y, rng_for(3), noise=tl.sample, n_sims=7, iterations=10)
    np.testing.assert_array_equal(a.H, b.H)
    zero = ml.dp_pcd(X, y, rng_for(4), noise=lambda rng, size: np.zeros(size), n_sims=3, iterations=10)
    none = ml.dp_pcd(X, y, rng_for(4), noise=None, n_sims=3, iterations=10)
    np.testing.assert_allclose(zero.H, none.H)
    # independent noise streams give different simulations
    assert np.unique(a.H.round(12), axis=0).shape[0] == 7


def test_prepare_pcd_data():
    frame = pd.DataFrame(
        {
            "a": [1.0, 2.0, 3.0, 4.0, np.nan] * 4,
            "b": pd.Categorical(list("xyzxy") * 4),
            "c": [5.0] * 20,
            "label": pd.Categorical(list("ppqpq") * 4),
        }
    )
    X, y, names = ml.prepare_pcd_data(frame, "label")
    assert names[0] == "intercept" and "c" not in names  # constant column dropped
    assert X.shape == (20, 1 + 1 + 2)  # mean-imputed 'a' (20 % missing), 'b' one-hot minus first level
    assert np.all(np.abs(X) <= 1 + 1e-12)
    np.testing.assert_allclose(X[:, 1:].mean(axis=0), 0, atol=1e-12)
    assert set(y) == {-1.0, 1.0} and (y == 1).sum() == 12  # 'p' is the majority


def test_bad_input():
    X, y = _toy(n=20)
    rng = rng_for(0)
    with pytest.raises(ValueError, match="max\\|x_ij\\| <= 1"):
        ml.dp_pcd(2 * X, y, rng)
    with pytest.raises(ValueError, match="y must be"):
        ml.dp_pcd(X, np.zeros(20), rng)
    with pytest.raises(ValueError, match="n_sims must be"):
        ml.dp_pcd(X, y, rng, n_sims=0)
    with pytest.raises(ValueError, match="coords_per_iter must be"):
        ml.dp_pcd(X, y, rng, coords_per_iter=99)
    with pytest.raises(ValueError, match="lam must be"):
        ml.dp_pcd(X, y, rng, lam=-1.0)
    with pytest.raises(ValueError, match="rng must be"):
        ml.dp_pcd(X, y, 0)
    with pytest.raises(ValueError, match="test_share must be"):
        ml.train_test_split_indices(10, rng, test_share=1.0)
    with pytest.raises(ValueError, match="name must be one of"):
        ml.load_table3("iris")

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


def _nb_toy(seed=0, n=400):
    rng = rng_for(seed)
    y = rng.integers(0, 3, size=n)
    cat = np.column_stack([(y + rng.integers(0, 2, size=n)) % 4, rng.integers(0, 3, size=n)])
    num = 10 * rng.normal(size=(n, 2)) + 8 * y[:, None]  # class sds ≈ 10 > 1: the sd floor is inactive
    return ml.NBData(cat, [4, 3], num, y, 3)


def test_naive_bayes_matches_sklearn():
    """Non-private NB equals scikit-learn's CategoricalNB (no smoothing) and GaussianNB on each part."""
    from sklearn.naive_bayes import CategoricalNB, GaussianNB

    data = _nb_toy()
    tr, te = ml.train_test_split_indices(len(data.y), rng_for(1))
    cat_only = ml.NBData(data.cat, data.levels, np.zeros((len(data.y), 0)), data.y, 3)
    ours = ml.dp_naive_bayes_errors(cat_only, tr, [te], rng_for(2))[0, 0]
    ref = CategoricalNB(alpha=1e-10, force_alpha=True).fit(data.cat[tr], data.y[tr])
    assert ours == pytest.approx(np.mean(ref.predict(data.cat[te]) != data.y[te]), abs=1e-12)
    num_only = ml.NBData(np.zeros((len(data.y), 0), dtype=int), [], data.num, data.y, 3)
    ours = ml.dp_naive_bayes_errors(num_only, tr, [te], rng_for(2))[0, 0]
    ref = GaussianNB(var_smoothing=0.0).fit(data.num[tr], data.y[tr])
    assert ours == pytest.approx(np.mean(ref.predict(data.num[te]) != data.y[te]), abs=1e-12)


def test_naive_bayes_noise_and_sensitivities():
    data = _nb_toy()
    tr, te = ml.train_test_split_indices(len(data.y), rng_for(1))
    zero = ml.dp_naive_bayes_errors(data, tr, [te], rng_for(3), noise=lambda r, s: np.zeros(s), n_sims=4)
    none = ml.dp_naive_bayes_errors(data, tr, [te], rng_for(3))
    np.testing.assert_allclose(zero, np.repeat(none, 4, axis=1))
    sens = ml.nb_sensitivities(data)
    n_c = np.bincount(data.y)
    width = data.num.max(axis=0) - data.num.min(axis=0)
    np.testing.assert_allclose(sens["mean"], np.ceil(width[None, :] / n_c[:, None]))
    assert np.all(sens["sd"] >= sens["mean"])
    # strong noise degrades the classifier on average
    tl = TruncatedLaplace(0.05, 0.01, 1.0)
    noisy = ml.dp_naive_bayes_errors(data, tr, [te], rng_for(4), noise=tl.sample, n_sims=30)
    assert noisy.mean() > none.mean()

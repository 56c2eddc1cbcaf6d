"""Checks of the DP learning kernels (safeguarded.dp_learning) and the works' noises for them
(safeguarded.dp_noise.learning, safeguarded.gaussian_mixtures.learning)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import expit

from safeguarded.dp_learning import datasets, naive_bayes, pcd
from safeguarded.dp_noise import learning as dpl
from safeguarded.dp_noise.mechanisms import TruncatedLaplace
from safeguarded.experiments import rng_for
from safeguarded.gaussian_mixtures import learning as gml


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
    res = pcd.dp_pcd(X, y, rng_for(1), noise=None, iterations=400, coords_per_iter=X.shape[1], lam=0.0)
    ref = minimize(_objective, np.zeros(X.shape[1]), args=(X, y, 0.0), method="L-BFGS-B", tol=1e-12)
    assert _objective(res.H[0], X, y, 0.0) == pytest.approx(ref.fun, rel=1e-4)
    assert res.train_error[0] == pytest.approx(pcd.misclassification(X, y, ref.x)[0], abs=0.01)


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
    a = pcd.dp_pcd(X, y, rng_for(3), noise=tl, n_sims=7, iterations=10)
    b = pcd.dp_pcd(X, y, rng_for(3), noise=tl, n_sims=7, iterations=10)
    np.testing.assert_array_equal(a.H, b.H)
    zero = pcd.dp_pcd(X, y, rng_for(4), noise=lambda rng, size: np.zeros(size), n_sims=3, iterations=10)
    none = pcd.dp_pcd(X, y, rng_for(4), noise=None, n_sims=3, iterations=10)
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
    X, y, names = datasets.prepare_pcd_data(frame, "label")
    assert names[0] == "intercept" and "c" not in names  # constant column dropped
    assert X.shape == (20, 1 + 1 + 2)  # mean-imputed 'a' (20 % missing), 'b' one-hot minus first level
    assert np.all(np.abs(X) <= 1 + 1e-12)
    np.testing.assert_allclose(X[:, 1:].mean(axis=0), 0, atol=1e-12)
    assert set(y) == {-1.0, 1.0} and (y == 1).sum() == 12  # 'p' is the majority


def test_bad_input():
    X, y = _toy(n=20)
    rng = rng_for(0)
    with pytest.raises(ValueError, match="max\\|x_ij\\| <= 1"):
        pcd.dp_pcd(2 * X, y, rng)
    with pytest.raises(ValueError, match="y must be"):
        pcd.dp_pcd(X, np.zeros(20), rng)
    with pytest.raises(ValueError, match="n_sims must be"):
        pcd.dp_pcd(X, y, rng, n_sims=0)
    with pytest.raises(ValueError, match="coords_per_iter must be"):
        pcd.dp_pcd(X, y, rng, coords_per_iter=99)
    with pytest.raises(ValueError, match="lam must be"):
        pcd.dp_pcd(X, y, rng, lam=-1.0)
    with pytest.raises(ValueError, match="rng must be"):
        pcd.dp_pcd(X, y, 0)
    with pytest.raises(ValueError, match="test_share must be"):
        datasets.train_test_split_indices(10, rng, test_share=1.0)
    with pytest.raises(ValueError, match="name must be one of"):
        datasets.load_pcd_data("iris")


def _nb_toy(seed=0, n=400):
    rng = rng_for(seed)
    y = rng.integers(0, 3, size=n)
    cat = np.column_stack([(y + rng.integers(0, 2, size=n)) % 4, rng.integers(0, 3, size=n)])
    num = 10 * rng.normal(size=(n, 2)) + 8 * y[:, None]  # class sds ≈ 10 > 1: the sd floor is inactive
    return datasets.NBData(cat, [4, 3], num, y, 3)


def test_naive_bayes_matches_sklearn():
    """Non-private NB equals scikit-learn's CategoricalNB (no smoothing) and GaussianNB on each part."""
    from sklearn.naive_bayes import CategoricalNB, GaussianNB

    data = _nb_toy()
    tr, te = datasets.train_test_split_indices(len(data.y), rng_for(1))
    cat_only = datasets.NBData(data.cat, data.levels, np.zeros((len(data.y), 0)), data.y, 3)
    ours = naive_bayes.dp_naive_bayes_errors(cat_only, tr, [te], rng_for(2))[0, 0]
    ref = CategoricalNB(alpha=1e-10, force_alpha=True).fit(data.cat[tr], data.y[tr])
    assert ours == pytest.approx(np.mean(ref.predict(data.cat[te]) != data.y[te]), abs=1e-12)
    num_only = datasets.NBData(np.zeros((len(data.y), 0), dtype=int), [], data.num, data.y, 3)
    ours = naive_bayes.dp_naive_bayes_errors(num_only, tr, [te], rng_for(2))[0, 0]
    ref = GaussianNB(var_smoothing=0.0).fit(data.num[tr], data.y[tr])
    assert ours == pytest.approx(np.mean(ref.predict(data.num[te]) != data.y[te]), abs=1e-12)


def test_naive_bayes_noise_and_sensitivities():
    data = _nb_toy()
    tr, te = datasets.train_test_split_indices(len(data.y), rng_for(1))
    zero = naive_bayes.dp_naive_bayes_errors(data, tr, [te], rng_for(3), noise=lambda r, s: np.zeros(s),
                                             n_sims=4)  # fmt: skip
    none = naive_bayes.dp_naive_bayes_errors(data, tr, [te], rng_for(3))
    np.testing.assert_allclose(zero, np.repeat(none, 4, axis=1))
    sens = naive_bayes.nb_sensitivities(data)
    n_c = np.bincount(data.y)
    width = data.num.max(axis=0) - data.num.min(axis=0)
    np.testing.assert_allclose(sens["mean"], np.ceil(width[None, :] / n_c[:, None]))
    assert np.all(sens["sd"] >= sens["mean"])
    # strong noise degrades the classifier on average
    tl = TruncatedLaplace(0.05, 0.01, 1.0)
    noisy = naive_bayes.dp_naive_bayes_errors(data, tr, [te], rng_for(4), noise=tl, n_sims=30)
    assert noisy.mean() > none.mean()


# ------------------------------------------------------------------------------------------------
# Data sets of Tables 2, 3 and 9 (mirror) and the §2 mixture noises of Tables 9 and 18
# ------------------------------------------------------------------------------------------------
#: (N, d) of our PCD design matrices and (n, #num, #cat, #classes) of our NB data, per data set.
EXPECTED_SHAPES = {
    "post-operative": ((87, 16), (87, 0, 8, 3)),
    "adult": ((45222, 57), (45222, 5, 8, 2)),
    "breast-cancer": ((683, 10), (683, 9, 0, 2)),
    "contraceptive": ((1473, 18), (1473, 2, 7, 3)),
    "dermatology": ((358, 98), (358, 1, 33, 6)),
    "cylinder-bands": ((540, 57), (540, 19, 14, 2)),
    "annealing": ((898, 40), (898, 6, 12, 5)),
    "spect": ((267, 23), (267, 0, 22, 2)),
    "bank": ((45211, 43), (45211, 7, 9, 2)),
    "abalone": ((4177, 10), (4177, 7, 1, 2)),
    "spambase": ((4601, 58), (4601, 57, 0, 2)),
    "ecoli": ((336, 8), (336, 7, 0, 2)),
}


def test_every_dataset_has_expected_shapes():
    assert set(EXPECTED_SHAPES) == set(datasets.DATASETS)
    assert set(datasets.UNAVAILABLE) == {"absent", "colon-cancer"}
    assert set(datasets.THESIS_SIZES) == set(datasets.DATASETS) | set(datasets.UNAVAILABLE)


@pytest.mark.parametrize("name", list(EXPECTED_SHAPES))
def test_dataset_loaders(data_mirror, name):
    """Shapes, ‖x‖∞ ≤ 1 (the sensitivity-2 premise), ±1 labels with both classes, an intercept column."""
    X, y = datasets.load_pcd_data(name)
    (shape, nb) = EXPECTED_SHAPES[name]
    assert X.shape == shape
    assert np.isfinite(X).all() and np.abs(X).max() <= 1 + 1e-12
    np.testing.assert_array_equal(X[:, 0], 1.0)
    np.testing.assert_allclose(X[:, 1:].mean(axis=0), 0.0, atol=1e-9)
    assert set(np.unique(y)) == {-1.0, 1.0}
    data = datasets.load_nb_data(name)
    assert (len(data.y), data.num.shape[1], len(data.levels), data.n_classes) == nb
    assert np.isfinite(data.num).all() and all(L > 1 for L in data.levels)
    assert np.array_equal(np.unique(data.y), np.arange(data.n_classes))


def test_raw_uci_loaders(data_mirror):
    from safeguarded.data.uci_raw import load_adult, load_bank

    adult = load_adult(complete_cases=False)
    assert adult.shape == (48842, 15)  # train 32,561 + test 16,281 (UCI)
    assert set(adult["income"]) == {"<=50K", ">50K"}  # the test file's trailing full stops removed
    assert len(adult.dropna()) == 45222  # the thesis' N
    bank = load_bank()
    assert bank.shape == (45211, 17) and not bank.isna().any().any()
    assert bank["y"].value_counts().to_dict() == {"no": 39922, "yes": 5289}  # UCI bank-full
    with pytest.raises(ValueError, match="complete_cases must be"):
        load_adult(complete_cases="yes")


def test_unavailable_dataset_is_named():
    with pytest.raises(ValueError, match="not in the offline mirror"):
        datasets.load_pcd_data("colon-cancer")
    with pytest.raises(ValueError, match="name must be one of"):
        datasets.load_nb_data("absent")


@pytest.mark.parametrize("kind", ["Q-G", "M-G"])
def test_mixture_noise_power_matches_closed_form(kind):
    """The PCD mixture samplers at Δ = 2, (1, 1e-3) (Table 9): Monte Carlo E X² and E|X| against the
    closed forms, and the scale equivariance σ(Δ = 2) = 2 σ(Δ = 1) of the calibrations."""
    from safeguarded.gaussian_mixtures import multi_gaussian as mg
    from safeguarded.gaussian_mixtures import quasi_gaussian as qg

    noise = gml.mixture_noise(kind, 1.0, 1e-3, 2.0, 9)
    unit = gml.mixture_noise(kind, 1.0, 1e-3, 1.0, 9)
    assert noise.sigma == pytest.approx(2 * unit.sigma, rel=1e-5)
    x = noise.sample(rng_for(11), 400_000)
    se = np.std(x**2) / np.sqrt(len(x))
    assert abs(np.mean(x**2) - noise.power) < 5 * se
    if kind == "Q-G":
        closed = qg.power(noise.sigma, 1.0, 2.0)
        amp = qg.amplitude(noise.sigma, 1.0, 2.0)
    else:
        closed = mg.power(noise.sigma, 1.0, 2.0, 9)
        amp = mg.amplitude(noise.sigma, 1.0, 2.0, 9)
        # independent check of E X² = Σ_k w_k (σ² + k²Δ²) with w_k ∝ e^{−|k|ε}
        ks = np.arange(-9, 10)
        w = np.exp(-np.abs(ks))
        assert closed == pytest.approx(w @ (noise.sigma**2 + (2.0 * ks) ** 2) / w.sum(), rel=1e-12)
    assert noise.power == pytest.approx(closed, rel=1e-12)
    assert abs(np.mean(np.abs(x)) - amp) < 5 * np.std(np.abs(x)) / np.sqrt(len(x))
    assert np.mean(x) == pytest.approx(0.0, abs=5 * np.std(x) / np.sqrt(len(x)))  # symmetric


def test_table9_noises_rank_as_the_thesis_powers():
    """At (1, 1e-3), Δ = 2: M-G (K = 9) has far less power than A-G, and Q-G slightly more (Table 13
    direction at δ = 1e-3); the samplers are the ones pcd_cell uses."""
    samplers = gml.table9_noises(1.0, 1e-3, 2.0)
    assert list(samplers) == ["PCD", "A-G", "Q-G", "M-G"] and samplers["PCD"] is None
    ag = samplers["A-G"].sigma ** 2
    assert samplers["M-G"].power < 0.5 * ag
    assert samplers["Q-G"].power > ag
    draws = {m: f.sample(rng_for(5), 200_000) for m, f in samplers.items() if f is not None}
    assert np.var(draws["M-G"]) < np.var(draws["A-G"]) < np.var(draws["Q-G"]) * 1.02


def test_pcd_cell_table9(data_mirror):
    rows = gml.pcd_cell("post-operative", 0, n_sims=3, iterations=5, delta=1e-3)
    assert [r["method"] for r in rows] == ["PCD", "A-G", "Q-G", "M-G"]
    for r in rows:
        assert 0 <= r["train_error"] <= 1 and r["train_error"] ** 2 <= r["train_error_sq"] + 1e-12
    with pytest.raises(ValueError, match="noises must be one of"):
        dpl.compared_noises("PCD", 1.0, 1e-3, 2.0, noises="table9")
    with pytest.raises(ValueError, match="kind must be"):
        gml.mixture_noise("L-G", 1.0, 1e-3, 2.0)


# ------------------------------------------------------------------------------------------------
# The fast kernels against slow references (plain loops, one simulation at a time, the same draws)
# ------------------------------------------------------------------------------------------------
class _Normal:
    """A data-independent test noise: standard normal draws scaled by 0.7."""

    def sample(self, rng, size):
        return 0.7 * rng.standard_normal(size)


class _ValueDependent:
    """A data-dependent test noise whose scale depends on the sign of the released value."""

    data_dependent = True

    def sample(self, rng, values):
        values = np.asarray(values, dtype=float)
        return rng.standard_normal(values.shape) * np.where(values > 0, 2.0, 0.5)


def _reference_pcd(X, y, rng, noise, S, T, P, lam, noise_rng=None):
    """Eq. (10) by plain loops, one simulation at a time, reading the documented random stream: h⁰ and
    the T permutations from ``rng``, then from ``noise_rng`` (default ``rng``) T·P·S draws iteration- and
    coordinate-major, or, for a data-dependent noise, one draw per simulation (block size 1), iteration
    and coordinate."""
    n, d = X.shape
    noise_rng = rng if noise_rng is None else noise_rng
    dd = getattr(noise, "data_dependent", False)
    h0 = rng.uniform(-1.0, 1.0, size=d)
    perms = [rng.permutation(d)[:P] for _ in range(T)]
    draws = [noise.sample(noise_rng, P * S).reshape(P, S) for _ in range(T)] if noise and not dd else None
    # (the kernel draws all T·P·S at once: the same values for these concatenating samplers)
    H = np.empty((S, d))
    for s in range(S):
        h = h0.copy()
        for t in range(T):
            inner = []
            for k, j in enumerate(perms[t]):
                g = 0.0
                for i in range(n):
                    margin = y[i] * sum(X[i, c] * h[c] for c in range(d))
                    g += expit(-margin) * (-y[i] * X[i, j])
                if noise is not None:
                    g += noise.sample(noise_rng, np.array([g]))[0] if dd else draws[t][k, s]
                z = h[j] - g / n
                h[j] = np.sign(z) * max(abs(z) - lam, 0.0)
                inner.append(h.copy())
            h = np.mean(inner, axis=0)
        H[s] = h
    return H


@pytest.mark.parametrize("noise", [None, _Normal(), _ValueDependent()], ids=["none", "normal", "dd"])
def test_pcd_kernel_equals_plain_loop_reference(noise):
    X, y = _toy(n=40, d=5, seed=3)
    S, T, P, lam = 4, 6, 2, 1e-3
    blocks = (1,) if isinstance(noise, _ValueDependent) else (1, 3, 4)
    ref = _reference_pcd(X, y, rng_for(9), noise, S, T, P, lam)
    for block in blocks:
        fast = pcd.dp_pcd(X, y, rng_for(9), noise=noise, n_sims=S, iterations=T, coords_per_iter=P, lam=lam,
                          block=block)  # fmt: skip
        np.testing.assert_allclose(fast.H, ref, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(fast.train_error, pcd.misclassification(X, y, ref))


def test_pcd_methods_share_the_start_and_orders_and_equal_the_reference():
    """Several noises in one batch (with a data-dependent one run apart) equal the plain-loop reference of
    each method with its own noise generator and the shared h⁰ and coordinate orders."""
    X, y = _toy(n=30, d=6, seed=4)
    T, P, lam = 5, 2, 1e-3
    noises = {"a": _Normal(), "free": None, "dd": _ValueDependent(), "b": TruncatedLaplace(1.0, 0.1, 2.0)}
    sims = {"a": 3, "free": 1, "dd": 2, "b": 2}
    keys = {"a": 1, "free": 2, "dd": 3, "b": 4}
    rngs = {m: rng_for(6, k) for m, k in keys.items()}
    res = pcd.dp_pcd_methods(X, y, rng_for(5), noises, n_sims=sims, noise_rngs=rngs, iterations=T,
                             coords_per_iter=P, lam=lam, block=1)  # fmt: skip
    for m, noise in noises.items():
        ref = _reference_pcd(X, y, rng_for(5), noise, sims[m], T, P, lam, noise_rng=rng_for(6, keys[m]))
        np.testing.assert_allclose(res[m].H, ref, rtol=0, atol=1e-12)


def _reference_nb_errors(data, stats, idx):
    """Naive Bayes predictions by plain loops over simulations, rows, classes and features."""
    counts, cond, means, sds = stats
    S, C = counts.shape
    err = np.zeros(S)
    for s in range(S):
        for i in idx:
            best, pred = -np.inf, -1
            for c in range(C):
                score = np.log(counts[s, c] / counts[s].sum())
                for v, t in enumerate(cond):
                    score += np.log(t[s, c, data.cat[i, v]] / t[s, c].sum())
                for v in range(data.num.shape[1]):
                    z = (data.num[i, v] - means[s, c, v]) / sds[s, c, v]
                    score += -0.5 * z * z - np.log(sds[s, c, v])
                if score > best:
                    best, pred = score, c
            err[s] += pred != data.y[i]
    return err / len(idx)


@pytest.mark.parametrize("n_classes", [3, 2])
def test_naive_bayes_gemm_equals_plain_loop_reference(n_classes):
    data = _nb_toy(n=120)
    if n_classes == 2:  # the two-class path (score difference)
        data = datasets.NBData(data.cat, data.levels, data.num, (data.y > 0).astype(int), 2)
    tr, te = datasets.train_test_split_indices(len(data.y), rng_for(1))
    noise = TruncatedLaplace(1.0, 0.1, 1.0)
    stats = naive_bayes.noisy_statistics(data, tr, rng_for(6), noise=noise, n_sims=5)
    fast = naive_bayes.dp_naive_bayes_errors(data, tr, [tr, te], rng_for(6), noise=noise, n_sims=5)
    for row, idx in zip(fast, (tr, te), strict=True):
        np.testing.assert_array_equal(row, _reference_nb_errors(data, stats, idx))
    # the linear score form equals the direct log-posterior on every row, simulation and class
    Z, W = naive_bayes._features(data, te), naive_bayes.nb_weights(data, stats)
    counts, cond, means, sds = stats
    direct = np.log(counts / counts.sum(axis=1, keepdims=True))[None] + sum(
        np.log(t / t.sum(axis=2, keepdims=True))[:, :, data.cat[te, v]].transpose(2, 0, 1)
        for v, t in enumerate(cond)
    )
    z = (data.num[te][:, None, None, :] - means[None]) / sds[None]
    direct = direct + (-0.5 * z * z - np.log(sds)[None]).sum(axis=3)
    np.testing.assert_allclose(np.einsum("mk,ksc->msc", Z, W), direct, rtol=1e-10, atol=1e-9)


def test_pcd_flop_count():
    f = pcd.flops_per_simulation(100, 8, iterations=10)
    assert f["total"] == 10 * (2 * 100 * 8 + 2 * 4 * 100) + 10 * 2 * 3 * 100


def test_mixture_samplers_follow_their_cdfs():
    """KS test (100,000 draws, seed fixed, rule p > 0.01) of the Table 9 mixture samplers against the
    closed-form CDFs of :mod:`safeguarded.gaussian_mixtures`."""
    from scipy import stats

    from safeguarded.gaussian_mixtures import multi_gaussian as mg
    from safeguarded.gaussian_mixtures import quasi_gaussian as qg

    q = gml.mixture_noise("Q-G", 1.0, 1e-3, 2.0)
    m = gml.mixture_noise("M-G", 1.0, 1e-3, 2.0, 9)
    ks_q = stats.kstest(q.sample(rng_for(21), 100_000), lambda x: qg.cdf(x, q.sigma, 1.0, 2.0))
    ks_m = stats.kstest(m.sample(rng_for(22), 100_000), lambda x: mg.cdf(x, m.sigma, 1.0, 2.0, 9))
    assert ks_q.pvalue > 0.01 and ks_m.pvalue > 0.01

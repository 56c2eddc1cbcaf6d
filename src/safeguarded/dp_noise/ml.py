"""Differentially private proximal coordinate descent (PCD) for ℓ1-regularised logistic regression.

Thesis §1.5.2 (eq. (10), L944–L992) and §2 (L2187–L2193) train

    min_h (1/n) Σ_i log(1 + exp(−y_i hᵀx_i)) + λ‖h‖₁

by proximal coordinate descent.  The DP variant perturbs every coordinate-gradient *sum*
Σ_i σ(−y_i hᵀx_i)(−y_i x_ij) with one draw of additive noise before dividing by n; with ‖x_i‖∞ ≤ 1
the sum has sensitivity Δ = 2 (L988).  Every update uses the same (ε, δ); composition is ignored, as in
the thesis (catalog §5 A9).  Repo details (``PCD_functions.jl``; catalog §3.4): h⁰ ~ U[−1, 1]^d, step 1,
per iteration the first P coordinates of a random permutation, h^t = mean of the P inner iterates,
prediction sign(xᵀh ≥ 0), errors of the last iterate h^T.

Simulations are batched: ``n_sims`` independent noise streams are run as the columns of one matrix, so
Python cost is O(T·P·n·n_sims) vectorised.  The noise is any callable ``noise(rng, size)`` — e.g.
``mechanism.sample`` of :mod:`safeguarded.dp_noise.mechanisms` (or a §2 mixture), or ``None`` for
non-private PCD.

:func:`prepare_pcd_data` implements the preprocessing of catalog §3.4 item 3 for a DataFrame.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit

__all__ = [
    "PCDResult",
    "dp_pcd",
    "prepare_pcd_data",
    "train_test_split_indices",
    "misclassification",
    "TABLE3_DATASETS",
    "load_table3",
    "opt_noise_pcd",
    "pcd_cell",
    "NBData",
    "prepare_nb_data",
    "nb_sensitivities",
    "dp_naive_bayes_errors",
    "TABLE2_DATASETS",
    "load_table2",
    "nb_cell",
]


@dataclass
class PCDResult:
    """Last iterates ``H`` (n_sims × d) and their train/test misclassification rates."""

    H: np.ndarray
    train_error: np.ndarray
    test_error: np.ndarray | None = None


def _check_xy(X, y):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array, got shape {X.shape}")
    if y.shape != (X.shape[0],) or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must be a 1-D array of labels in {-1, +1} with one label per row of X")
    if np.abs(X).max() > 1 + 1e-12:
        raise ValueError(
            "X must satisfy max|x_ij| <= 1 (the sensitivity 2 of the gradient sums relies on it)"
        )
    return X, y


def misclassification(X, y, H) -> np.ndarray:
    """Share of rows with sign(xᵀh ≥ 0) ≠ y, for every row h of ``H``."""
    pred = np.where(np.asarray(X) @ np.atleast_2d(H).T >= 0, 1.0, -1.0)
    return (pred != np.asarray(y)[:, None]).mean(axis=0)


def dp_pcd(
    X,
    y,
    rng: np.random.Generator,
    *,
    noise: Callable | None = None,
    n_sims: int = 1,
    iterations: int = 100,
    coords_per_iter: int | None = None,
    lam: float = 1e-8,
    X_test=None,
    y_test=None,
) -> PCDResult:
    """DP proximal coordinate descent for ℓ1-regularised logistic regression (eq. (10), L954–L955).

    Parameters
    ----------
    X, y
        Training data with max|x_ij| ≤ 1 and labels ±1.
    rng
        Generator for the initial point, the coordinate orders and the noise.
    noise
        ``noise(rng, size) -> ndarray`` drawing the additive noise of the gradient sums (sensitivity 2),
        or ``None`` for the non-private PCD.
    n_sims
        Independent noise simulations, run in parallel as matrix columns (same initial point and
        coordinate order across simulations, independent noise).
    iterations, coords_per_iter, lam
        T (100), P (default ⌈d/4⌉) and λ (1e-8) of the thesis (L988, L2189).
    """
    X, y = _check_xy(X, y)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got rng={rng!r}")
    n, d = X.shape
    for name, val in (("n_sims", n_sims), ("iterations", iterations)):
        if isinstance(val, bool) or int(val) != val or val < 1:
            raise ValueError(f"{name} must be a positive integer, got {name}={val!r}")
    P = math.ceil(d / 4) if coords_per_iter is None else int(coords_per_iter)
    if not 1 <= P <= d:
        raise ValueError(f"coords_per_iter must be in [1, {d}], got coords_per_iter={coords_per_iter!r}")
    if not (lam >= 0 and math.isfinite(lam)):
        raise ValueError(f"lam must be a finite number >= 0, got lam={lam!r}")
    S = int(n_sims)
    h0 = rng.uniform(-1.0, 1.0, size=d)
    H = np.tile(h0, (S, 1))  # S × d
    yX = y[:, None] * X  # rows y_i x_i
    for _ in range(int(iterations)):
        order = rng.permutation(d)[:P]
        M = yX @ H.T  # n × S margins y_i hᵀx_i
        acc = np.zeros_like(H)
        for j in order:
            # Σ_i σ(−y_i hᵀx_i)(−y_i x_ij) for every simulation
            grad_sum = -(yX[:, j] @ expit(-M))
            if noise is not None:
                grad_sum = grad_sum + np.asarray(noise(rng, S), dtype=float)
            z = H[:, j] - grad_sum / n
            new = np.sign(z) * np.maximum(np.abs(z) - lam, 0.0)
            M += np.outer(yX[:, j], new - H[:, j])
            H[:, j] = new
            acc += H
        H = acc / P
    train = misclassification(X, y, H)
    test = None
    if X_test is not None:
        Xt, yt = _check_xy(X_test, y_test)
        test = misclassification(Xt, yt, H)
    return PCDResult(H=H, train_error=train, test_error=test)


def prepare_pcd_data(frame: pd.DataFrame, label: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Design matrix and ±1 labels for PCD (catalog §3.4 item 3; supp. p.9, repo ``Dataset Cook``).

    Columns that are entirely missing are dropped.  Missing values: rows dropped if they are < 5 % of
    the rows, else mean (numeric) / mode (nominal) imputation.  Label: majority class vs the rest
    (+1 = majority; the thesis bins ordinal labels instead).  Nominal features one-hot encoded with the
    first level dropped; constant columns dropped; every column de-meaned and divided by its
    max |x| so that ‖x‖∞ ≤ 1; an intercept column of ones is prepended.
    """
    if label not in frame.columns:
        raise ValueError(f"label must be a column of frame, got label={label!r}")
    df = frame.copy()
    df = df.loc[:, df.notna().any(axis=0) | (df.columns == label)]  # drop columns that are all missing
    missing = df.isna().any(axis=1)
    if missing.mean() < 0.05:
        df = df[~missing]
    else:
        for col in df.columns:
            if df[col].isna().any():
                if pd.api.types.is_numeric_dtype(df[col]):
                    df[col] = df[col].fillna(df[col].mean())
                else:
                    df[col] = df[col].fillna(df[col].mode().iloc[0])
    target = df.pop(label).astype(str)
    majority = target.value_counts().idxmax()
    y = np.where(target == majority, 1.0, -1.0)
    cats = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    feats = pd.get_dummies(df, columns=cats, drop_first=True, dtype=float)
    feats = feats.loc[:, feats.nunique() > 1]
    Z = feats.to_numpy(dtype=float)
    Z = Z - Z.mean(axis=0)
    scale = np.abs(Z).max(axis=0)
    Z = Z / np.where(scale > 0, scale, 1.0)
    X = np.hstack([np.ones((Z.shape[0], 1)), Z])
    return X, y, ["intercept", *feats.columns]


def train_test_split_indices(n: int, rng: np.random.Generator, test_share: float = 0.2):
    """Seeded 80/20 split: test = the first ⌊0.2n⌋ indices of a random permutation (repo)."""
    if not 0 < test_share < 1:
        raise ValueError(f"test_share must be in (0, 1), got test_share={test_share!r}")
    perm = rng.permutation(int(n))
    cut = int(math.floor(test_share * n))
    return perm[cut:], perm[:cut]


# --------------------------------------------------------------------------------------------------
# Table 3: data sets and the sweep cell
# --------------------------------------------------------------------------------------------------
#: Table 3 data sets available from the mirror, as (ARFF names, label column).  ``breast-cancer`` is
#: the Wisconsin data (683 complete rows, as in the thesis), ``spect`` merges the train and test files.
TABLE3_DATASETS = {
    "post-operative": (("postoperative.patient.data",), "decision"),
    "breast-cancer": (("breast.w",), "Class"),
    "contraceptive": (("cmc",), "Contraceptive_method_used"),
    "dermatology": (("dermatology",), "class"),
    "annealing": (("anneal",), "class"),
    "spect": (("spect.train", "spect.test"), "F22"),
    "ecoli": (("ecoli",), "class"),
}


def load_table3(name: str):
    """(X, y) of a Table 3 data set, preprocessed by :func:`prepare_pcd_data`."""
    from safeguarded.data.uci import load_arff

    if name not in TABLE3_DATASETS:
        raise ValueError(f"name must be one of {sorted(TABLE3_DATASETS)}, got name={name!r}")
    files, label = TABLE3_DATASETS[name]
    frame = pd.concat([load_arff(f) for f in files], ignore_index=True)
    if label not in frame.columns:  # label is the last column of the ARFF files
        label = frame.columns[-1]
    X, y, _ = prepare_pcd_data(frame, label)
    return X, y


def opt_noise_pcd(epsilon=1.0, delta=0.1, sensitivity=2.0, k=50):
    """The OPT noise of Table 3: the DI upper-bound LP P(L, β) for ℓ1 (L990), Δ = 1, scaled to Δ = 2.

    Support ±Λ (supp. rule) and β = 1/k at Δ = 1; scale equivariance (catalog §3.2 item 7).
    """
    from safeguarded.dp_noise.mechanisms import PiecewiseUniformNoise

    edges, masses = _opt_noise_unit(float(epsilon), float(delta), int(k))
    return PiecewiseUniformNoise(edges * sensitivity, masses, name="OPT")


@functools.lru_cache(maxsize=16)
def _opt_noise_unit(epsilon: float, delta: float, k: int):
    """Edges and masses of the Δ = 1 OPT noise, cached per process (every sweep cell reuses the LP)."""
    from safeguarded.dp_noise import bounds as bd

    lam = bd.support_rule(epsilon, delta)
    res = bd.upper_bound(epsilon, delta, bd.uniform_partition(lam * k, k), "l1")
    return res.partition.edges, res.masses


def _compared_noises(baseline: str, epsilon, delta, sensitivity, opt_k) -> dict:
    """The samplers Tables 2-3 compare, in table order: the non-private ``baseline`` (None), the
    classical and analytic Gaussian, the truncated Laplace and the LP-optimal noise (OPT)."""
    from safeguarded.dp_noise import mechanisms as mech

    return {
        baseline: None,
        "GN": mech.ClassicalGaussian(epsilon, delta, sensitivity).sample,
        "(GN)": mech.AnalyticGaussian(epsilon, delta, sensitivity).sample,
        "TLN": mech.TruncatedLaplace(epsilon, delta, sensitivity).sample,
        "OPT": opt_noise_pcd(epsilon, delta, sensitivity, opt_k).sample,
    }


def pcd_cell(dataset, split, n_sims=100, iterations=100, epsilon=1.0, delta=0.1, opt_k=50, seed=0):
    """One (data set, split) of Table 3: mean train/test errors of PCD, GN, (GN), TLN and OPT.

    The split is ``rng_for(seed, split)``'s 80/20 permutation; every method uses the same initial
    point and coordinate orders (``rng_for(seed, split, 1)``) and its own noise stream.
    """
    from safeguarded.experiments import rng_for

    X, y = load_table3(dataset)
    tr, te = train_test_split_indices(len(y), rng_for(seed, split))
    noises = _compared_noises("PCD", epsilon, delta, 2.0, opt_k)
    rows = []
    for method, noise in noises.items():
        res = dp_pcd(
            X[tr], y[tr], rng_for(seed, split, 1), noise=noise, n_sims=1 if noise is None else n_sims,
            iterations=iterations, X_test=X[te], y_test=y[te],
        )  # fmt: skip
        rows.append(
            {
                "method": method,
                "n": len(y),
                "d": X.shape[1],
                "train_error": float(res.train_error.mean()),
                "test_error": float(res.test_error.mean()),
                "n_sims_used": res.H.shape[0],
            }
        )
    return rows


# --------------------------------------------------------------------------------------------------
# Table 2: differentially private naive Bayes
# --------------------------------------------------------------------------------------------------
@dataclass
class NBData:
    """A naive Bayes data set: categorical codes, numeric values, class codes."""

    cat: np.ndarray  # n × p_cat integer codes (levels 0..L_v−1)
    levels: list[int]  # L_v per categorical feature
    num: np.ndarray  # n × p_num floats
    y: np.ndarray  # n class codes 0..C−1
    n_classes: int


def prepare_nb_data(frame: pd.DataFrame, label: str) -> NBData:
    """Categorical codes / numeric matrix / class codes for naive Bayes (missing: as in PCD, L918)."""
    if label not in frame.columns:
        raise ValueError(f"label must be a column of frame, got label={label!r}")
    df = frame.loc[:, frame.notna().any(axis=0) | (frame.columns == label)].copy()
    missing = df.isna().any(axis=1)
    if missing.mean() < 0.05:
        df = df[~missing]
    else:
        for col in df.columns:
            if df[col].isna().any():
                fill = df[col].mean() if pd.api.types.is_numeric_dtype(df[col]) else df[col].mode().iloc[0]
                df[col] = df[col].fillna(fill)
    target = df.pop(label).astype(str)
    classes = sorted(target.unique())
    y = target.map({c: i for i, c in enumerate(classes)}).to_numpy()
    cats = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    nums = [c for c in df.columns if c not in cats and df[c].nunique() > 1]
    codes, levels = [], []
    for c in cats:
        cat = pd.Categorical(df[c].astype(str))
        if len(cat.categories) > 1:
            codes.append(cat.codes.astype(int))
            levels.append(len(cat.categories))
    cat_arr = np.column_stack(codes) if codes else np.zeros((len(df), 0), dtype=int)
    return NBData(cat_arr, levels, df[nums].to_numpy(dtype=float), y, len(classes))


def nb_sensitivities(data: NBData) -> dict:
    """Sensitivities of the released statistics (L918, L938; repo ``sensitivities.jl``, rounded up).

    Counts: 1.  Conditional means: ⌈(u_v − l_v)/n_c⌉, sds: ⌈(u_v − l_v)/√n_c⌉, with u, l the column max
    and min and the class counts n_c of the full data set (catalog §5 A10).
    """
    n_c = np.bincount(data.y, minlength=data.n_classes).astype(float)
    width = data.num.max(axis=0) - data.num.min(axis=0) if data.num.size else np.zeros(0)
    return {
        "mean": np.ceil(width[None, :] / n_c[:, None]),
        "sd": np.ceil(width[None, :] / np.sqrt(n_c)[:, None]),
    }


def _nb_statistics(data: NBData, idx):
    C = data.n_classes
    y = data.y[idx]
    class_counts = np.bincount(y, minlength=C).astype(float)
    cond = [
        np.array([np.bincount(data.cat[idx, v][y == c], minlength=L) for c in range(C)], dtype=float)
        for v, L in enumerate(data.levels)
    ]
    num = data.num[idx]
    means = np.array(
        [num[y == c].mean(axis=0) if (y == c).any() else np.zeros(num.shape[1]) for c in range(C)]
    )
    sds = np.array([num[y == c].std(axis=0) if (y == c).any() else np.ones(num.shape[1]) for c in range(C)])
    return class_counts, cond, means, sds


def dp_naive_bayes_errors(data: NBData, train, tests, rng, *, noise=None, n_sims=1, sens=None):
    """Misclassification of (DP) naive Bayes on each index set in ``tests`` (L912–L938; repo ``NB.jl``).

    Every statistic gets one independent draw of ``noise(rng, size)`` (a sampler for sensitivity 1,
    multiplied by the statistic's sensitivity: scale equivariance).  Counts are clipped at 1e-6 and sds
    at 1 (repo), for the non-private classifier too ([DECIDE]: so that an unseen category does not give
    −∞ for every class); numeric likelihoods are Gaussian; no Laplace smoothing.  Returns an array
    (len(tests) × n_sims) of error rates.
    """
    S = int(n_sims) if noise is not None else 1
    sens = nb_sensitivities(data) if sens is None else sens
    counts, cond, means, sds = _nb_statistics(data, train)

    def noisy(x, scale=1.0):
        x = np.broadcast_to(x, (S, *np.shape(x))).copy()
        if noise is not None:
            x = x + np.asarray(noise(rng, x.size), dtype=float).reshape(x.shape) * scale
        return x

    counts_s = np.maximum(noisy(counts), 1e-6)  # S × C
    cond_s = [np.maximum(noisy(t), 1e-6) for t in cond]  # S × C × L
    means_s = noisy(means, sens["mean"])
    sds_s = np.maximum(noisy(sds, sens["sd"]), 1.0)
    log_prior = np.log(counts_s / counts_s.sum(axis=1, keepdims=True))  # S × C
    out = []
    for idx in tests:
        score = np.broadcast_to(log_prior[:, None, :], (S, len(idx), data.n_classes)).copy()
        for v, t in enumerate(cond_s):
            with np.errstate(divide="ignore"):
                logp = np.log(t / t.sum(axis=2, keepdims=True))  # S × C × L
            score += np.transpose(logp[:, :, data.cat[idx, v]], (0, 2, 1))
        if data.num.shape[1]:
            x = data.num[idx]  # m × p
            z = (x[None, :, None, :] - means_s[:, None, :, :]) / sds_s[:, None, :, :]
            score += (-0.5 * z * z - np.log(sds_s[:, None, :, :])).sum(axis=3)
        pred = score.argmax(axis=2)
        out.append((pred != data.y[idx][None, :]).mean(axis=1))
    return np.array(out)


#: Table 2 data sets available from the mirror (ARFF names, label column).
TABLE2_DATASETS = {
    "post-operative": (("postoperative.patient.data",), "decision"),
    "breast-cancer": (("breast.w",), "Class"),
    "contraceptive": (("cmc",), "Contraceptive_method_used"),
    "dermatology": (("dermatology",), "class"),
    "annealing": (("anneal",), "class"),
    "spect": (("spect.train", "spect.test"), "F22"),
    "ecoli": (("ecoli",), "class", "binary"),
}


def load_table2(name: str) -> NBData:
    from safeguarded.data.uci import load_arff

    if name not in TABLE2_DATASETS:
        raise ValueError(f"name must be one of {sorted(TABLE2_DATASETS)}, got name={name!r}")
    files, label, *opts = TABLE2_DATASETS[name]
    frame = pd.concat([load_arff(f) for f in files], ignore_index=True)
    if label not in frame.columns:
        label = frame.columns[-1]
    if "binary" in opts:  # the thesis' 2 classes: majority class vs the rest
        target = frame[label].astype(str)
        frame = frame.assign(**{label: np.where(target == target.value_counts().idxmax(), "major", "rest")})
    return prepare_nb_data(frame, label)


def nb_cell(dataset, split, n_sims=100, epsilon=1.0, delta=0.1, opt_k=50, seed=0):
    """One (data set, split) of Table 2: mean in/out-of-sample errors of NB, GN, (GN), TLN and OPT.

    OPT: the DI upper-bound LP P(L, β) for ℓ1 (the thesis' text, L940; [DECIDE] vs the supplement's ℓ2)
    at Δ = 1, scaled by each statistic's sensitivity.
    """
    from safeguarded.experiments import rng_for

    data = load_table2(dataset)
    tr, te = train_test_split_indices(len(data.y), rng_for(seed, split))
    noises = _compared_noises("NB", epsilon, delta, 1.0, opt_k)
    rows = []
    for i, (method, noise) in enumerate(noises.items()):
        err = dp_naive_bayes_errors(
            data, tr, [tr, te], rng_for(seed, split, 2 + i), noise=noise, n_sims=n_sims
        )
        rows.append(
            {
                "method": method,
                "n": len(data.y),
                "n_num": data.num.shape[1],
                "n_cat": len(data.levels),
                "n_classes": data.n_classes,
                "train_error": float(err[0].mean()),
                "test_error": float(err[1].mean()),
            }
        )
    return rows

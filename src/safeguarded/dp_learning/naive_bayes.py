"""Differentially private naive Bayes (thesis §1.5.1, L912–L942; repo ``NB.jl``).

A naive Bayes classifier releases class counts and per-class category counts (sensitivity 1), and
per-class means and standard deviations of the numeric features (sensitivities of
:func:`nb_sensitivities`); every statistic gets one independent noise draw.  The noise is any object
with ``sample(rng, size)`` (or a callable ``noise(rng, size)``) for sensitivity 1, scaled by each
statistic's sensitivity (scale equivariance), or a data-dependent noise (``data_dependent = True``,
``sample(rng, values)``) given each statistic in units of its sensitivity.

The kernel
----------
The log-posterior of class c for a row is linear in the row's features z = [one-hot categories, x − c₀,
(x − c₀)², 1] (c₀ the column midpoints of the data, for conditioning):

    log p_c + Σ_v log(t_cv,l / Σ_l' t_cv,l') + Σ_v [−(x_v − μ_cv)²/(2σ_cv²) − log σ_cv],

so the scores of all simulations and classes are one GEMM Z·W per block of rows (Z: rows × features,
W: features × simulations·classes), followed by an argmax over the classes (with two classes, one GEMM
with the weight difference and a sign).
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from safeguarded.dp_learning.datasets import NBData
from safeguarded.dp_learning.pcd import _sampler
from safeguarded.validation import check_choice, check_integer, check_rng, check_type

__all__ = ["NBData", "nb_sensitivities", "noisy_statistics", "dp_naive_bayes_errors", "nb_weights",
           "UNSEEN_RULES", "unseen_exclusions"]

def _check_data(data) -> NBData:
    return check_type("data", data, NBData, "an NBData (see prepare_nb_data)")


def _check_index(name: str, idx, n: int) -> np.ndarray:
    """``idx`` as a 1-D integer index array within the ``n`` records."""
    arr = np.asarray(idx)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"{name} must be a 1-D array of integer record indices, got {name}={idx!r}")
    if arr.size and (arr.min() < -n or arr.max() >= n):
        raise ValueError(f"{name} must hold record indices in [0, {n}), got {name}={idx!r}")
    return arr


def _check_sens(sens, data: NBData):
    if sens is None:
        return
    check_type("sens", sens, dict, "None or the dict of nb_sensitivities")
    missing = [k for k in ("mean", "sd") if k not in sens]
    if missing:
        raise ValueError(f"sens must have the keys ['mean', 'sd'] of nb_sensitivities, missing {missing}")


#: Rows per GEMM block of the scores (rows × simulations × classes doubles stay within a few MB).
ROW_BLOCK_ELEMENTS = 1 << 19


def nb_sensitivities(data: NBData) -> dict:
    """Sensitivities of the released statistics (L918, L938; repo ``sensitivities.jl``, rounded up).

    Counts: 1.  Conditional means: ⌈(u_v − l_v)/n_c⌉, sds: ⌈(u_v − l_v)/√n_c⌉, with u, l the column max
    and min and the class counts n_c of the full data set (catalog §5 A10).
    """
    _check_data(data)
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


def noisy_statistics(data: NBData, train, rng, *, noise=None, n_sims=1, sens=None):
    """The released statistics of ``n_sims`` simulations: class counts (S × C), category counts
    (list of S × C × L_v), means and sds (S × C × p).  Draw order: counts, each category table, means,
    sds (one ``sample(rng, size)`` call each).  Counts are clipped at 1e-6 and sds at 1 (repo), for the
    non-private classifier too ([DECIDE]: so that an unseen category does not give −∞ for every class)."""
    _check_data(data)
    train = _check_index("train", train, len(data.y))
    check_rng("rng", rng)
    check_integer("n_sims", n_sims, minimum=1)
    _check_sens(sens, data)
    sample = _sampler(noise)
    S = int(n_sims) if sample is not None else 1
    sens = nb_sensitivities(data) if sens is None else sens
    counts, cond, means, sds = _nb_statistics(data, train)
    dd = sample is not None and getattr(noise, "data_dependent", False)

    def noisy(x, scale=1.0):
        x = np.broadcast_to(x, (S, *np.shape(x))).copy()
        if dd:  # (OPT): given the statistic in units of its sensitivity
            unit = np.broadcast_to(np.asarray(scale, dtype=float), x.shape)
            x = x + sample(rng, np.divide(x, unit, out=np.zeros_like(x), where=unit > 0)) * unit
        elif sample is not None:
            x = x + np.asarray(sample(rng, x.size), dtype=float).reshape(x.shape) * scale
        return x

    counts_s = np.maximum(noisy(counts), 1e-6)
    cond_s = [np.maximum(noisy(t), 1e-6) for t in cond]
    means_s = noisy(means, sens["mean"])
    sds_s = np.maximum(noisy(sds, sens["sd"]), 1.0)
    return counts_s, cond_s, means_s, sds_s


def _centre(data: NBData) -> np.ndarray:
    if not data.num.size:
        return np.zeros(data.num.shape[1])
    return 0.5 * (data.num.max(axis=0) + data.num.min(axis=0))


def nb_weights(data: NBData, stats) -> np.ndarray:
    """W (features × S × C) of the linear score form of the module docstring for released ``stats``."""
    _check_data(data)
    if not isinstance(stats, tuple | list) or len(stats) != 4:
        raise ValueError(f"stats must be the 4-tuple of noisy_statistics, got stats={stats!r}")
    counts_s, cond_s, means_s, sds_s = stats
    S, C = counts_s.shape
    blocks = []
    for t in cond_s:  # S × C × L → L × S × C
        logp = np.log(t / t.sum(axis=2, keepdims=True))
        blocks.append(np.transpose(logp, (2, 0, 1)))
    const = np.log(counts_s / counts_s.sum(axis=1, keepdims=True))  # S × C
    if data.num.shape[1]:
        mu = means_s - _centre(data)  # S × C × p, centred as the features
        prec = 1.0 / (sds_s * sds_s)
        blocks.append(np.transpose(mu * prec, (2, 0, 1)))
        blocks.append(np.transpose(-0.5 * prec, (2, 0, 1)))
        const = const + (-0.5 * mu * mu * prec - np.log(sds_s)).sum(axis=2)
    blocks.append(const[None])
    return np.concatenate(blocks, axis=0)


def _features(data: NBData, idx) -> np.ndarray:
    """Z (rows × features): one-hot categories, centred numeric values, their squares, 1."""
    m = len(idx)
    cols = []
    for v, L in enumerate(data.levels):
        onehot = np.zeros((m, L))
        onehot[np.arange(m), data.cat[idx, v]] = 1.0
        cols.append(onehot)
    if data.num.shape[1]:
        x = data.num[idx] - _centre(data)
        cols += [x, x * x]
    cols.append(np.ones((m, 1)))
    return np.hstack(cols)


def _errors(Z, y, W, excluded=None, fallback: int = 0) -> np.ndarray:
    """Error rate of every simulation: argmax over classes of Z·W (first maximum on ties, as argmax);
    ``excluded`` (rows × classes, bool) scores a class −∞ for a row (all excluded: class ``fallback``)."""
    K, S, C = W.shape
    wrong = np.zeros(S)
    if C == 2:  # one GEMM with the score difference: class 1 iff s_1 − s_0 > 0
        D = np.ascontiguousarray(W[:, :, 1] - W[:, :, 0])
        rows = max(1, ROW_BLOCK_ELEMENTS // S)
        for r0 in range(0, len(y), rows):
            pred = (Z[r0 : r0 + rows] @ D) > 0
            if excluded is not None:
                ex = excluded[r0 : r0 + rows]
                pred = np.where(ex[:, 1:2], False, np.where(ex[:, 0:1], True, pred))
                pred = np.where(ex.all(axis=1)[:, None], fallback == 1, pred)
            wrong += (pred != (y[r0 : r0 + rows, None] == 1)).sum(axis=0)
        return wrong / len(y)
    W2 = W.reshape(K, S * C)
    rows = max(1, ROW_BLOCK_ELEMENTS // (S * C))
    for r0 in range(0, len(y), rows):
        score = (Z[r0 : r0 + rows] @ W2).reshape(-1, S, C)
        if excluded is not None:
            score = np.where(excluded[r0 : r0 + rows, None, :], -np.inf, score)
        best, pred = score[:, :, 0], np.zeros(score.shape[:2], dtype=np.intp)
        for c in range(1, C):
            better = score[:, :, c] > best
            best = np.where(better, score[:, :, c], best)
            pred[better] = c
        if excluded is not None:
            pred[excluded[r0 : r0 + rows].all(axis=1)] = fallback
        wrong += (pred != y[r0 : r0 + rows, None]).sum(axis=0)
    return wrong / len(y)


#: How a category level that no training row of a class has is scored: ``"floor"`` (ours: its count,
#: noised like every count, is clipped at 1e-6) or ``"exclude"`` (the authors' ``NB.jl``: the count is
#: missing from the class's ``countmap``, the lookup throws and the class scores log(0) = −∞; a row whose
#: every class is excluded gets label 1, Julia's ``argmax`` of equal values, which the authors' cooking
#: (``pd.factorize``) gives the class of the file's first row: here the class of the data's first row).
UNSEEN_RULES = ("floor", "exclude")


def unseen_exclusions(data: NBData, train, idx) -> np.ndarray:
    """(rows of ``idx``) × classes: whether the row has a category level that no training row of the
    class has (the ``"exclude"`` rule of :data:`UNSEEN_RULES`)."""
    _check_data(data)
    train = _check_index("train", train, len(data.y))
    idx = _check_index("idx", idx, len(data.y))
    y = data.y[train]
    out = np.zeros((len(idx), data.n_classes), dtype=bool)
    for v, L in enumerate(data.levels):
        seen = np.array([np.bincount(data.cat[train, v][y == c], minlength=L) > 0
                         for c in range(data.n_classes)])  # fmt: skip
        out |= ~seen[:, data.cat[idx, v]].T
    return out


def dp_naive_bayes_errors(data: NBData, train, tests, rng, *, noise=None, n_sims=1, sens=None,
                          unseen: str = "floor"):
    """Misclassification of (DP) naive Bayes on each index set in ``tests`` (L912–L938; repo ``NB.jl``).

    Statistics of :func:`noisy_statistics`; numeric likelihoods are Gaussian; no Laplace smoothing;
    ``unseen`` one of :data:`UNSEEN_RULES`.  Returns an array (len(tests) × n_sims) of error rates.
    """
    check_choice("unseen", unseen, UNSEEN_RULES)
    _check_data(data)
    if isinstance(tests, str):
        raise ValueError(f"tests must be a list of index arrays, got tests={tests!r}")
    tests = [_check_index(f"tests[{i}]", idx, len(data.y)) for i, idx in enumerate(tests)]
    stats = noisy_statistics(data, train, rng, noise=noise, n_sims=n_sims, sens=sens)
    W = nb_weights(data, stats)
    with threadpool_limits(limits=1, user_api="blas"):
        return np.array([
            _errors(_features(data, idx), data.y[idx], W,
                    unseen_exclusions(data, train, idx) if unseen == "exclude" else None, int(data.y[0]))
            for idx in tests
        ])  # fmt: skip

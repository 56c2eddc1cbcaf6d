"""Performance measures under the true distribution, D* (31) and ε* (32), and the 1.5·IQR rule
used for Figs. 2(c)–(d)."""

from __future__ import annotations

import numpy as np

from safeguarded.rldp.problems import squared_distortion
from safeguarded.validation import check_array, check_positive, check_simplex

__all__ = ["distortion_star", "epsilon_star", "output_given_secret", "iqr_keep", "mean_sd_without_outliers"]


def _check_protocol(Q: np.ndarray, p_star: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p_star = check_simplex("p_star", p_star)
    if p_star.ndim != 2:
        raise ValueError(f"p_star must be a distribution of shape (|S|, |U|), got shape {p_star.shape}")
    Q = check_array("Q", Q)
    if Q.ndim != 3 or Q.shape[1:] != p_star.shape:
        raise ValueError(f"Q must have shape (|Y|, {p_star.shape[0]}, {p_star.shape[1]}), got {Q.shape}")
    check_simplex("Q", Q, axis=0, atol=1e-7)
    return np.clip(Q, 0.0, None), p_star


def distortion_star(Q: np.ndarray, p_star: np.ndarray, distortion: np.ndarray | None = None) -> float:
    """D* = E_{P*} d(U, Y) = Σ_{s,u,y} P*_{s,u} Q[y,s,u] d(u,y), eq. (31)."""
    Q, p_star = _check_protocol(Q, p_star)
    d = (
        squared_distortion(p_star.shape[1])
        if distortion is None
        else check_array("distortion", distortion, shape=(Q.shape[0], p_star.shape[1]))
    )
    return float(np.einsum("su,ysu,yu->", p_star, Q, d))


def output_given_secret(Q: np.ndarray, p_star: np.ndarray) -> np.ndarray:
    """P_{y|s} = Σ_u P*_{u|s} Q[y,s,u], shape (|Y|, |S|); columns of secrets with P*_s = 0 are NaN."""
    Q, p_star = _check_protocol(Q, p_star)
    marg = p_star.sum(axis=1)
    cond = np.divide(p_star, marg[:, None], out=np.full_like(p_star, np.nan), where=marg[:, None] > 0)
    return np.einsum("su,ysu->ys", cond, Q)


def epsilon_star(Q: np.ndarray, p_star: np.ndarray, zero_tol: float = 1e-5) -> float:
    """ε* = log max_{y,s1,s2} P_{y|s1} / P_{y|s2}, eq. (32).

    Probabilities ≤ ``zero_tol`` count as zero: 0/0 is read as 1 and x/0 (x > 0) as ∞, as in the
    paper; ``zero_tol = 0`` tests for exact zeros (meaningful for protocols cleaned of solver dust,
    :func:`safeguarded.rldp.problems.snap_protocol`).  A threshold is a documented decision: the
    columns of Q for cells that are unobserved in P̂ are pinned only by a weak tie-break, and with the
    small true mass P* puts on those cells they can create "zero" outputs at the 1e-8–1e-6 level
    whose ratios are arbitrary; the notebook reports ε* at 1e-5 (the default), 1e-7, 1e-9 and 0.
    """
    zero_tol = check_positive("zero_tol", zero_tol, allow_zero=True)
    p_ys = output_given_secret(Q, p_star)
    p_ys = p_ys[:, ~np.isnan(p_ys).any(axis=0)]
    worst = 0.0
    for row in p_ys:
        hi, lo = row.max(), row.min()
        if hi <= zero_tol:
            continue  # 0/0 everywhere in this row
        if lo <= zero_tol:
            return float("inf")
        worst = max(worst, float(np.log(hi / lo)))
    return worst


def iqr_keep(x: np.ndarray, k: float = 1.5) -> np.ndarray:
    """Boolean mask of values inside [Q1 − k·IQR, Q3 + k·IQR] (Tukey's rule; ∞ is always outside)."""
    k = check_positive("k", k, allow_zero=True)
    x = check_array("x", x, ndim=1, finite=False, nonempty=False)
    finite = np.isfinite(x)
    if not finite.any():
        return finite
    q1, q3 = np.percentile(x[finite], [25, 75])
    iqr = q3 - q1
    return finite & (x >= q1 - k * iqr) & (x <= q3 + k * iqr)


def mean_sd_without_outliers(x: np.ndarray, k: float = 1.5) -> tuple[float, float, int]:
    """Mean and standard deviation after the k·IQR rule, and the number of values removed.

    The IQR is computed on the finite values; infinite values are removed as outliers.
    """
    x = check_array("x", x, ndim=1, finite=False, nonempty=False)
    keep = iqr_keep(x, k)
    kept = x[keep]
    if kept.size == 0:
        return float("nan"), float("nan"), int(x.size)
    return float(kept.mean()), float(kept.std(ddof=1)) if kept.size > 1 else 0.0, int(x.size - kept.size)

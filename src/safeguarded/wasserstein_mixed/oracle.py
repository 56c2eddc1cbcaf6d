"""Separation oracle Algorithm 10 (Theorem 8) and its brute-force reference.

A constraint of the unified form (57) for data point n and group i reads

    f(g(z)) - lam * kappa_z * d_z(z, z^n) - c_n <= 0,   g(z) = g(z^n) + sigma_n * beta_z^T (z - z^n),

with ``f`` the (convex, univariate) loss, ``sigma_n = i * y^n`` for classification and ``1`` for
regression, and ``c_n = s_n + lam * kappa_y * 1[i = -1]``.  Algorithm 10: for mu = +-1, pick in every
feature the best level other than the current one for ``mu * g``, sort the K contributions, and evaluate
the K + 1 candidates that change the top delta features, delta = 0..K.  Vectorised over n.
"""

from __future__ import annotations

import itertools

import numpy as np

from safeguarded.validation import check_array, check_positive
from safeguarded.wasserstein_mixed.data import check_metric_params, d_z

__all__ = ["level_table", "separate", "brute_force"]


def _check_levels(levels) -> tuple[int, ...]:
    if not isinstance(levels, tuple | list) or not all(
        isinstance(k, int | np.integer) and not isinstance(k, bool) and k >= 2 for k in levels
    ):
        raise ValueError(f"levels must be a tuple of integers >= 2 (one per feature), got levels={levels!r}")
    return tuple(int(k) for k in levels)


def _check_beta_z(beta_z, levels) -> np.ndarray:
    m_z = sum(k - 1 for k in levels)
    return check_array("beta_z", beta_z, shape=(m_z,), nonempty=False)


def _check_oracle(loss, beta_z, levels, lam, kappa_z, p, n_points: int | None, **vectors):
    """The arguments shared by :func:`separate` and :func:`brute_force` (``vectors``: name -> value,
    each of length ``n_points``, or a scalar when ``n_points`` is None)."""
    if not callable(loss):
        raise ValueError(f"loss must be a callable convex loss, got {type(loss).__name__}")
    levels = _check_levels(levels)
    beta_z = _check_beta_z(beta_z, levels)
    check_positive("lam", lam, allow_zero=True)
    check_metric_params(kappa_z, 1.0, p)
    shape = () if n_points is None else (n_points,)
    for name, value in vectors.items():
        check_array(name, value, shape=shape)
    return levels, beta_z


def _check_codes(name: str, codes, levels, ndim: int) -> np.ndarray:
    arr = check_array(name, codes, nonempty=False)
    if arr.ndim != ndim or arr.shape[-1] != len(levels) or np.any(arr != np.round(arr)):
        raise ValueError(f"{name} must be integer codes, {len(levels)} per point, got shape {arr.shape}")
    if arr.size and (np.any(arr < 0) or np.any(arr >= np.asarray(levels))):
        raise ValueError(f"{name} must lie in [0, k_m - 1] for every feature m (levels {levels})")
    return arr.astype(np.int64)


def level_table(beta_z: np.ndarray, levels) -> np.ndarray:
    """(K, k_max) table of ``beta_z`` per level (0 for the reference level, nan beyond k_m)."""
    levels = _check_levels(levels)
    beta_z = _check_beta_z(beta_z, levels)
    kmax = max(levels) if levels else 1
    T = np.full((len(levels), kmax), np.nan)
    off = 0
    for m, k in enumerate(levels):
        T[m, 0] = 0.0
        T[m, 1:k] = beta_z[off : off + k - 1]
        off += k - 1
    return T


def separate(loss, beta_z, sigma, g0, codes, levels, lam, kappa_z, p, c):
    """Algorithm 10 for all n at once.

    Parameters
    ----------
    loss : callable convex loss ``f``.
    beta_z : (M_z,) discrete coefficients; sigma, g0, c : (N,) arrays as in the module docstring.
    codes : (N, K) current level codes ``z^n``; levels : ``k_m``; lam, kappa_z, p : scalars.

    Returns
    -------
    (best_codes (N, K), violation (N,)) with ``violation = max_z f(g(z)) - lam kappa_z d_z - c``.
    """
    levels = _check_levels(levels)
    codes = _check_codes("codes", codes, levels, 2)
    _check_oracle(loss, beta_z, levels, lam, kappa_z, p, codes.shape[0], sigma=sigma, g0=g0, c=c)
    N, K = codes.shape
    sigma, g0, c = (np.asarray(a, float) for a in (sigma, g0, c))
    if K == 0:
        return codes.copy(), loss(g0) - c
    T = level_table(np.asarray(beta_z, float), levels)
    kmax = T.shape[1]
    cur = np.take_along_axis(np.broadcast_to(T, (N, K, kmax)), codes[:, :, None], axis=2)[:, :, 0]
    D = T[None, :, :] - cur[:, :, None]  # (N, K, kmax): g-change / sigma_n
    invalid = np.isnan(D) | (np.arange(kmax)[None, None, :] == codes[:, :, None])
    d_hi = np.where(invalid, -np.inf, D)
    d_lo = np.where(invalid, np.inf, D)
    arg_hi, arg_lo = d_hi.argmax(axis=2), d_lo.argmin(axis=2)
    max_d = np.take_along_axis(d_hi, arg_hi[:, :, None], 2)[:, :, 0]
    min_d = np.take_along_axis(d_lo, arg_lo[:, :, None], 2)[:, :, 0]
    dist = kappa_z * lam * d_z(np.arange(K + 1), p)  # (K+1,)
    best_val = np.full(N, -np.inf)
    best_codes = codes.copy()
    for mu in (1.0, -1.0):
        rho = (mu * sigma)[:, None]  # maximise rho * D per feature
        up = rho > 0
        contrib = np.where(up, max_d, -min_d)  # >= contribution of any other level
        level = np.where(up, arg_hi, arg_lo)
        order = np.argsort(-contrib, axis=1, kind="stable")
        csum = np.concatenate([np.zeros((N, 1)), np.cumsum(np.take_along_axis(contrib, order, 1), 1)], 1)
        g = g0[:, None] + mu * csum  # (N, K+1)
        val = loss(g) - dist[None, :] - c[:, None]
        delta = val.argmax(axis=1)
        v = val[np.arange(N), delta]
        better = v > best_val
        if np.any(better):
            for n in np.nonzero(better)[0]:
                z = codes[n].copy()
                top = order[n, : delta[n]]
                z[top] = level[n, top]
                best_codes[n] = z
            best_val = np.where(better, v, best_val)
    return best_codes, best_val


def brute_force(loss, beta_z, sigma, g0, codes_n, levels, lam, kappa_z, p, c):
    """Reference for one data point: enumerate all of Z (prod k_m points)."""
    levels = _check_levels(levels)
    _check_codes("codes_n", codes_n, levels, 1)
    _check_oracle(loss, beta_z, levels, lam, kappa_z, p, None, sigma=sigma, g0=g0, c=c)
    T = level_table(np.asarray(beta_z, float), levels)
    codes_n = np.asarray(codes_n, dtype=np.int64)
    base = sum(T[m, codes_n[m]] for m in range(len(levels)))
    best, arg = -np.inf, None
    for z in itertools.product(*[range(k) for k in levels]):
        z = np.array(z, dtype=np.int64)
        g = g0 + sigma * (sum(T[m, z[m]] for m in range(len(levels))) - base)
        v = float(loss(g)) - kappa_z * lam * float(d_z(np.sum(z != codes_n), p)) - c
        if v > best:
            best, arg = v, z
    return arg, best

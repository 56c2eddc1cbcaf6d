"""Differentially private proximal coordinate descent (PCD) for ℓ1-regularised logistic regression.

Thesis §1.5.2 (eq. (10), L944–L992) and §2 (L2187–L2193) train

    min_h (1/n) Σ_i log(1 + exp(−y_i hᵀx_i)) + λ‖h‖₁

by proximal coordinate descent.  The DP variant perturbs every coordinate-gradient *sum*
Σ_i σ(−y_i hᵀx_i)(−y_i x_ij) with one draw of additive noise before dividing by n; with ‖x_i‖∞ ≤ 1
the sum has sensitivity Δ = 2 (L988).  Every update uses the same (ε, δ); composition is ignored, as in
the thesis (catalog §5 A9).  Repo details (``PCD_functions.jl``; catalog §3.4): h⁰ ~ U[−1, 1]^d, step 1,
per iteration the first P coordinates of a random permutation, h^t = mean of the P inner iterates,
prediction sign(xᵀh ≥ 0), errors of the last iterate h^T.

The noise is any object with ``sample(rng, size) -> ndarray`` (a :mod:`safeguarded.dp_noise.mechanisms`
mechanism, a §2 mixture of :mod:`safeguarded.gaussian_mixtures.learning`, ...) or such a callable; a
*data-dependent* noise (``data_dependent = True``) is called as ``sample(rng, sums)`` and draws one noise
per released sum.  ``None`` is the non-private PCD.

The kernel
----------
``n_sims`` simulations share h⁰ and the coordinate orders and differ in their noise.  They run in blocks
of columns sized to stay in the CPU cache: per block and iteration one GEMM gives the margins
M = H_blockᵀ(y ∘ X)ᵀ, then every coordinate step is three in-place passes over M (σ(−M) = 1/(1 + e^M)), one
GEMV (the gradient sums of every simulation), and one in-place rank-1 update (BLAS ``dger``) of M; the
average of the inner iterates is formed in closed form, h̄_j = h_j + (P − k)/P·Δh_j for the k-th updated
coordinate (0-based), instead of summing P copies of H.

Array libraries: :func:`_pcd_block` is written once against the Python array API.  With
``SAFEGUARDED_ARRAY=numpy`` (the default, :mod:`safeguarded.arrays`) its steps are the in-place numpy/BLAS
ones above (the numbers of every CPU run, bit for bit); with ``torch``, ``cupy`` (a GPU) or
``array-api-strict`` the same steps run as array-API expressions on the device (PyTorch: σ(−M) and the
rank-1 update in place), in blocks of
:data:`DEVICE_BLOCK_ELEMENTS`.  All draws stay on the host's numpy Generators and are copied to the device,
so every backend gives the same numbers to rounding (float64; tests/test_array_backends.py: 1e-12).  A
data-dependent noise keeps the numpy blocks on every backend (its draws follow the blocks).

Random stream: ``rng`` draws h⁰ and then the T permutations (shared by all simulations and, in
:func:`dp_pcd_methods`, by all methods); then a data-independent noise draws all T·P·S values in one
``sample(rng, T*P*S)`` call (iteration-, then coordinate-major; for samplers whose draws concatenate, as
the Gaussians, the truncated Laplace and the piecewise-uniform noise, the same values as one call per
coordinate), and a data-dependent noise draws per block, iteration and coordinate.  (Before 2026-11
the permutation of iteration t+1 was drawn after the noise of iteration t, so methods did not share
coordinate orders; same distribution per method, different numbers.)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.linalg import blas
from threadpoolctl import threadpool_limits

from safeguarded.arrays import array_backend
from safeguarded.validation import check_array, check_integer, check_type

__all__ = ["PCDResult", "dp_pcd", "dp_pcd_methods", "misclassification", "flops_per_simulation", "block_size"]

#: Elements of one block × n margin matrix (1 MB of float64): large enough that the per-coordinate Python
#: cost is small against the O(n·block) passes, small enough to keep the working arrays near the cache
#: (benchmarks/bench_dp_learning.py --blocks).
BLOCK_ELEMENTS = 1 << 17
#: The same for the array-API backends (PyTorch, CuPy: a GPU), 32 Mi elements (256 MB of float64 per
#: margin array): a whole split of adult (n = 24,118) in one block, so that each coordinate step is a few
#: large device kernels.
DEVICE_BLOCK_ELEMENTS = 1 << 25


@dataclass
class PCDResult:
    """Last iterates ``H`` (n_sims × d) and their train/test misclassification rates."""

    H: np.ndarray
    train_error: np.ndarray
    test_error: np.ndarray | None = None


def _check_xy(X, y, x_name="X", y_name="y"):
    X = check_array(x_name, X, ndim=2)
    try:
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{y_name} must be a 1-D array of labels in {{-1, +1}}, got {y!r}") from None
    if y.shape != (X.shape[0],) or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(
            f"{y_name} must be a 1-D array of labels in {{-1, +1}} with one label per row of {x_name}"
        )
    if np.abs(X).max() > 1 + 1e-12:
        raise ValueError(
            f"{x_name} must satisfy max|x_ij| <= 1 (the sensitivity 2 of the gradient sums relies on it)"
        )
    return X, y


def _sampler(noise) -> Callable | None:
    """``noise.sample`` for a noise object, the callable itself, or None."""
    if noise is None:
        return None
    if hasattr(noise, "sample"):
        return noise.sample
    if callable(noise):
        return noise
    raise ValueError(
        f"noise must be None, a callable or an object with sample(rng, size), got noise={noise!r}"
    )


def misclassification(X, y, H) -> np.ndarray:
    """Share of rows with sign(xᵀh ≥ 0) ≠ y, for every row h of ``H``."""
    X = check_array("X", X, ndim=2)
    y = check_array("y", y, shape=(X.shape[0],))
    H = check_array("H", np.atleast_2d(H), shape=(None, X.shape[1]))
    pred = np.where(X @ H.T >= 0, 1.0, -1.0)
    return (pred != y[:, None]).mean(axis=0)


def block_size(n: int, n_sims: int) -> int:
    """Simulations per block: ``BLOCK_ELEMENTS // n``, at least 1 and at most ``n_sims``."""
    check_integer("n", n, minimum=1)
    check_integer("n_sims", n_sims, minimum=1)
    return int(max(1, min(n_sims, BLOCK_ELEMENTS // max(n, 1))))


def flops_per_simulation(n: int, d: int, iterations: int = 100, coords_per_iter: int | None = None) -> dict:
    """Floating-point operations of one simulation of eq. (10) as the kernel computes it.

    Per iteration: the margins GEMM (2nd); per coordinate step over the n rows: e^m, +1 and 1/x (3, with
    the exponential counted as one operation), the gradient GEMV (2n) and the rank-1 update (2n).
    Returns ``{"gemm": ..., "elementwise": ..., "total": ...}`` (noise, prox and averaging are O(1) per
    step and left out).
    """
    check_integer("n", n, minimum=1)
    check_integer("d", d, minimum=1)
    check_integer("iterations", iterations, minimum=1)
    if coords_per_iter is not None:
        check_integer("coords_per_iter", coords_per_iter, minimum=1)
    P = math.ceil(d / 4) if coords_per_iter is None else int(coords_per_iter)
    gemm = iterations * (2 * n * d + P * 4 * n)
    elementwise = iterations * P * 3 * n
    return {"gemm": float(gemm), "elementwise": float(elementwise), "total": float(gemm + elementwise)}


def _validate(X, y, rng, n_sims, iterations, coords_per_iter, lam):
    X, y = _check_xy(X, y)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got rng={rng!r}")
    d = X.shape[1]
    for name, val in (("n_sims", n_sims), ("iterations", iterations)):
        if isinstance(val, bool) or int(val) != val or val < 1:
            raise ValueError(f"{name} must be a positive integer, got {name}={val!r}")
    if coords_per_iter is not None:
        check_integer("coords_per_iter", coords_per_iter, minimum=1)
    P = math.ceil(d / 4) if coords_per_iter is None else int(coords_per_iter)
    if not 1 <= P <= d:
        raise ValueError(f"coords_per_iter must be in [1, {d}], got coords_per_iter={coords_per_iter!r}")
    if not (lam >= 0 and math.isfinite(lam)):
        raise ValueError(f"lam must be a finite number >= 0, got lam={lam!r}")
    return X, y, P


def dp_pcd(
    X,
    y,
    rng: np.random.Generator,
    *,
    noise=None,
    n_sims: int = 1,
    iterations: int = 100,
    coords_per_iter: int | None = None,
    lam: float = 1e-8,
    X_test=None,
    y_test=None,
    block: int | None = None,
) -> PCDResult:
    """DP proximal coordinate descent for ℓ1-regularised logistic regression (eq. (10), L954–L955).

    Parameters
    ----------
    X, y
        Training data with max|x_ij| ≤ 1 and labels ±1.
    rng
        Generator for the initial point, the coordinate orders and then the noise.
    noise
        The additive noise of the gradient sums (sensitivity 2): an object with ``sample(rng, size)``
        (or ``sample(rng, sums)`` when ``data_dependent``), a callable ``noise(rng, size)``, or ``None``
        for the non-private PCD.
    n_sims
        Independent noise simulations (same initial point and coordinate orders, independent noise).
    iterations, coords_per_iter, lam
        T (100), P (default ⌈d/4⌉) and λ (1e-8) of the thesis (L988, L2189).
    block
        Simulations per block (default :func:`block_size` with numpy; larger blocks on a device, see
        :mod:`safeguarded.arrays`); the results do not depend on it except through the draw order of a
        data-dependent noise.
    """
    res = dp_pcd_methods(
        X, y, rng, {"": noise}, n_sims={"": n_sims}, iterations=iterations, coords_per_iter=coords_per_iter,
        lam=lam, X_test=X_test, y_test=y_test, block=block,
    )  # fmt: skip
    return res[""]


def dp_pcd_methods(
    X,
    y,
    rng: np.random.Generator,
    noises: dict,
    *,
    n_sims: dict,
    noise_rngs: dict | None = None,
    iterations: int = 100,
    coords_per_iter: int | None = None,
    lam: float = 1e-8,
    X_test=None,
    y_test=None,
    block: int | None = None,
) -> dict:
    """:func:`dp_pcd` for several noises ``{method: noise}`` on the same data, h⁰ and coordinate orders.

    ``rng`` draws h⁰ and the T permutations; method m draws its ``n_sims[m]`` simulations' noise from
    ``noise_rngs[m]`` (default: ``rng`` itself, methods in dict order).  The data-independent methods run
    together as column groups of one batch (one GEMM per iteration and block for all of them); a
    data-dependent noise runs on its own.  Returns ``{method: PCDResult}``.
    """
    if not isinstance(noises, dict) or not noises or set(n_sims) != set(noises):
        raise ValueError("noises must be a non-empty dict and n_sims a dict with the same keys")
    for m in noises:
        X, y, P = _validate(X, y, rng, n_sims[m], iterations, coords_per_iter, lam)
        try:
            _sampler(noises[m])
        except ValueError as err:
            raise ValueError(f"noises[{m!r}]: {err}") from None
    if noise_rngs is not None:
        check_type("noise_rngs", noise_rngs, dict, "None or a dict {method: numpy.random.Generator}")
        for m, g in noise_rngs.items():
            check_type(f"noise_rngs[{m!r}]", g, np.random.Generator, "a numpy.random.Generator")
    if X_test is not None:
        Xt, yt = _check_xy(X_test, y_test, "X_test", "y_test")
    elif y_test is not None:
        raise ValueError(f"y_test must be None when X_test is None, got y_test={y_test!r}")
    n, d = X.shape
    T = int(iterations)
    if block is not None and (isinstance(block, bool) or int(block) != block or block < 1):
        raise ValueError(f"block must be a positive integer, got block={block!r}")
    noise_rngs = noise_rngs or {}
    backend = array_backend()  # $SAFEGUARDED_ARRAY, checked before any draw
    h0 = rng.uniform(-1.0, 1.0, size=d)
    perms = np.stack([rng.permutation(d)[:P] for _ in range(T)])
    fixed, dependent = [], []
    for m, noise in noises.items():
        sample = _sampler(noise)
        (dependent if sample is not None and getattr(noise, "data_dependent", False) else fixed).append(m)
    yX = np.asfortranarray(y[:, None] * X)  # rows y_i x_i; every column contiguous
    out = {}
    with threadpool_limits(limits=1, user_api="blas"), np.errstate(over="ignore"), backend.one_cpu_thread():
        if fixed:
            draws = np.concatenate([_draws(noises[m], noise_rngs.get(m, rng), T, P, int(n_sims[m]))
                                    for m in fixed], axis=2)  # fmt: skip
            H = _pcd_columns(yX, h0, perms, draws, None, None, block, float(lam), backend)
            edges = np.cumsum([0] + [int(n_sims[m]) for m in fixed])
            out.update({m: H[:, a:b] for m, a, b in zip(fixed, edges[:-1], edges[1:], strict=True)})
        for m in dependent:
            S = int(n_sims[m])
            H = _pcd_columns(yX, h0, perms, S, _sampler(noises[m]), noise_rngs.get(m, rng), block, float(lam),
                             backend)  # fmt: skip
            out[m] = H
    results = {}
    for m in noises:
        H = np.ascontiguousarray(out[m].T)
        test = None
        if X_test is not None:
            test = misclassification(Xt, yt, H)
        results[m] = PCDResult(H=H, train_error=misclassification(X, y, H), test_error=test)
    return results


def _draws(noise, rng, T, P, S) -> np.ndarray:
    """T × P × S draws in one ``sample(rng, T*P*S)`` call (iteration-, then coordinate-major); zeros if
    None.  For samplers whose draws concatenate this equals one call per iteration or per coordinate."""
    sample = _sampler(noise)
    if sample is None:
        return np.zeros((T, P, S))
    return np.asarray(sample(rng, T * P * S), dtype=float).reshape(T, P, S)


def _pcd_columns(yX, h0, perms, draws, dd_sample, rng, block, lam, backend=None) -> np.ndarray:
    """Run eq. (10) for every column of ``draws`` (T × P × S) or, with a data-dependent ``dd_sample``,
    for ``draws`` = S simulations; in blocks of columns, on ``backend`` (default numpy).  Returns the last
    iterates (d × S) as a host array."""
    backend = array_backend("numpy") if backend is None else backend
    n, d = yX.shape
    S = draws if dd_sample is not None else draws.shape[2]
    if block is None:
        # a data-dependent noise draws per block: the numpy blocks on every backend, so that its draws
        # (and numbers) are the same; the others take blocks as large as the device allows
        elements = BLOCK_ELEMENTS if backend.is_numpy or dd_sample is not None else DEVICE_BLOCK_ELEMENTS
        block = int(max(1, min(S, elements // max(n, 1))))
    block = int(block)
    if backend.is_numpy:
        ops = _NumpyOps(yX)
    else:
        ops = (_TorchOps if backend.name == "torch" else _ArrayAPIOps)(yX, backend)
    H = np.empty((d, S))
    for b0 in range(0, S, block):
        b1 = min(S, b0 + block)
        bd = None if dd_sample is not None else draws[:, :, b0:b1]
        H[:, b0:b1] = _pcd_block(ops, h0, perms, bd, dd_sample, rng, b1 - b0, lam)
    return H


class _NumpyOps:
    """The numpy steps of :func:`_pcd_block`: in place, one GEMM into a preallocated margin matrix,
    σ(−M) in a second buffer, the rank-1 update by BLAS ``dger`` (the numbers of every CPU run)."""

    xp = np

    def __init__(self, yX):
        self.yXT = yX.T  # d × n, C-contiguous view: row j is column j of yX
        self.n = yX.shape[0]

    def start(self, S, perms):
        self.A = np.empty((S, self.n))  # margins y_i hᵀx_i, one row per simulation
        self.buf = np.empty((S, self.n))
        self.At = self.A.T  # n × S Fortran view for the in-place rank-1 update
        self.perms = perms

    asarray = staticmethod(lambda a: a)
    to_numpy = staticmethod(lambda a: a)

    def margins(self, Hb):
        np.matmul(Hb.T, self.yXT, out=self.A)
        return self.A

    def sigma_neg(self, A):
        buf = self.buf
        np.exp(A, out=buf)
        buf += 1.0
        np.reciprocal(buf, out=buf)
        return buf

    def rank1(self, A, col, delta):
        blas.dger(1.0, col, delta, a=self.At, overwrite_a=1)
        return A

    def rows(self, Hb, t):
        return Hb[self.perms[t]]

    def set_rows(self, Hb, t, values):
        Hb[self.perms[t]] = values


class _ArrayAPIOps:
    """The same steps in the array API standard only (PyTorch, CuPy, ``array_api_strict``): new arrays
    instead of ``out=``, the rank-1 update as a broadcast product, rows gathered by ``take`` and written
    one by one (integer-array assignment is not in the standard)."""

    def __init__(self, yX, backend):
        self.backend = backend
        self.xp = backend.xp
        self.yXT = backend.asarray(yX.T)  # d × n on the device, copied once per call
        self.n = yX.shape[0]

    def start(self, S, perms):
        self.S = S
        self.perms = perms
        self.perms_d = self.backend.asarray(perms.astype(np.int64))

    def asarray(self, a):
        return self.backend.asarray(a)

    def to_numpy(self, a):
        return self.backend.to_numpy(a)

    def margins(self, Hb):
        return self.xp.matmul(Hb.T, self.yXT)

    def sigma_neg(self, A):
        return 1.0 / (1.0 + self.xp.exp(A))

    def rank1(self, A, col, delta):
        A += self.xp.reshape(delta, (self.S, 1)) * self.xp.reshape(col, (1, self.n))
        return A

    def rows(self, Hb, t):
        return self.xp.take(Hb, self.perms_d[t, :], axis=0)

    def set_rows(self, Hb, t, values):
        for k, j in enumerate(self.perms[t].tolist()):
            Hb[j, :] = values[k, :]


class _TorchOps(_ArrayAPIOps):
    """PyTorch: the numpy kernel's in-place forms of the two passes over the S × n margins (σ(−M) into one
    preallocated buffer, the rank-1 update by ``addr_``), which halve the memory traffic of a
    coordinate step on a GPU; every other step is :class:`_ArrayAPIOps`'."""

    def start(self, S, perms):
        super().start(S, perms)
        self.buf = None

    def sigma_neg(self, A):
        import torch

        if self.buf is None or self.buf.shape != A.shape:
            self.buf = torch.empty_like(A)
        torch.exp(A, out=self.buf)
        return self.buf.add_(1.0).reciprocal_()

    def rank1(self, A, col, delta):
        return A.addr_(delta, col)


def _pcd_block(ops, h0, perms, draws, dd_sample, rng, S, lam) -> np.ndarray:
    """The T iterations of eq. (10) for one block of S simulations; returns the last iterates (d × S) on
    the host.  Written once for numpy and the array API: ``ops`` (:class:`_NumpyOps` or
    :class:`_ArrayAPIOps`) holds the data on the device and does the steps whose numpy form is in place."""
    xp = ops.xp
    yXT = ops.yXT
    n = ops.n
    T, P = perms.shape
    ops.start(S, perms)
    Hb = ops.asarray(np.repeat(h0[:, None], S, axis=1))  # d × S: row j = coordinate j of every simulation
    if draws is not None:
        draws = ops.asarray(draws)
    # share of the P inner iterates in which the k-th update is present
    weight = ops.asarray(((P - np.arange(P)) / P)[:, None])
    inv_n = 1.0 / n
    for t in range(T):
        A = ops.margins(Hb)
        start = ops.rows(Hb, t)  # P × S values before this iteration's updates
        for k, j in enumerate(perms[t].tolist()):
            grad = ops.sigma_neg(A) @ yXT[j, :]  # σ(−M) times column j of y ∘ X
            grad = -grad  # Σ_i σ(−y_i hᵀx_i)(−y_i x_ij) for every simulation
            if draws is not None:
                grad += draws[t, k, :]
            elif dd_sample is not None:  # Table 3's (OPT): drawn on the host given the released sums
                grad += ops.asarray(np.asarray(dd_sample(rng, ops.to_numpy(grad)), dtype=float))
            z = Hb[j, :] - grad * inv_n
            new = z - xp.minimum(xp.maximum(z, -lam), lam)  # soft threshold sign(z)·max(|z| − λ, 0)
            A = ops.rank1(A, yXT[j, :], new - Hb[j, :])
            Hb[j, :] = new
        ops.set_rows(Hb, t, start + weight * (ops.rows(Hb, t) - start))  # mean of the P inner iterates
    return ops.to_numpy(Hb)

"""Objective functions of thesis §5.3.2 (Table 34) and the closed-form conjugate argmaxes.

* log-sum-exp (115) ``f(z) = log Σ exp(z_j)``, evaluated stably (``scipy.special.logsumexp``: no
  overflow, unlike the authors' fixed rescaling by M = 500 for Table 37 P9);
* sum of max over K contiguous blocks of size J (122);
* convex quadratic ``x'Qx + l'x`` with ``Q = L'L`` (§5.D.1).

The lower-bound scenario problems (97)–(99) for log-sum-exp are
``argmax_{w in simplex} c'w - kappa Σ w_j log w_j`` (Cor. 14); for ``kappa > 0`` the maximiser is
``softmax(c / kappa)`` in closed form, for ``kappa = 0`` a vertex of the simplex.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp, softmax

from safeguarded.validation import check_array, check_choice, check_in_interval, check_integer, check_positive

__all__ = [
    "lse",
    "lse_grad",
    "sum_of_max",
    "quadratic",
    "entropy_argmax",
    "block_argmax",
]


def lse(z, axis: int | None = None) -> np.ndarray | float:
    """``log Σ_j exp(z_j)`` (115), stable for any finite ``z`` (e.g. entries of size 1e3)."""
    z = check_array("z", z)
    return logsumexp(z, axis=axis)


def lse_grad(z) -> np.ndarray:
    """Gradient of :func:`lse`: ``softmax(z)`` (a point of the simplex, dom f* of (117))."""
    return softmax(check_array("z", z))


def sum_of_max(z, J: int, K: int) -> float:
    """``Σ_{k=1}^K max_{j in I_k} z_j`` (122) with contiguous blocks ``I_k`` of size J."""
    J, K = check_integer("J", J, minimum=1), check_integer("K", K, minimum=1)
    z = check_array("z", z)
    if z.shape[-1] != J * K:
        raise ValueError(f"z must have length J*K={J * K}, got length {z.shape[-1]}")
    return z.reshape(*z.shape[:-1], K, J).max(axis=-1).sum(axis=-1)


def quadratic(x, L: np.ndarray, ell: np.ndarray) -> float:
    """``x'Qx + l'x`` with ``Q = L'L`` (109)."""
    x = check_array("x", x, ndim=1)
    L = check_array("L", L, ndim=2)
    if L.shape[1] != x.size:
        raise ValueError(f"L must have one column per entry of x ({x.size}), got L of shape {L.shape}")
    ell = check_array("ell", ell, shape=(x.size,))
    Lx = L @ x
    return float(Lx @ Lx + ell @ x)


def entropy_argmax(c, kappa: float, tol: float = 1e-12) -> np.ndarray:
    """``argmax_{w in simplex} c'w + kappa·H(w)`` (Cor. 14 / (97)–(99) for log-sum-exp).

    ``kappa > tol``: ``softmax(c / kappa)``; otherwise the vertex at the first maximiser of ``c``.
    """
    c = check_array("c", c, ndim=1)
    kappa = check_in_interval("kappa", kappa, -np.inf, np.inf)
    tol = check_positive("tol", tol, allow_zero=True)
    if kappa > tol:
        return softmax(c / kappa)
    w = np.zeros_like(c)
    w[int(np.argmax(c))] = 1.0
    return w


#: Which maximiser :func:`block_argmax` takes where several tie (to :data:`TIE_TOLERANCE` of the block's max).
TIES = ("first", "last")
TIE_TOLERANCE = 1e-9


def block_argmax(c, J: int, K: int, tie: str = "first") -> np.ndarray:
    """``argmax c'w`` over the product of K block simplices (128)–(129): one-hot per block, at the first
    (``tie="first"``) or the last (``"last"``) of the entries within :data:`TIE_TOLERANCE` of the block's
    maximum.  The thesis does not say which; Table 41's lower bounds depend on it (convex_max causes)."""
    J, K = check_integer("J", J, minimum=1), check_integer("K", K, minimum=1)
    tie = check_choice("tie", tie, TIES)
    c = check_array("c", c, shape=(J * K,)).reshape(K, J)
    w = np.zeros((K, J))
    if tie == "first":
        w[np.arange(K), np.argmax(c, axis=1)] = 1.0
    else:
        tied = c >= c.max(axis=1, keepdims=True) - TIE_TOLERANCE
        w[np.arange(K), J - 1 - np.argmax(tied[:, ::-1], axis=1)] = 1.0
    return w.ravel()

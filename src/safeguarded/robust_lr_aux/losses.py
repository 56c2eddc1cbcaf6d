"""Adversarial logistic loss (thesis §4.4, Observation 7) and attacked errors.

Logistic regression without an intercept, p(y | x) = [1 + exp(−y·βᵀx)]⁻¹ (L4091).  A test-time attack
z with ‖z‖_p ≤ α makes the worst-case loss

    ℓ^α_β(x, y) = log(1 + exp(−y·βᵀx + α‖β‖_{p*})),   1/p + 1/p* = 1          (Observation 7, L4155)

because min_{‖z‖_p ≤ α} y·βᵀz = −α‖β‖_{p*} (Hölder).  The attacked classifier predicts +1 iff
βᵀ(x + z) ≥ 0 (a tie counts as +1: with β = 0 every point is predicted +1, the majority label, which
is what Table 30's contraceptive tie at 42.71 % = the minority share suggests).
"""

from __future__ import annotations

import numpy as np

from safeguarded.validation import check_array, check_positive, check_type

__all__ = [
    "dual_order",
    "check_attack_norm",
    "check_labels",
    "check_data",
    "adversarial_loss",
    "attacked_margins",
    "attacked_error",
]

_ORDERS = (1, 2, np.inf)


def check_attack_norm(p) -> float:
    """``p`` as 1.0, 2.0 or inf; ValueError otherwise."""
    if p in ("inf", "linf"):
        p = np.inf
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise ValueError(f"p must be one of 1, 2, inf, got p={p!r}") from None
    if p not in _ORDERS:
        raise ValueError(f"p must be one of 1, 2, inf, got p={p!r}")
    return p


def dual_order(p) -> float:
    """The dual exponent p* with 1/p + 1/p* = 1 for p ∈ {1, 2, ∞}."""
    p = check_attack_norm(p)
    return {1.0: np.inf, 2.0: 2.0, np.inf: 1.0}[p]


def check_labels(name: str, y) -> np.ndarray:
    """Labels as a float vector with entries in {−1, +1}; ValueError otherwise."""
    check_type("name", name, str, "the parameter name (a string)")
    y = check_array(name, y, finite=False, nonempty=False).ravel()
    if y.size == 0 or not np.all(np.isin(y, (-1.0, 1.0))):
        bad = np.unique(y[~np.isin(y, (-1.0, 1.0))])[:5]
        raise ValueError(f"{name} must have entries in {{-1, +1}}, got values {bad.tolist()}")
    return y


def check_data(X, y, X_aux=None, y_aux=None):
    """(X, y[, X_aux, y_aux]) as float arrays; the auxiliary data must have the same columns."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0 or not np.all(np.isfinite(X)):
        raise ValueError(f"X must be a finite non-empty 2-d array, got shape {X.shape}")
    y = check_labels("y", y)
    if y.size != X.shape[0]:
        raise ValueError(f"y must have one label per row of X ({X.shape[0]}), got {y.size}")
    if X_aux is None:
        return X, y
    X_aux = np.asarray(X_aux, dtype=float)
    if X_aux.ndim != 2 or X_aux.shape[1] != X.shape[1] or X_aux.shape[0] == 0:
        raise ValueError(
            f"X_aux must be a non-empty 2-d array with the {X.shape[1]} columns of X, got shape {X_aux.shape}"
        )
    if not np.all(np.isfinite(X_aux)):
        raise ValueError("X_aux must be finite")
    y_aux = check_labels("y_aux", y_aux)
    if y_aux.size != X_aux.shape[0]:
        raise ValueError(f"y_aux must have one label per row of X_aux ({X_aux.shape[0]}), got {y_aux.size}")
    return X, y, X_aux, y_aux


def _check_beta(beta, X: np.ndarray) -> np.ndarray:
    return check_array("beta", beta, shape=(X.shape[1],))


def adversarial_loss(beta, X, y, alpha: float, p=2) -> np.ndarray:
    """ℓ^α_β(x^i, y^i) for every row (Observation 7), evaluated stably with ``logaddexp``."""
    alpha = check_positive("alpha", alpha, allow_zero=True)
    X, y = check_data(X, y)
    beta = _check_beta(beta, X)
    shift = alpha * np.linalg.norm(beta, dual_order(p))
    return np.logaddexp(0.0, -y * (X @ beta) + shift)


def attacked_margins(beta, X, y, alpha: float, p=2) -> np.ndarray:
    """Worst-case margins y·βᵀx − α‖β‖_{p*} of an instance-wise ℓ_p attack of strength α."""
    alpha = check_positive("alpha", alpha, allow_zero=True)
    X, y = check_data(X, y)
    beta = _check_beta(beta, X)
    return y * (X @ beta) - alpha * np.linalg.norm(beta, dual_order(p))


def attacked_error(beta, X, y, alpha: float, p=2) -> float:
    """Misclassification rate under the worst-case ℓ_p attack of strength α (fraction in [0, 1]).

    The attacked score is βᵀx − α‖β‖* for y = +1 (error if < 0) and βᵀx + α‖β‖* for y = −1
    (error if ≥ 0): ties are predicted +1.
    """
    alpha = check_positive("alpha", alpha, allow_zero=True)
    X, y = check_data(X, y)
    beta = _check_beta(beta, X)
    score = X @ beta
    shift = alpha * np.linalg.norm(beta, dual_order(p))
    wrong = np.where(y > 0, score - shift < 0, score + shift >= 0)
    return float(np.mean(wrong))

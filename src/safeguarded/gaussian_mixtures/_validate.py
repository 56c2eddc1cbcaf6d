"""Parameter checks of the mixture mechanisms, on top of :mod:`safeguarded.validation`
(errors name the parameter and its valid range)."""

from __future__ import annotations

import math
import numbers

import numpy as np

from safeguarded.validation import check_in_interval, check_positive

__all__ = ["check_epsilon", "check_delta", "check_sensitivity", "check_sigma", "check_k", "check_eta"]

#: Largest epsilon accepted: beyond it e^eps overflows double precision in the closed forms.
EPS_MAX = 700.0


def _real(name: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}") from None
    if isinstance(value, bool) or not math.isfinite(v):
        raise ValueError(f"{name} must be a finite real number, got {name}={value!r}")
    return v


def check_epsilon(epsilon) -> float:
    """epsilon in (0, 700]."""
    return check_in_interval("epsilon", _real("epsilon", epsilon), 0.0, EPS_MAX, closed="right")


def check_delta(delta) -> float:
    """delta in (0, 1)."""
    return check_in_interval("delta", _real("delta", delta), 0.0, 1.0)


def check_sensitivity(sensitivity) -> float:
    """sensitivity (Delta) > 0."""
    return check_positive("sensitivity", _real("sensitivity", sensitivity))


def check_sigma(sigma) -> float:
    """scale sigma > 0."""
    return check_positive("sigma", _real("sigma", sigma))


def check_k(k, name: str = "k") -> int:
    """modality K: an integer >= 1 (``name``: the caller's parameter holding it)."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"K must be an integer >= 1 (the number of components), got {name}={k!r}")
    return int(k)


def check_eta(eta) -> float:
    """discretisation eta in (0, 1)."""
    return check_in_interval("eta", _real("eta", eta), 0.0, 1.0)


def check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got rng={rng!r}")
    return rng


def check_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or int(size) < 0:
        raise ValueError(f"size must be a non-negative integer, got size={size!r}")
    return int(size)

"""Parameter checks shared by the mixture mechanisms (errors name the parameter and its valid range)."""

from __future__ import annotations

import math

import numpy as np

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
    v = _real("epsilon", epsilon)
    if not 0.0 < v <= EPS_MAX:
        raise ValueError(f"epsilon must be in (0, {EPS_MAX:g}], got epsilon={epsilon!r}")
    return v


def check_delta(delta) -> float:
    """delta in (0, 1)."""
    v = _real("delta", delta)
    if not 0.0 < v < 1.0:
        raise ValueError(f"delta must be in (0, 1), got delta={delta!r}")
    return v


def check_sensitivity(sensitivity) -> float:
    """sensitivity (Delta) > 0."""
    v = _real("sensitivity", sensitivity)
    if not v > 0.0:
        raise ValueError(f"sensitivity must be > 0, got sensitivity={sensitivity!r}")
    return v


def check_sigma(sigma) -> float:
    """scale sigma > 0."""
    v = _real("sigma", sigma)
    if not v > 0.0:
        raise ValueError(f"sigma must be > 0, got sigma={sigma!r}")
    return v


def check_k(k) -> int:
    """modality K: an integer >= 1."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or int(k) < 1:
        raise ValueError(f"K must be an integer >= 1, got K={k!r}")
    return int(k)


def check_eta(eta) -> float:
    """discretisation eta in (0, 1)."""
    v = _real("eta", eta)
    if not 0.0 < v < 1.0:
        raise ValueError(f"eta must be in (0, 1), got eta={eta!r}")
    return v


def check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got rng={rng!r}")
    return rng


def check_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or int(size) < 0:
        raise ValueError(f"size must be a non-negative integer, got size={size!r}")
    return int(size)

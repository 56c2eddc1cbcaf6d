"""Parameter checks of the atr package: every error names the parameter and its valid range."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_unit", "check_prob_vector", "check_unit_array", "check_group_codes"]


def check_unit(name: str, value, *, allow_none: bool = False) -> float | None:
    """``value`` as a float in [0, 1] (``None`` passes through when ``allow_none``)."""
    if value is None and allow_none:
        return None
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not np.isfinite(value):
        raise ValueError(f"{name} must be a real number in [0, 1], got {name}={value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {name}={value!r}")
    return float(value)


def check_unit_array(name: str, values, n: int | None = None) -> np.ndarray:
    """A 1-D float array with entries in [0, 1] (and length ``n`` if given)."""
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise ValueError(f"{name} must have length {n} (one entry per record), got length {arr.size}")
    if not np.all(np.isfinite(arr)) or arr.min() < 0.0 or arr.max() > 1.0:
        bad = arr[~(np.isfinite(arr) & (arr >= 0) & (arr <= 1))][0]
        raise ValueError(f"{name} must have every entry in [0, 1], got an entry {name}={bad!r}")
    return arr


def check_prob_vector(name: str, values, *, atol: float = 1e-9) -> np.ndarray:
    """A 1-D array of probabilities: finite, >= 0, summing to one within ``atol``."""
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or arr.min() < 0.0:
        raise ValueError(f"{name} must have finite entries >= 0, got min {name}={np.nanmin(arr)!r}")
    total = float(arr.sum())
    if abs(total - 1.0) > atol * max(1.0, np.sqrt(arr.size)):
        raise ValueError(f"{name} must sum to 1 (a probability distribution), got sum({name})={total!r}")
    return arr


def check_group_codes(name: str, values, n: int) -> np.ndarray:
    """Integer group codes, one per record."""
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.size != n:
        raise ValueError(f"{name} must be a 1-D array of length {n} (one code per record), got {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer group codes, got dtype {arr.dtype}")
    return arr

"""Parameter checks shared by every work: errors name the parameter and its valid range."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_real",
    "check_positive",
    "check_in_interval",
    "check_integer",
    "check_simplex",
    "check_shape",
    "check_choice",
    "check_bool",
    "check_type",
    "check_rng",
    "check_array",
    "check_same_length",
    "check_frame",
]


def _is_text(value) -> bool:
    return isinstance(value, str | bytes | np.str_ | np.bytes_)


def _as_float_array(name: str, value) -> np.ndarray:
    """``value`` as a float array, refusing strings: ``np.asarray(["0.1"], dtype=float)`` would
    quietly turn text into numbers."""
    try:
        raw = np.asarray(value)
        text = raw.dtype.kind in "US" or (raw.dtype.kind == "O" and any(map(_is_text, raw.flat)))
    except (TypeError, ValueError):  # ragged nesting: let the conversion below report it
        text = False
    if text:
        raise ValueError(f"{name} must hold real numbers, not strings, got {name}={value!r}")
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of real numbers, got {name}={value!r}") from None


def check_real(name: str, value, *, finite: bool = True) -> float:
    """``value`` as a float: a real number (Python or NumPy, or a size-1 array), not a string or a
    bool; finite unless ``finite=False`` (NaN is never accepted)."""
    if _is_text(value) or isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}") from None
    if np.isnan(x) or (finite and not np.isfinite(x)):
        raise ValueError(f"{name} must be {'finite' if finite else 'a real number, not NaN'}, "
                         f"got {name}={value!r}")
    return x


def check_positive(name: str, value, *, allow_zero: bool = False, allow_inf: bool = False) -> float:
    """``value`` as a float, > 0 (or >= 0 with ``allow_zero``); finite unless ``allow_inf``."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or np.isnan(value):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}")
    value = float(value)
    if (value < 0 or (value == 0 and not allow_zero)) or (np.isinf(value) and not allow_inf):
        bound = ">= 0" if allow_zero else "> 0"
        finite = "" if allow_inf else " and finite"
        raise ValueError(f"{name} must be {bound}{finite}, got {name}={value!r}")
    return value


def check_in_interval(name: str, value, low: float, high: float, *, closed: str = "neither") -> float:
    """``value`` as a float in the interval (low, high); ``closed`` in {neither, left, right, both}."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or np.isnan(value):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}")
    value = float(value)
    lo_ok = value >= low if closed in ("left", "both") else value > low
    hi_ok = value <= high if closed in ("right", "both") else value < high
    if not (lo_ok and hi_ok):
        left = "[" if closed in ("left", "both") else "("
        right = "]" if closed in ("right", "both") else ")"
        raise ValueError(f"{name} must be in {left}{low:g}, {high:g}{right}, got {name}={value!r}")
    return value


def check_integer(name: str, value, *, minimum: int | None = None) -> int:
    """``value`` as an int (NumPy integers accepted), at least ``minimum`` if given."""
    bound = "" if minimum is None else f" >= {minimum}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer{bound}, got {name}={value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer{bound}, got {name}={value!r}")
    return int(value)


def check_simplex(name: str, p, *, atol: float = 1e-9, axis: int | None = None) -> np.ndarray:
    """``p`` as a float array with non-negative entries summing to one (over ``axis``, or all)."""
    arr = _as_float_array(name, p)
    if arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a non-empty finite probability vector, got {name}={p!r}")
    if np.any(arr < -atol):
        raise ValueError(f"{name} must have entries >= 0, got minimum {arr.min():.3g}")
    total = arr.sum(axis=axis)
    if not np.allclose(total, 1.0, atol=atol * max(1, arr.size)):
        raise ValueError(f"{name} must sum to 1 (probability simplex), got sum {np.round(total, 12)}")
    return np.clip(arr, 0.0, None)


def check_shape(name: str, arr, shape: tuple[int, ...]) -> np.ndarray:
    """``arr`` as a float array of exactly ``shape``."""
    out = _as_float_array(name, arr)
    if out.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got shape {out.shape}")
    return out


def check_choice(name: str, value, choices):
    """``value`` if it is one of ``choices`` (compared with ``==``); ValueError listing them otherwise."""
    try:
        ok = any(value is c or (isinstance(value, str) == isinstance(c, str) and bool(value == c))
                 for c in choices)
    except (TypeError, ValueError):  # e.g. an array compared with a string
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {name}={value!r}")
    return value


def check_bool(name: str, value) -> bool:
    """``value`` as a bool; only ``True`` / ``False`` (or NumPy booleans) are accepted."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {name}={value!r}")
    return bool(value)


def check_type(name: str, value, types, what: str):
    """``value`` if it is an instance of ``types``; ValueError naming ``what`` was expected otherwise."""
    if not isinstance(value, types):
        raise ValueError(f"{name} must be {what}, got {type(value).__name__}")
    return value


def check_rng(name: str, value) -> np.random.Generator:
    """``value`` if it is a ``numpy.random.Generator`` (seed it with ``safeguarded.experiments.rng_for``)."""
    return check_type(name, value, np.random.Generator, "a numpy.random.Generator")


def check_array(name: str, value, *, ndim: int | None = None, shape=None, finite: bool = True,
                nonempty: bool = True) -> np.ndarray:
    """``value`` as a float array; optionally of ``ndim`` dimensions, of ``shape`` (``None`` entries
    match any length), non-empty and with finite entries (NaN and infinities rejected)."""
    arr = _as_float_array(name, value)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array, got shape {arr.shape}")
    if shape is not None:
        shape = tuple(shape)
        if arr.ndim != len(shape) or any(s not in (None, a) for s, a in zip(shape, arr.shape, strict=True)):
            want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
            raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValueError(f"{name} must be non-empty, got shape {arr.shape}")
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {int(np.sum(~np.isfinite(arr)))} non-finite entries")
    return arr


def check_same_length(name: str, value, other_name: str, length: int) -> None:
    """ValueError unless ``len(value) == length`` (the length of ``other_name``)."""
    if len(value) != length:
        raise ValueError(
            f"{name} must have the length of {other_name} ({length}), got length {len(value)}"
        )


def check_frame(name: str, frame, columns=()):
    """``frame`` if it is a pandas DataFrame holding ``columns``; ValueError naming the missing ones."""
    import pandas as pd

    check_type(name, frame, pd.DataFrame, "a pandas DataFrame")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} must have the columns {list(columns)}, missing {missing}")
    return frame

"""How a printed number is read: its value, its precision, and how ours is written beside it.

The smallest rules of the claims protocol (``docs/claims.md`` §2), shared by :mod:`safeguarded.claims`
(which registers rows) and :mod:`safeguarded.judging` (which re-judges them), so neither imports the
other's internals.
"""

from __future__ import annotations

import math
import re

import numpy as np

__all__ = ["CANNOT_DECIDE_PREFIX", "CANNOT_REFUTE_PREFIX", "ClaimError", "FITTED_PREFIX", "RECOVERED",
           "RECOVERED_PREFIX", "fmt", "fmt_against", "parse_printed", "printed_tolerance", "recovered_parts"]

#: A note starting with this declares a rule fitted to the work's outputs (never counted as reproduced).
FITTED_PREFIX = "fitted: "
#: A ``recovered`` row's note starts with this and its variant (docs/claims.md §7).
RECOVERED_PREFIX = "recovered: "
#: A ``recovered`` row's claim: its printed row's claim, then the variant in brackets.
RECOVERED = re.compile(
    r"^(?P<printed>.+) \[recovered: (?P<variant>[^\]]+)\](?P<relation> \((?:<=|>=) paper value\))?$"
)
#: How the note of a comparison that can confirm but not refute starts (docs/claims.md §2e).
CANNOT_REFUTE_PREFIX = "confirms only: "
#: How the note of a comparison that can neither confirm nor refute starts (docs/claims.md §2f).
CANNOT_DECIDE_PREFIX = "decides nothing: "


class ClaimError(ValueError):
    """A claim that breaks the protocol (missing location or runs, a tolerance wider than its effect...)."""


_PRINTED = re.compile(r"^[+\-]?(?P<int>\d[\d,]*)?(?:\.(?P<frac>\d+))?(?:[eE](?P<exp>[+\-]?\d+))?$")


def _clean_printed(printed: str) -> str:
    text = str(printed).strip().replace("\u2212", "-").replace("%", "").replace("$", "").strip()
    return text.replace(" ", "")


def parse_printed(printed: str) -> float:
    """The value of a printed number (``"1,000"``, ``"67.44 %"``, ``"1.2e-3"``, ``"−0.5"``)."""
    text = _clean_printed(printed)
    if not _PRINTED.match(text.lstrip("+-")) or not any(ch.isdigit() for ch in text):
        raise ClaimError(f"paper value must be a printed number such as '67.44', got {printed!r}")
    return float(text.replace(",", ""))


def printed_tolerance(printed: str) -> float:
    """Half a unit of the last printed digit: ``"67.44"`` -> 0.005, ``"1,000"`` -> 0.5, ``"1e-3"`` -> 5e-4."""
    if not isinstance(printed, str):
        raise ClaimError(
            f"pass the paper's value as the printed string (its digits fix the tolerance), got {printed!r}"
        )
    text = _clean_printed(printed).lstrip("+-")
    match = _PRINTED.match(text)
    if not match or not any(ch.isdigit() for ch in text):
        raise ClaimError(f"paper value must be a printed number such as '67.44', got {printed!r}")
    decimals = len(match.group("frac") or "")
    exponent = int(match.group("exp") or 0)
    return 0.5 * 10.0 ** (exponent - decimals)


def fmt(value) -> str:
    """A value as the report writes it: 6 significant digits, yes/no for booleans, '' for None."""
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | float | np.integer | np.floating):
        value = float(value) if isinstance(value, float | np.floating) else int(value)
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        return f"{value:.6g}"
    return str(value)


def fmt_against(value, printed) -> str:
    """Our value as the report writes it beside a printed one: with three digits more than the printed
    number's last (so the row alone re-decides it against half a printed unit to 0.1 % of that unit,
    ``601.6880001`` beside ``"601.6886"``), and never fewer than :func:`fmt`'s 6 significant digits."""
    if not isinstance(value, float | np.floating) or not math.isfinite(float(value)) or value == 0:
        return fmt(value)
    try:
        resolution = 2 * printed_tolerance(str(printed)) / 1000
    except ClaimError:
        return fmt(value)
    digits = math.floor(math.log10(abs(float(value)))) - math.floor(math.log10(resolution)) + 1
    return f"{float(value):.{min(max(digits, 6), 15)}g}"


def recovered_parts(claim: str) -> tuple[str, str]:
    """(the printed row's claim, the variant) of a ``recovered`` row's claim
    (``"P3 lower [recovered: the authors' scenarios]"``); raises :class:`ClaimError` for another claim."""
    match = RECOVERED.match(str(claim))
    if not match:
        raise ClaimError(f"claim must be '<printed claim> [recovered: <variant>]', got claim={claim!r}")
    return match["printed"] + (match["relation"] or ""), match["variant"]

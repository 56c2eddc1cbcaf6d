"""Audit of the thesis' Tables 7 and 8: is the noise that a printed entry implies (ε, δ)-DP?

A printed improvement I (in %) over the analytic Gaussian fixes the mechanism's expected loss
x = a·(1 − I/100) (a = the analytic Gaussian's E|X|, L2147 / L2169), and with it — the loss being
increasing in σ — the scale σ of the thesis' quasi-Gaussian (eq. (25)) or multi-Gaussian (eq. (28),
with the K of Table 11).  That noise is then checked with the independent hockey-stick quadrature
(:func:`grid.privacy_check_cell`, :mod:`privacy`): δ(ε) = sup_{φ ∈ [0, Δ]} ∫ (f(x + φ) − e^ε f(x))⁺ dx,
which Theorems 3 and 5 claim is at most δ.  The printed entry is rounded to 0.01 pp; we take the end of
its rounding interval that is most favourable to privacy (the smallest improvement, the largest σ).

The l2 tables (Table 14 with the K of Table 16) are audited the same way with ``norm="l2"``: the printed
improvement then fixes E X² = σ_AG²·(1 − I/100) (σ_AG the analytic Gaussian's scale; E X² of eq. (28)'s
mixture, App. 2.B.2, L2781), which is increasing in σ as well; the privacy check does not depend on the norm.

Kept apart from :mod:`grid` so that the cached grid sweeps do not depend on it.
"""

from __future__ import annotations

import math

import pandas as pd
from scipy import optimize

from safeguarded.gaussian_mixtures import multi_gaussian as mg
from safeguarded.gaussian_mixtures import privacy
from safeguarded.gaussian_mixtures import quasi_gaussian as qg
from safeguarded.gaussian_mixtures._validate import _real, check_delta, check_epsilon, check_k, check_sigma
from safeguarded.gaussian_mixtures.grid import analytic_gaussian_sigma, privacy_check_cell
from safeguarded.validation import check_choice, check_frame, check_integer, check_type

__all__ = ["implied_sigma", "audit_params", "audit_cell", "run_audit"]

MECHANISMS = ("QG", "MG")
NORMS = ("l1", "l2")


def _check_name(name) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string (the sweep's cache name), got name={name!r}")


def _mixture_loss(mechanism: str, epsilon: float, k: int, norm: str):
    """σ ↦ the loss of ``mechanism`` at ε, Δ = 1: E|X| for ``"l1"``, E X² for ``"l2"``."""
    if mechanism == "QG":
        return lambda s: qg.amplitude(s, epsilon, 1.0) if norm == "l1" else qg.power(s, epsilon, 1.0)
    return lambda s: mg.amplitude(s, epsilon, 1.0, k) if norm == "l1" else mg.power(s, epsilon, 1.0, k)


def _ag_loss(epsilon: float, delta: float, norm: str) -> float:
    """The analytic Gaussian's loss at (ε, δ), Δ = 1: σ_AG·sqrt(2/π) for ``"l1"``, σ_AG² for ``"l2"``."""
    sigma_ag = analytic_gaussian_sigma(epsilon, delta)
    return sigma_ag * math.sqrt(2 / math.pi) if norm == "l1" else sigma_ag**2


def implied_sigma(
    mechanism: str, improvement_pct: float, epsilon: float, delta: float, k: int = 1, norm: str = "l1"
) -> float:
    """The σ of ``mechanism`` ("QG" or "MG" with ``k``) whose loss is the analytic Gaussian's times
    (1 − improvement/100) at (ε, δ), Δ = 1; nan if no σ > 0 attains it (below the σ → 0 limit).

    ``norm="l1"``: the loss is E|X| (Tables 7 and 8, the AG's E|X| = σ_AG·sqrt(2/π)); ``norm="l2"``: E X²
    (Tables 13 and 14, the AG's E X² = σ_AG²).
    """
    check_choice("mechanism", mechanism, MECHANISMS)
    check_choice("norm", norm, NORMS)
    improvement_pct = _real("improvement_pct", improvement_pct)
    e, dl = check_epsilon(epsilon), check_delta(delta)
    loss = _mixture_loss(mechanism, e, check_k(k), norm)
    if not math.isfinite(improvement_pct) or improvement_pct >= 100:
        raise ValueError(f"improvement_pct must be finite and < 100, got improvement_pct={improvement_pct!r}")
    target = _ag_loss(e, dl, norm) * (1 - improvement_pct / 100)
    lo, hi = 1e-6, 1.0
    while loss(hi) < target:
        hi *= 2
        if hi > 1e9:
            raise ValueError(f"no sigma attains E|X| = {target!r}")
    if loss(lo) > target:
        return float("nan")
    return float(optimize.brentq(lambda s: loss(s) - target, lo, hi, xtol=1e-15, rtol=1e-13))


def audit_params(
    table: dict, mechanism: str, epsilons, deltas, best_k: dict | None = None, norm: str = "l1"
) -> pd.DataFrame:
    """One row per printed cell: ``table[(eps, delta)]`` = printed improvement string; for "MG" the K of
    ``best_k[(eps, delta)]`` (Table 11 for l1, Table 16 for l2).  Columns epsilon, delta, mechanism, k,
    printed, sigma (the σ :func:`implied_sigma` gives for ``norm`` at the privacy-favourable end of the
    printed rounding)."""
    check_type("table", table, dict, "a dict {(epsilon, delta): printed string}")
    check_choice("mechanism", mechanism, MECHANISMS)
    check_choice("norm", norm, NORMS)
    for name, values, check in (("epsilons", epsilons, check_epsilon), ("deltas", deltas, check_delta)):
        if not isinstance(values, tuple | list) or not values:
            raise ValueError(f"{name} must be a non-empty tuple or list, got {name}={values!r}")
        for v in values:
            try:
                check(v)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
    missing = [(e, d) for e in epsilons for d in deltas if not isinstance(table.get((e, d)), str)]
    if missing:
        raise ValueError(f"table must hold a printed string per (epsilon, delta), missing {missing[:3]}")
    if mechanism == "MG":
        check_type("best_k", best_k, dict, "a dict {(epsilon, delta): K} for mechanism 'MG'")
        absent = [(e, d) for e in epsilons for d in deltas if (e, d) not in best_k]
        if absent:
            raise ValueError(f"best_k must hold K for every (epsilon, delta), missing {absent[:3]}")
    rows = []
    for e in epsilons:
        for d in deltas:
            printed = table[(e, d)]
            k = int(best_k[(e, d)]) if mechanism == "MG" else 1
            half = 0.5 * 10 ** -len(printed.split(".")[1]) if "." in printed else 0.5
            sigma = implied_sigma(mechanism, float(printed) - half, e, d, k, norm=norm)
            rows.append(dict(epsilon=e, delta=d, mechanism=mechanism, k=k, printed=printed, sigma=sigma))
    return pd.DataFrame(rows)


BORDER = 0.1  # a coarse delta(eps) within 10 % of delta is recomputed with the fine check


def audit_cell(epsilon: float, delta: float, mechanism: str, sigma: float, k: int = 1, seed: int = 0) -> dict:
    """delta(eps) of the noise with scale ``sigma`` by the independent quadrature (:mod:`privacy`).

    First :func:`privacy.delta_of_epsilon` (65 shifts refined around the worst, 100 points per sigma,
    Richardson-extrapolated); where that value is within 10 % of delta the cell is borderline and is
    recomputed with the finer :func:`grid.privacy_check_cell` (shifts and steps on the scale sigma^2/Delta),
    which costs minutes for the narrow large-eps mixtures but is only needed near the boundary.
    ``seed`` is unused (sweep interface).
    """
    check_choice("mechanism", mechanism, MECHANISMS)
    e, dl = check_epsilon(epsilon), check_delta(delta)
    sigma = check_sigma(sigma)
    check_k(k)
    check_integer("seed", seed, minimum=0)
    if mechanism == "QG":

        def pdf(x):
            return qg.pdf(x, sigma, e, 1.0)

        radius = 1.0 + 12 * sigma
    elif mechanism == "MG":
        kk = check_k(k)

        def pdf(x):
            return mg.pdf(x, sigma, e, 1.0, kk)

        radius = kk + 12 * sigma
    else:
        raise ValueError(f"mechanism must be 'QG' or 'MG', got mechanism={mechanism!r}")
    sup, phi = privacy.delta_of_epsilon(pdf, e, 1.0, sigma, radius)
    method = "coarse (65 shifts, 100 points per sigma)"
    if abs(sup - dl) <= BORDER * dl:
        fine = privacy_check_cell(e, dl, mechanism, sigma, k)
        sup, phi, method = fine["delta_actual"], fine["worst_phi"], "fine (grid.privacy_check_cell)"
    return dict(delta_actual=sup, worst_phi=phi, margin=(dl - sup) / dl, method=method)


def run_audit(rows: pd.DataFrame, *, name: str, **sweep_kwargs) -> pd.DataFrame:
    """:func:`audit_cell` for each row (columns epsilon, delta, mechanism, sigma, k), cached."""
    from safeguarded.experiments import run_sweep

    check_frame("rows", rows, ("epsilon", "delta", "mechanism", "sigma", "k"))
    _check_name(name)
    params = [
        dict(
            epsilon=float(r.epsilon),
            delta=float(r.delta),
            mechanism=str(r.mechanism),
            sigma=float(r.sigma),
            k=int(max(r.k, 1)),
        )
        for r in rows.itertuples()
    ]
    return run_sweep(audit_cell, params, [0], name=name, **sweep_kwargs)

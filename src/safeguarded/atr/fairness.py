"""Fairness measures of Appendix A and the Lemma-2 bounds on how fidelity-constrained perturbation
moves them.

Binary decisions, d = D_1 (Definition 1). Groups are boolean masks over records; expectations are
P-weighted: E[d | T_Y] = sum_{x in T_Y} P(x) d(x) / sum_{x in T_Y} P(x).

* statistical parity (Definition 9, (27)/(30)), conditional statistical parity (Definition 10,
  (28)/(31)) — total-variation based (F_tv);
* the p%-rule (Definition 11, (29)/(32)) as the relative-metric bias |log(E_1 / E_2)| — F_rm;
* individual-fairness bias (Definition 8, (23)-(24)) with D_tv (26) or D_inf (25).

Lemma 2, (14)-(15): |eps~ - eps| <= min{2(1 - delta), 1} for F_tv under delta-fidelity and
<= min{-2 log alpha, 1} for F_rm under alpha-fidelity. The cap 1 of (15) does not hold in general
(the relative metric is unbounded): :func:`lemma2_rm_bound` has ``cap=True`` for the printed bound and
``cap=False`` for the uncapped -2 log alpha, which the reverse triangle inequality does give.
"""

from __future__ import annotations

import numpy as np

from safeguarded.atr._checks import check_unit, check_unit_array
from safeguarded.validation import check_bool, check_choice

__all__ = [
    "group_rate",
    "statistical_parity",
    "conditional_statistical_parity",
    "p_rule_bias",
    "individual_fairness_bias",
    "lemma2_tv_bound",
    "lemma2_rm_bound",
]


def _mask(name, mask, n):
    m = np.asarray(mask)
    if m.dtype != bool or m.shape != (n,):
        raise ValueError(f"{name} must be a boolean mask of length {n}, got dtype {m.dtype}, shape {m.shape}")
    if not m.any():
        raise ValueError(f"{name} must select at least one record, got an empty group")
    return m


def _pd(p, d):
    p = np.asarray(p, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any(p < 0):
        raise ValueError("p must be a non-empty 1-D array of probabilities >= 0")
    return p, check_unit_array("d", d, p.size)


def group_rate(p, d, mask) -> float:
    """E[d(X) | X in T_Y] (the approval rate of group Y)."""
    p, d = _pd(p, d)
    m = _mask("mask", mask, p.size)
    mass = p[m].sum()
    if mass <= 0:
        raise ValueError("mask must select records with positive probability mass, got mass 0")
    return float((p[m] * d[m]).sum() / mass)


def statistical_parity(p, d, group1, group2) -> float:
    """Bias in SP (30): |E[d | T_Y1] - E[d | T_Y2]| (= D_tv of (27) for binary decisions)."""
    p, d = _pd(p, d)
    group1, group2 = _mask("group1", group1, p.size), _mask("group2", group2, p.size)
    return abs(group_rate(p, d, group1) - group_rate(p, d, group2))


def conditional_statistical_parity(p, d, group1, group2, score_set) -> float:
    """Bias in CSP (31): SP restricted to records whose score lies in V (boolean mask ``score_set``)."""
    p, d = _pd(p, d)
    group1, group2 = _mask("group1", group1, p.size), _mask("group2", group2, p.size)
    v = _mask("score_set", score_set, p.size)
    if not (group1 & v).any() or not (group2 & v).any():
        raise ValueError("score_set must select at least one record of each group, got an empty intersection")
    return statistical_parity(p, d, group1 & v, group2 & v)


def p_rule_bias(p, d, group1, group2, *, outcomes: str = "positive") -> float:
    """Relative-metric bias of the p%-rule: |log(E_1 / E_2)| for a = 1 ((32), ``outcomes="positive"``),
    or max over a in {0, 1} ((29), ``outcomes="all"``). Infinite when exactly one rate is 0."""
    check_choice("outcomes", outcomes, ("positive", "all"))
    p, d = _pd(p, d)
    group1, group2 = _mask("group1", group1, p.size), _mask("group2", group2, p.size)
    e1, e2 = group_rate(p, d, group1), group_rate(p, d, group2)
    pairs = [(e1, e2)] if outcomes == "positive" else [(e1, e2), (1 - e1, 1 - e2)]
    out = 0.0
    for a, b in pairs:
        if a == 0 and b == 0:
            continue
        out = max(out, np.inf if a == 0 or b == 0 else abs(np.log(a / b)))
    return float(out)


def individual_fairness_bias(d, dist, *, metric: str = "tv") -> float:
    """Smallest eps with D(D(x1), D(x2)) <= dist(x1, x2) + eps for all pairs ((24)).

    ``dist`` is the (n, n) matrix of the distance on records; ``metric`` is ``"tv"`` (26) or
    ``"inf"`` (25) on the binary distributions (d, 1 - d).
    """
    check_choice("metric", metric, ("tv", "inf"))
    d = check_unit_array("d", d)
    dist = np.asarray(dist, dtype=float)
    if dist.shape != (d.size, d.size) or np.any(~np.isfinite(dist)) or np.any(dist < 0):
        raise ValueError(
            f"dist must be a finite non-negative ({d.size}, {d.size}) matrix, got shape {dist.shape}"
        )
    if metric == "tv":
        gap = np.abs(d[:, None] - d[None, :])  # (1/2)(|d1 - d2| + |(1-d1) - (1-d2)|)
    elif metric == "inf":
        with np.errstate(divide="ignore", invalid="ignore"):
            l1 = np.abs(np.log(d[:, None]) - np.log(d[None, :]))
            l0 = np.abs(np.log1p(-d[:, None]) - np.log1p(-d[None, :]))
        l1 = np.where(d[:, None] == d[None, :], 0.0, l1)
        l0 = np.where(d[:, None] == d[None, :], 0.0, l0)
        gap = np.maximum(l1, l0)
    else:
        raise ValueError(f"metric must be 'tv' or 'inf', got metric={metric!r}")
    return float(max(0.0, np.max(gap - dist)))


def lemma2_tv_bound(delta: float) -> float:
    """Lemma 2, (14): min{2(1 - delta), 1}."""
    delta = check_unit("delta", delta)
    return min(2.0 * (1.0 - delta), 1.0)


def lemma2_rm_bound(alpha: float, *, cap: bool = True) -> float:
    """Lemma 2, (15): min{-2 log alpha, 1} as printed (``cap=True``), or -2 log alpha (``cap=False``)."""
    alpha = check_unit("alpha", alpha)
    cap = check_bool("cap", cap)
    if alpha == 0:
        return 1.0 if cap else float("inf")
    raw = -2.0 * np.log(alpha)
    return float(min(raw, 1.0)) if cap else float(raw)

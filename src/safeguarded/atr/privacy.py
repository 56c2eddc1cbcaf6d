"""The adversary's confidence (Definition 3, Lemma 1 (8), proof (36)-(38)) and its landmarks:
the maximum posterior confidence C* (Definition 7) and the privacy limit beta_min (Lemma 5).

For binary decisions, conf(x_U, a -> x_S) = P(x) D~_a(x) / sum_{x' in T_{x_U}} P(x') D~_a(x').
An outcome a that no record of a group can receive (denominator 0) supports no inference; its
confidence is defined as 0 (never 0/0).
"""

from __future__ import annotations

import numpy as np

from safeguarded.atr._checks import check_group_codes, check_unit_array
from safeguarded.atr.table import Segments

__all__ = ["confidence", "group_max_confidence", "beta_min", "c_star"]


def _check(p, x, group):
    p = np.asarray(p, dtype=float)
    if p.ndim != 1 or p.size == 0 or not np.all(np.isfinite(p)) or p.min() < 0:
        raise ValueError("p must be a non-empty 1-D array of finite probabilities >= 0")
    x = check_unit_array("d", x, p.size)
    group = check_group_codes("group", group, p.size)
    return p, x, group


def confidence(p, d, group) -> np.ndarray:
    """conf for every record and outcome, shape (n, 2): column a = 0, 1 (Lemma 1, (8)/(37)).

    Parameters
    ----------
    p
        P(x) per record (any positive scale: the ratio is scale-free within a group).
    d
        The (announced) decision rule D~_1(x) per record; D~_0 = 1 - D~_1.
    group
        Integer QID-group code per record.
    """
    p, d, group = _check(p, d, group)
    segs = Segments.from_codes(group)
    ps, ds = segs.sort(p), segs.sort(d)
    out = np.empty((p.size, 2))
    for a, joint in enumerate((ps * (1.0 - ds), ps * ds)):
        tot = segs.sum(joint)[segs.seg]
        out[:, a] = segs.unsort(np.divide(joint, tot, out=np.zeros_like(joint), where=tot > 0))
    return out


def group_max_confidence(p, d, group) -> np.ndarray:
    """max_{x in T, a} conf per QID group, groups in sorted-code order (Definitions 3-4)."""
    p, d, group = _check(p, d, group)
    segs = Segments.from_codes(group)
    conf = segs.sort(confidence(p, d, group).max(axis=1))
    return segs.max(conf)


def beta_min(p, group) -> np.ndarray:
    """Lemma 5: beta_min = max_{x in T} P(x | T) per QID group (groups in sorted-code order)."""
    p = np.asarray(p, dtype=float)
    p, _, group = _check(p, np.zeros_like(p), group)
    segs = Segments.from_codes(group)
    ps = segs.sort(p)
    tot = segs.sum(ps)
    if np.any(tot <= 0):
        raise ValueError("every QID group must have positive probability mass (p), got an empty group")
    return segs.max(ps) / tot


def c_star(p, d, group) -> np.ndarray:
    """Definition 7: C* = the maximum confidence under the true mapping D (1-fidelity), per group."""
    return group_max_confidence(p, d, group)

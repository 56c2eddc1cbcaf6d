"""Algorithm 1 (Theorem 1): the optimal-privacy announced decision rule per QID group, vectorised.

Notation of Theorem 1 and Appendix H, in joint-probability units (all per QID group T):
x = D~_1(x) in the fidelity box [lo, hi] (47), y = D~_0 = 1 - x;
J1 = max_T P(x) D~_1(x)_min at x^1 (= pi), J0 = max_T P(x) D~_0(x)_min at x^0 (= theta);
D~_a(x)_max' = min{P(x) D~_a(x)_max, J_a} / P(x); b(x) = P(x) - beta sum_T P.

* beta_1 = J1 / sum_T P D~_1 max'   (the x^1 term of the sum is J1 itself), beta_0 likewise;
* beta_p = (J1 + J0) / sum_T P;
* beta_min = max_T P(x | T) (Lemma 5).

**Erratum.** Theorem 1 as printed gives beta*_T = max{beta_0, beta_1, beta_p}; its proof assumes
b(x) <= 0 for all x, i.e. beta >= beta_min (Remark 7, "due to Lemma 5"), which the statement drops.
The optimal value is max{beta_0, beta_1, beta_p, beta_min}: Lemma 5 makes every beta < beta_min
infeasible whatever the fidelity. :func:`theorem1_printed` keeps the printed value for comparison.

Degenerate cases are explicit (never 0/0 or NaN):

* J_a = 0 (every P(x) D~_a(x)_min is 0, e.g. delta = 0): the a-constraint bounds nothing, beta_a = 0;
* x^0 = x^1 (Remark 4): then beta_p <= beta_min, handled by the beta_min case;
* singleton groups (|T| = 1): beta* = 1 whatever is announced; D~ = D is announced;
* records with P(x) = 0 carry no mass; they announce ``d`` (default: their box's lower end).

Solutions: the beta_0 / beta_1 cases announce D~_a = D~_a max' (Theorem 1); the beta_p case calls
Allocation() (lines 17-28), a greedy fill in record order, vectorised with a within-group cumulative
sum; the beta_min case (not covered by the printed theorem) uses :func:`feasible_mapping`, which
constructs a point of the feasible set at a given beta from a one-dimensional concave search over
the group's total S = sum_T P D~_1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from safeguarded.atr._checks import check_group_codes, check_prob_vector, check_unit_array
from safeguarded.atr.fidelity import fidelity_box
from safeguarded.atr.privacy import confidence
from safeguarded.atr.table import DecisionTable, Segments
from safeguarded.validation import check_type

__all__ = [
    "CASES",
    "Algorithm1Result",
    "algorithm1",
    "optimal_privacy",
    "theorem1_printed",
    "feasible_mapping",
    "beta_candidates",
]

#: Which candidate attains beta*_T, in the order they are tried (first equal one wins).
CASES = ("beta0", "beta1", "beta_p", "beta_min", "singleton")


def _validate(p, lo, hi, group):
    p = check_prob_vector("p", p)
    lo = check_unit_array("lo", lo, p.size)
    hi = check_unit_array("hi", hi, p.size)
    if np.any(lo > hi):
        i = int(np.flatnonzero(lo > hi)[0])
        raise ValueError(f"lo must be <= hi (an empty fidelity box), got lo={lo[i]!r} > hi={hi[i]!r} at {i}")
    group = check_group_codes("group", group, p.size)
    return p, lo, hi, group


@dataclass
class _Sorted:
    """Records sorted by group with the joint-probability bounds of Theorem 1."""

    segs: Segments
    p: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    @classmethod
    def build(cls, p, lo, hi, group):
        segs = Segments.from_codes(group)
        return cls(segs, segs.sort(p), segs.sort(lo), segs.sort(hi))

    def candidates(self):
        s, p = self.segs, self.p
        P = s.sum(p)
        if np.any(P <= 0):
            raise ValueError("every QID group must have positive probability mass (p), got an empty group")
        j1min, j1max = p * self.lo, p * self.hi
        j0min, j0max = p * (1.0 - self.hi), p * (1.0 - self.lo)
        pi, theta = s.first_argmax(j1min), s.first_argmax(j0min)
        J1, J0 = j1min[pi], j0min[theta]
        den1 = s.sum(np.minimum(j1max, J1[s.seg]))  # sum_T P D~_1 max'  (x^1 contributes J1)
        den0 = s.sum(np.minimum(j0max, J0[s.seg]))
        beta1 = np.divide(J1, den1, out=np.zeros_like(J1), where=J1 > 0)
        beta0 = np.divide(J0, den0, out=np.zeros_like(J0), where=J0 > 0)
        beta_p = (J1 + J0) / P
        beta_min = s.max(p) / P
        return dict(
            P=P, pi=pi, theta=theta, J1=J1, J0=J0, beta0=beta0, beta1=beta1, beta_p=beta_p, beta_min=beta_min
        )


def beta_candidates(p, lo, hi, group) -> pd.DataFrame:
    """beta_0, beta_1, beta_p (Theorem 1) and beta_min (Lemma 5) per QID group (sorted-code order)."""
    p, lo, hi, group = _validate(p, lo, hi, group)
    c = _Sorted.build(p, lo, hi, group).candidates()
    return pd.DataFrame({k: c[k] for k in ("beta0", "beta1", "beta_p", "beta_min")})


def theorem1_printed(p, lo, hi, group) -> pd.DataFrame:
    """Theorem 1 as printed: max{beta_0, beta_1, beta_p} per group, without the Lemma-5 floor.

    Returns columns ``printed`` (the printed maximum, with an undefined 0/0 candidate left out) and
    ``defined`` (False where beta_0 or beta_1 is 0/0 in the printed formula, e.g. at delta = 0).
    """
    p, lo, hi, group = _validate(p, lo, hi, group)
    c = _Sorted.build(p, lo, hi, group).candidates()
    printed = np.maximum(np.maximum(c["beta0"], c["beta1"]), c["beta_p"])
    return pd.DataFrame({"printed": printed, "defined": (c["J0"] > 0) & (c["J1"] > 0)})


def _search_total(j1min, j1max, b, beta, segs: Segments, s_lo, s_hi, iters: int, round_len: int = 8):
    """Golden-section search of S maximising the concave slack of :func:`_construct`, per group.

    Stops early for a group as soon as a point with non-negative slack (a feasible S) is found; the
    remaining groups are compressed every ``round_len`` iterations. Degenerate groups (a single
    feasible S) run all ``iters`` iterations and return the bracket's midpoint."""
    S_out = np.empty(segs.n_groups)
    act = np.arange(segs.n_groups)

    def slack(S, j1min, j1max, b, beta, segs):
        bs = (beta * S)[segs.seg]
        L, U = np.maximum(j1min, b + bs), np.minimum(j1max, bs)
        return np.minimum(S - segs.sum(L), segs.sum(U) - S)

    g = (np.sqrt(5.0) - 1.0) / 2.0
    a, c = s_lo.copy(), s_hi.copy()
    x1, x2 = c - g * (c - a), a + g * (c - a)
    state = (j1min, j1max, b, beta, segs)
    h1, h2 = slack(x1, *state), slack(x2, *state)
    it = 0
    while True:
        hb = np.maximum(h1, h2)
        done = (hb >= 0) | (it >= iters)
        S_out[act[done]] = np.where(hb >= 0, np.where(h1 >= h2, x1, x2), 0.5 * (a + c))[done]
        if done.all():
            return S_out
        if done.any():
            keep = ~done
            rec = keep[state[4].seg]
            state = (*(v[rec] for v in state[:3]), state[3][keep], Segments.from_codes(state[4].seg[rec]))
            act, a, c, x1, x2, h1, h2 = (v[keep] for v in (act, a, c, x1, x2, h1, h2))
        for _ in range(round_len):
            left = h1 < h2  # the maximum lies in [x1, c]
            a = np.where(left, x1, a)
            c = np.where(left, c, x2)
            nx1 = np.where(left, x2, c - g * (c - a))
            nx2 = np.where(left, a + g * (c - a), x1)
            hn = slack(np.where(left, nx2, nx1), *state)
            h1, h2 = np.where(left, h2, hn), np.where(left, hn, h1)
            x1, x2 = nx1, nx2
            it += 1


def _construct(p, lo, hi, segs: Segments, beta: np.ndarray, iters: int = 90, tol: float = 1e-9):
    """A feasible x at the given per-group beta (sorted arrays), or ValueError if none exists.

    For a fixed group total S = sum P x, the privacy constraints (16b) read, in joint units X = P x,
    max{P lo, b + beta S} <= X <= min{P hi, beta S} (b = P - beta sum_T P, (44)); every interval is
    non-empty iff S in [J1/beta, sum P - J0/beta] and beta >= beta_min. S is feasible iff
    sum(lower) <= S <= sum(upper); the slack min{S - sum lower, sum upper - S} is concave in S and is
    maximised by a golden-section search; X fills each interval in the same proportion.
    """
    P = segs.sum(p)
    j1min, j1max = p * lo, p * hi
    J1 = segs.max(j1min)
    J0 = segs.max(p * (1.0 - hi))
    b = p - (beta * P)[segs.seg]
    s_lo, s_hi = J1 / beta, P - J0 / beta
    s_hi = np.maximum(s_hi, s_lo)  # beta = beta_p exactly: a single point, up to rounding

    def bounds(S):
        bs = (beta * S)[segs.seg]
        return np.maximum(j1min, b + bs), np.minimum(j1max, bs)

    def slack(S):
        L, U = bounds(S)
        return np.minimum(S - segs.sum(L), segs.sum(U) - S)

    S = np.clip(_search_total(j1min, j1max, b, beta, segs, s_lo, s_hi, iters), s_lo, s_hi)
    L, U = bounds(S)
    worst = np.minimum(slack(S), -segs.max(L - U))  # every interval non-empty
    worst = np.where(beta * P < segs.max(p) - tol * P, -np.inf, worst)  # Lemma 5: beta < beta_min
    if np.any(worst < -tol * P):
        k = int(np.argmin(worst / P))
        raise ValueError(
            f"beta must be >= the optimal beta*_T of every group; group {k} is infeasible at "
            f"beta={beta[k]!r} (slack {worst[k]:.3g})"
        )
    L, U = bounds(S)
    sl, su = segs.sum(L), segs.sum(U)
    cap = su - sl
    theta = np.clip(np.divide(S - sl, cap, out=np.zeros_like(S), where=cap > 0), 0.0, 1.0)
    X = L + (U - L) * theta[segs.seg]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.clip(np.where(p > 0, X / p, lo), lo, hi)


def feasible_mapping(p, lo, hi, group, beta) -> np.ndarray:
    """An announced D~_1 in the box [lo, hi] whose confidence (8) is <= beta in every group.

    ``beta`` is a scalar or one value per group (sorted-code order). Raises ValueError when beta is
    below the group's optimum (no feasible point, Fact 1 of Appendix H).
    """
    p, lo, hi, group = _validate(p, lo, hi, group)
    st = _Sorted.build(p, lo, hi, group)
    beta = np.broadcast_to(np.asarray(beta, dtype=float), (st.segs.n_groups,)).copy()
    if np.any(~np.isfinite(beta)) or np.any(beta <= 0) or np.any(beta > 1):
        raise ValueError(f"beta must be in (0, 1], got beta={beta[~((beta > 0) & (beta <= 1))][0]!r}")
    return st.segs.unsort(_construct(st.p, st.lo, st.hi, st.segs, beta))


@dataclass(frozen=True)
class Algorithm1Result:
    """Output of :func:`algorithm1`.

        ``groups`` has one row per QID group (sorted-code order): ``beta`` (= beta*_T, corrected),
    ``beta0``, ``beta1``, ``beta_p``, ``beta_min``, ``printed`` (Theorem 1 as printed),
    ``printed_defined``, ``case`` (which candidate attains beta*_T), ``size``, ``resid``
    (Allocation's initial residual, line 20, in the beta_p case; 0 otherwise), ``x0`` and ``x1``
    (record indices of x^0, x^1).
    ``mapping`` is the announced D~_1 per record, in input order.
    """

    groups: pd.DataFrame
    mapping: np.ndarray

    @property
    def beta(self) -> float:
        """beta* of (OPT) = max_T beta*_T (Lemma 3)."""
        return float(self.groups["beta"].max())


def _allocation(p, lo, hi, s: Segments, P, J1, pi, theta, beta):
    """Allocation() (Algorithm 1, lines 17-28) on the beta_p-case groups (sorted arrays of those
    groups only; ``pi``/``theta`` are positions of x^1/x^0 in them). Returns (x, resid per group)."""
    b = p - (beta * P)[s.seg]  # b(x) = P(x) - beta sum_T P
    xmin_ = np.maximum(p * lo, J1[s.seg] + b)  # P D~_1 min'   (line 19)
    xmax_ = np.minimum(p * hi, J1[s.seg])  # P D~_1 max'
    pos = np.arange(s.n)
    is_pi, is_theta = pos == pi[s.seg], pos == theta[s.seg]
    active = ~(is_pi | is_theta)
    rhs22 = (1.0 - 2.0 * beta) / beta * J1 - (p[theta] - beta * P)  # RHS of (22)
    resid = rhs22 - s.sum(np.where(active, xmin_, 0.0))  # line 20
    cap = np.where(active, np.maximum(xmax_ - xmin_, 0.0), 0.0)  # line 24, joint units
    before = s.exclusive_cumsum(cap)
    alloc = np.clip(resid[s.seg] - before, 0.0, cap)  # lines 23-27: greedy in record order
    X = np.where(active, xmin_ + alloc, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        x = np.where(p > 0, X / p, lo)
    x = np.where(is_pi, lo, x)  # line 21: D~_1(x^1) = D~_1(x^1)_min
    x = np.where(is_theta, hi, x)  # line 22: D~_1(x^0) = 1 - D~_0(x^0)_min
    return np.clip(x, lo, hi), resid


def algorithm1(p, lo, hi, group, *, d=None) -> Algorithm1Result:
    """Algorithm 1 with the corrected optimal value, for every QID group at once.

    Parameters
    ----------
    p
        P(x) per record, a probability distribution (sums to one).
    lo, hi
        The fidelity box of D~_1(x) (e.g. :func:`safeguarded.atr.fidelity.fidelity_box`), 0 <= lo <= hi <= 1.
    group
        Integer QID-group code per record (T_{x_U}); records need not be sorted by group.
    d
        Value announced for singleton groups and zero-probability records (default: ``lo``).

    Returns
    -------
    Algorithm1Result
        beta*_T = max{beta_0, beta_1, beta_p, beta_min} per group and the announced D~_1.

    Work is O(|R_X|) when ``group`` is sorted (one stable argsort otherwise).
    """
    p, lo, hi, group = _validate(p, lo, hi, group)
    d = lo if d is None else check_unit_array("d", d, p.size)
    st = _Sorted.build(p, lo, hi, group)
    s = st.segs
    c = st.candidates()
    sizes = s.sizes
    beta = np.maximum.reduce([c["beta0"], c["beta1"], c["beta_p"], c["beta_min"]])
    case = np.full(s.n_groups, 3, dtype=np.int8)  # beta_min unless an earlier candidate attains it
    case = np.where(c["beta_p"] == beta, 2, case)
    case = np.where(c["beta1"] == beta, 1, case)
    case = np.where(c["beta0"] == beta, 0, case)
    case = np.where((case == 2) & (c["pi"] == c["theta"]), 3, case)  # Remark 4: x^0 = x^1
    case = np.where(sizes == 1, 4, case)

    p_, lo_, hi_ = st.p, st.lo, st.hi
    x = np.array(s.sort(d), dtype=float, copy=True)
    rec_case = case[s.seg]
    with np.errstate(invalid="ignore", divide="ignore"):
        # beta_0 case (lines 6-8): D~_0 = D~_0 max'
        x0 = 1.0 - np.minimum(p_ * (1.0 - lo_), c["J0"][s.seg]) / p_
        x = np.where((rec_case == 0) & (p_ > 0), x0, x)
        # beta_1 case (lines 9-11): D~_1 = D~_1 max'
        x1 = np.minimum(p_ * hi_, c["J1"][s.seg]) / p_
        x = np.where((rec_case == 1) & (p_ > 0), x1, x)
    resid = np.zeros(s.n_groups)
    if np.any(case == 2):
        sel = case == 2
        mask = sel[s.seg]
        sub = Segments.from_codes(s.seg[mask])
        off = sub.starts - s.starts[sel]
        x[mask], resid[sel] = _allocation(
            p_[mask],
            lo_[mask],
            hi_[mask],
            sub,
            c["P"][sel],
            c["J1"][sel],
            c["pi"][sel] + off,
            c["theta"][sel] + off,
            c["beta_p"][sel],
        )
    if np.any(case == 3):
        sel = case == 3
        mask = sel[s.seg]
        sub = Segments.from_codes(s.seg[mask])
        x[mask] = _construct(p_[mask], lo_[mask], hi_[mask], sub, beta[sel])
    x = np.clip(x, lo_, hi_)

    order = s.order if s.order is not None else np.arange(s.n)
    printed = np.maximum(np.maximum(c["beta0"], c["beta1"]), c["beta_p"])
    groups = pd.DataFrame(
        {
            "beta": beta,
            "beta0": c["beta0"],
            "beta1": c["beta1"],
            "beta_p": c["beta_p"],
            "beta_min": c["beta_min"],
            "printed": printed,
            "printed_defined": (c["J0"] > 0) & (c["J1"] > 0),
            "case": pd.Categorical.from_codes(case, CASES),
            "size": sizes,
            "resid": resid,
            "x0": order[c["theta"]],
            "x1": order[c["pi"]],
        }
    )
    return Algorithm1Result(groups, s.unsort(x))


def optimal_privacy(table: DecisionTable, *, delta: float | None = None, alpha: float | None = None):
    """Algorithm 1 on a :class:`DecisionTable` under delta- or alpha-fidelity.

    Returns the :class:`Algorithm1Result` with an extra ``group`` label column, and checks the
    announced mapping: achieved confidence (8) <= beta*_T + 1e-9 in every group.
    """
    check_type("table", table, DecisionTable, "a DecisionTable")
    lo, hi = fidelity_box(table.d, delta=delta, alpha=alpha)
    codes = table.group_codes
    res = algorithm1(table.p, lo, hi, codes, d=table.d)
    res.groups.insert(0, "group", table.group_labels)
    achieved = confidence(table.p, res.mapping, codes).max(axis=1)
    worst = pd.Series(achieved).groupby(codes).max().to_numpy()
    if np.any(worst > res.groups["beta"].to_numpy() + 1e-9):
        raise RuntimeError("Algorithm 1 announced a mapping above its own beta*: please report this bug")
    return res


def theorem1_table(table: DecisionTable, *, delta: float | None = None, alpha: float | None = None):
    """Table 4: inputs and the per-record quantities of Theorem 1 (per-outcome boxes (12)/(13),
    P D~_a min, P D~_a max and P D~_a max' = min{P D~_a max, P(x^a) D~_a(x^a)_min})."""
    from safeguarded.atr.fidelity import fidelity_bounds

    p, d, codes = table.p, table.d, table.group_codes
    out = table.frame[[*table.public, *table.private]].copy()
    out["P"], out["D1"], out["D0"] = p, d, 1.0 - d
    for a, Da in ((1, d), (0, 1.0 - d)):
        lo, hi = fidelity_bounds(Da, delta=delta, alpha=alpha)
        out[f"D{a}_min"], out[f"D{a}_max"] = lo, hi
    for a in (1, 0):
        jmin, jmax = p * out[f"D{a}_min"].to_numpy(), p * out[f"D{a}_max"].to_numpy()
        Ja = pd.Series(jmin).groupby(codes).transform("max").to_numpy()
        out[f"PD{a}_min"], out[f"PD{a}_max"], out[f"PD{a}_max'"] = jmin, jmax, np.minimum(jmax, Ja)
    return out.reset_index(drop=True)

"""A lower bound on the optimal (ε, δ)-DP noise that is valid on *non-uniform* partitions (thesis §1.4.1).

The thesis states D(π, β) for non-uniform cells only in words (L801–L805; the formula is lost in the
text), and the naive reconstruction — the padded problem with a uniform density inside every coarse
cell and infimum costs — is **not** a lower bound (privacy-checked Gaussian mixtures cost less; see
:func:`safeguarded.dp_noise.bounds.lower_bound`).  This module builds a relaxation that is valid by
construction, the *cover bound* C(π, β).

Construction
------------
Let Π_j, j ∈ 𝔑, be the cells of π padded with Δf/β single fine cells at both ends (the index set 𝔑
of L803; :meth:`Partition.padded`), with the two outermost padding cells read as the rays
(−∞, ·) and [·, ∞).  The variables are the cell masses q_j = γ(Π_j) ≥ 0, Σ_j q_j = 1, the costs are
c̲_j = inf_{Π_j} c (for ℓ1 and ℓ2 the infimum over the ray equals that over the finite padding cell).
For every shift φ = sβ, |s| ≤ k = Δf/β, and every event A that is a union of *unpadded* cells,

    Σ_{j ∈ A} q_j ≤ e^ε · Σ_{j' ∈ cover_s(A)} q_{j'} + δ,       cover_s(A) = {j' : Π_{j'} ∩ (A − φ) ≠ ∅}.

C(π, β) minimises Σ_j c̲_j q_j subject to these constraints.

**Validity (C(π, β) ≤ P = optimal value of the DP noise problem, L532–L541).**  Take any feasible noise
γ of P and set q_j = γ(Π_j) (mass outside the padded range goes to the outermost padding cell on its
side, i.e. the cells are read as rays).  Then (i) Σ_{A} q_j = γ(A) because A is a union of unpadded
cells; (ii) A − φ lies inside the padded range because |φ| ≤ Δf, so γ(A − φ) ≤ γ(∪ cover_s(A)) =
Σ_{cover} q_{j'}; hence every constraint follows from the DP constraint γ(A) ≤ e^ε γ(A − φ) + δ; and
(iii) Σ_j c̲_j q_j ≤ ∫ c dγ since c ≥ c̲_j on Π_j.  So q is feasible with no larger cost, and the
minimum of the LP is ≤ ∫ c dγ for every feasible γ.  **Any subset of the constraints gives a
relaxation of a relaxation**, so a cutting plane that stops early, an inexact separation oracle, or a
restricted shift set only loses tightness, never validity: every relaxation value reported is a lower
bound, and the value at termination of the exact cutting plane is the LP optimum C(π, β).

**Uniform partitions.**  For single fine cells, cover_s(A) = A − s exactly, so the constraints are
those of the padded primal form of D(L, β) (L1494–L1499) and C(π, β) = D(L, β) (tested against
:func:`~safeguarded.dp_noise.bounds.lower_bound`).

What the authors' released code computes as the lower bound
-----------------------------------------------------------
The repo's C++ (``data_independent.cpp``, read for conventions only) solves the upper bound on breakpoints
X with the piecewise-uniform DP constraints and reports as "lower bound" the infimum cost of *that
upper-bound noise* on its own cells, Σ_i p_i·min(|X_i|, |X_{i+1}|) (an objective variant minimises the
same infimum cost over the same unpadded constraints); the Julia table scripts divide the difference by
max(1, ·).  On uniform grids this coincides with D(L, β) in our checks (ℓ1 equals P − β/2 there); on a
graded partition it exceeds the loss of a privacy-checked multi-Gaussian, so it is not a lower bound in
general (test ``test_cover_bound_is_below_private_mechanisms_where_the_naive_reconstruction_fails``).

Separation (the analogue of Algorithm 2, L831–L852)
---------------------------------------------------
For fixed s, cover_s(Π_j) is the interval [l_j, r_j] of padded indices, with l_j, r_j non-decreasing in
j.  Maximising V_s(A) = Σ_{j∈A} q_j − e^ε q(∪_{j∈A} [l_j, r_j]) over all 2^N events is a dynamic
program over the last chosen cell: with Q the prefix sums of q and F_j the best value of an event whose
rightmost cell is j,

    F_j = q_j − e^ε Q[r_j+1] + max( e^ε Q[l_j] + max(0, max_{p: r_p < l_j} F_p),
                                    max_{p<j} (F_p + e^ε Q[r_p+1]) ).

The first branch starts a fresh block of covered cells; in the second, a previous cell p with r_p ≥ l_j
already covers [l_j, r_p] (its cover [l_p, r_p] contains it since l_p ≤ l_j), so j adds (r_p, r_j];
for p with r_p < l_j the second branch only *under*-counts (q ≥ 0), so taking the maximum over all p
is exact.  Both inner maxima are prefix maxima, so the DP is O(N) per shift; it is vectorised over all
shifts with NumPy (a loop over the N cells).  :func:`worst_events_bruteforce` enumerates all events on
tiny instances for the tests.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise.mechanisms import validate_privacy
from safeguarded.solvers import InfeasibleError, SolverError, solver_version
from safeguarded.validation import check_array, check_choice, check_integer, check_positive, check_type

__all__ = [
    "cover_intervals",
    "worst_events",
    "worst_events_bruteforce",
    "cover_lower_bound",
    "refined_partition",
]

LOSSES = ("l1", "l2")


def _check_partition(partition):
    check_type("partition", partition, bd.Partition, "a Partition (uniform_partition, refined_partition)")
    return partition


def _check_shifts(shifts, k: int) -> np.ndarray:
    arr = np.asarray(shifts)
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer) or np.any(np.abs(arr) > k):
        raise ValueError(
            f"shifts must be a non-empty 1-D array of integers in [-{k}, {k}], got shifts={shifts!r}"
        )
    return arr.astype(np.int64)


def default_shifts(partition: bd.Partition) -> np.ndarray:
    """The shifts s ≠ 0 in [−k, k] that are differences of padded breakpoints (and ±k); cf. L835."""
    pad = partition.padded()
    return bd._relevant_shifts(pad, partition.lo, partition.hi)


def cover_intervals(partition, shifts):
    """cover_s(Π_j) = [l_j, r_j]: padded-cell indices meeting Π_j − sβ, for every shift and unpadded cell.

    Cells are those of ``partition.padded()`` (index set 𝔑, L803; padded index of unpadded cell j is
    j + k).  Returns two int arrays of shape (len(shifts), N), non-decreasing along the cells.
    """
    _check_partition(partition)
    shifts = _check_shifts(shifts, partition.k)
    pb = partition.padded().breaks
    b = partition.breaks
    lo_pts = b[:-1][None, :] - shifts[:, None]  # first fine cell of Π_j − s
    hi_pts = b[1:][None, :] - shifts[:, None] - 1  # last fine cell of Π_j − s
    left = np.searchsorted(pb, lo_pts, side="right") - 1
    right = np.searchsorted(pb, hi_pts, side="right") - 1
    return left.astype(np.int64), right.astype(np.int64)


def _dp(q: np.ndarray, left: np.ndarray, right: np.ndarray, k: int, ee: float):
    """The vectorised DP of the module docstring.  Returns (values (S,), events (S, N) bool)."""
    S, N = left.shape
    Q = np.concatenate([[0.0], np.cumsum(q)])
    v = q[k : k + N]
    a = _last_before(left, right)  # a[s, j] = last p with r_p < l_j (or −1)
    rows = np.arange(S)
    PM = np.empty((S, N))  # prefix max of F
    PMarg = np.empty((S, N), dtype=np.int64)
    pred = np.full((S, N), -1, dtype=np.int64)
    GM = np.full(S, -np.inf)  # prefix max of F_p + e^ε Q[r_p + 1]
    GMarg = np.full(S, -1, dtype=np.int64)
    for j in range(N):
        qr = Q[right[:, j] + 1]
        aj = a[:, j]
        has = aj >= 0
        pm = np.where(has, PM[rows, np.maximum(aj, 0)], 0.0)
        pos = has & (pm > 0)
        opt_a = ee * Q[left[:, j]] + np.where(pos, pm, 0.0)
        pred_a = np.where(pos, PMarg[rows, np.maximum(aj, 0)], -1)
        use_b = GM > opt_a
        F = v[j] - ee * qr + np.where(use_b, GM, opt_a)
        pred[:, j] = np.where(use_b, GMarg, pred_a)
        if j == 0:
            PM[:, 0], PMarg[:, 0] = F, 0
        else:
            better = F > PM[:, j - 1]
            PM[:, j] = np.where(better, F, PM[:, j - 1])
            PMarg[:, j] = np.where(better, j, PMarg[:, j - 1])
        g = F + ee * qr
        gb = g > GM
        GM = np.where(gb, g, GM)
        GMarg = np.where(gb, j, GMarg)
    values = np.maximum(PM[:, N - 1], 0.0)
    events = np.zeros((S, N), dtype=bool)
    for s in np.nonzero(PM[:, N - 1] > 0)[0]:
        j = PMarg[s, N - 1]
        while j >= 0:
            events[s, j] = True
            j = pred[s, j]
    return values, events


def _last_before(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """a[s, j] = last p with r_p < l_j, or −1 (r is non-decreasing along the cells)."""
    S, N = left.shape
    big = int(max(right.max(), left.max())) + 2
    off = (np.arange(S, dtype=np.int64) * big)[:, None]
    idx = np.searchsorted((right + off).ravel(), (left + off).ravel(), side="left").reshape(S, N)
    return idx - np.arange(S)[:, None] * N - 1


def _block(left, right, a, k: int, m: int, ee: float, base: int):
    """The potential rows of one shift (module docstring, "compact"): COO triplets and row bounds.

    Columns: q_t = t (t < m), C_t = m + t − 1 (t = 1..m, C_t = Σ_{t'<t} q_t'), PM_j = base + j,
    GM_j = base + N + j.  Rows (all ≥ 0 except the last, PM_{N−1} ≤ δ):
    PM_j − PM_{j−1};  PM_j − PM_a − q + e^ε C_{r+1} − e^ε C_l;  PM_j − GM_{j−1} − q + e^ε C_{r+1};
    GM_j − GM_{j−1} − q;  GM_j − PM_a − q − e^ε C_l.
    """
    N = left.size
    j = np.arange(N)
    pm, gm, qv = base + j, base + N + j, k + j
    c_l = np.where(left > 0, m + left - 1, -1)  # C_0 = 0: dropped
    c_r = m + right  # C_{r+1}
    rows, cols, vals = [], [], []
    r0 = 0

    def add(terms, mask):
        nonlocal r0
        idx = np.nonzero(mask)[0]
        rid = r0 + np.arange(idx.size)
        for col, val in terms:
            col = np.broadcast_to(col, (N,))[idx]
            val = np.broadcast_to(val, (N,))[idx]
            ok = col >= 0
            rows.append(rid[ok])
            cols.append(col[ok])
            vals.append(np.asarray(val[ok], dtype=float))
        r0 += idx.size

    ones = np.ones(N)
    pm_a = np.where(a >= 0, base + a, -1)
    gm_prev = base + N + j - 1
    pm_prev = base + j - 1
    later = j >= 1
    add([(pm, ones), (pm_prev, -ones)], later)
    add([(pm, ones), (pm_a, -ones), (qv, -ones), (c_r, ee * ones), (c_l, -ee * ones)], np.ones(N, bool))
    add([(pm, ones), (gm_prev, -ones), (qv, -ones), (c_r, ee * ones)], later)
    add([(gm, ones), (gm_prev, -ones), (qv, -ones)], later)
    add([(gm, ones), (pm_a, -ones), (qv, -ones), (c_l, -ee * ones)], np.ones(N, bool))
    n_ge = r0
    rows.append(np.array([r0]))
    cols.append(np.array([base + N - 1]))
    vals.append(np.array([1.0]))
    r0 += 1
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), n_ge, r0


def _check_q(partition, q) -> np.ndarray:
    m = partition.n_cells + 2 * partition.k
    q = check_array("q", q, shape=(m,))
    if np.any(q < -1e-9):
        raise ValueError(f"q must be >= 0 (padded cell masses), got minimum {q.min():.3g}")
    return np.clip(q, 0.0, None)


def worst_events(partition, epsilon, q, shifts=None):
    """Exact separation of C(π, β): for every shift s, max over events A of Σ_A q − e^ε q(cover_s(A)).

    Parameters
    ----------
    partition
        The unpadded cells π (thesis §1.4.1, L793); q lives on ``partition.padded()`` (L803).
    epsilon
        ε > 0.
    q
        Padded cell masses, shape (N + 2k,), ≥ 0.
    shifts
        Integers in [−k, k]; default :func:`default_shifts`.

    Returns
    -------
    (shifts, values, events)
        ``values[r] ≥ 0`` is the maximum (0 for the empty event) and ``events[r]`` the boolean mask over
        the N unpadded cells of a maximiser.  A constraint is violated iff ``values[r] > δ``.
    """
    _check_partition(partition)
    eps = check_positive("epsilon", epsilon)
    q = _check_q(partition, q)
    shifts = default_shifts(partition) if shifts is None else _check_shifts(shifts, partition.k)
    left, right = cover_intervals(partition, shifts)
    values, events = _dp(q, left, right, partition.k, math.exp(eps))
    return shifts, values, events


def event_value(partition, epsilon, q, shift: int, event) -> float:
    """Σ_{j∈A} q_j − e^ε Σ_{j'∈cover_s(A)} q_{j'} for one event mask over the unpadded cells."""
    _check_partition(partition)
    eps = check_positive("epsilon", epsilon)
    q = _check_q(partition, q)
    event = np.asarray(event, dtype=bool)
    if event.shape != (partition.n_cells,):
        raise ValueError(f"event must be a boolean mask of shape ({partition.n_cells},), got {event.shape}")
    row = _rows(partition, math.exp(eps), _check_shifts([shift], partition.k), event[None, :])
    return float((row @ q)[0])


def worst_events_bruteforce(partition, epsilon, q, shifts=None) -> np.ndarray:
    """max over all 2^N events of Σ_A q − e^ε q(cover_s(A)), by enumeration (N ≤ 14; for the tests)."""
    _check_partition(partition)
    eps = check_positive("epsilon", epsilon)
    q = _check_q(partition, q)
    N = partition.n_cells
    if N > 14:
        raise ValueError(f"partition must have at most 14 cells for brute force, got {N}")
    shifts = default_shifts(partition) if shifts is None else _check_shifts(shifts, partition.k)
    pb = partition.padded().breaks
    b = partition.breaks
    ee = math.exp(eps)
    masks = ((np.arange(2**N)[:, None] >> np.arange(N)[None, :]) & 1).astype(bool)
    out = np.zeros(shifts.size)
    for r, s in enumerate(shifts):
        best = 0.0
        for m in masks[1:]:
            covered = np.zeros(pb.size - 1, dtype=bool)
            for j in np.nonzero(m)[0]:
                a, c = b[j] - s, b[j + 1] - s  # Π_j − s = [a, c) in fine units
                covered |= (pb[:-1] < c) & (pb[1:] > a)
            val = q[partition.k : partition.k + N][m].sum() - ee * q[covered].sum()
            best = max(best, val)
        out[r] = best
    return out


def _rows(partition, ee: float, shifts: np.ndarray, events: np.ndarray) -> sp.csr_matrix:
    """Constraint rows (Σ_A q − e^ε q(cover)) for the given shifts and event masks, as CSR over 𝔑."""
    k, N = partition.k, partition.n_cells
    m = N + 2 * k
    left, right = cover_intervals(partition, shifts)
    R = shifts.size
    diff = np.zeros((R, m + 1))
    rr, jj = np.nonzero(events)
    np.add.at(diff, (rr, left[rr, jj]), 1.0)
    np.add.at(diff, (rr, right[rr, jj] + 1), -1.0)
    covered = np.cumsum(diff[:, :m], axis=1) > 0
    dense = -ee * covered.astype(float)
    dense[rr, k + jj] += 1.0
    return sp.csr_matrix(dense)


def _solve_potential(h, partition, shifts, left, right, ee, d, tol, max_seconds, max_blocks, name, start):
    """Shift generation on the exact potential LP: add a shift's whole DP block when it is violated."""
    import highspy

    inf = highspy.kHighsInf
    k, N = partition.k, partition.n_cells
    m = N + 2 * k
    # cumulative columns C_1..C_m and their defining rows C_t − C_{t−1} − q_{t−1} = 0
    h.addVars(m, np.full(m, -inf), np.full(m, inf))
    t = np.arange(m)
    r_idx = np.concatenate([t, t[1:], t])
    c_idx = np.concatenate([m + t, m + t[1:] - 1, t])
    v_idx = np.concatenate([np.ones(m), -np.ones(m - 1), -np.ones(m)])
    bd._add_rows(h, sp.csr_matrix((v_idx, (r_idx, c_idx)), shape=(m, 2 * m)), np.zeros(m), np.zeros(m))
    n_cols, n_rows = 2 * m, 1 + m
    a_all = _last_before(left, right)
    present = np.zeros(shifts.size, dtype=bool)
    state = _GenerationState()
    while True:
        pick = state.round(h, name, m, k, ee, d, left, right, present, n_rows, tol, max_seconds, max_blocks,
                           start)
        if pick is None:
            return state.result(n_rows)
        blocks = []
        for r in pick[0]:
            h.addVars(2 * N, np.r_[np.zeros(N), np.full(N, -inf)], np.full(2 * N, inf))
            blocks.append(_block(left[r], right[r], a_all[r], k, m, ee, n_cols))
            n_cols += 2 * N
            present[r] = True
        n_rows += _add_blocks(h, blocks, n_cols, d)


class _GenerationState:
    """The loop of Algorithm 1 (L819) shared by the flow, potential and cut LPs.

    :meth:`round` solves the current relaxation, separates the shifts not ``present`` in it exactly
    (:func:`_dp`) and returns the up to ``max_blocks`` most violated shifts with their worst events, or
    ``None`` when no shortfall exceeds δ + ``tol``; past ``max_seconds`` it raises :class:`_Limit`
    carrying the last relaxation.  (The cut LP never marks a shift present: it may need several cuts.)
    """

    def __init__(self):
        self.rnd, self.history, self.t_lp, self.t_sep = 0, [], 0.0, 0.0
        self.q, self.obj = None, math.nan

    def result(self, n_rows: int):
        return self.q, self.obj, self.rnd, n_rows, self.history, self.t_lp, self.t_sep

    def round(self, h, name, m, k, ee, d, left, right, present, n_rows, tol, max_seconds, max_blocks, start):
        self.rnd += 1
        t0 = time.perf_counter()
        x, self.obj = bd._run(h, name)
        self.t_lp += time.perf_counter() - t0
        self.q = np.clip(x[:m], 0.0, None)
        t0 = time.perf_counter()
        todo = np.nonzero(~present)[0]
        worst = -np.inf
        if todo.size:
            values, events = _dp(self.q, left[todo], right[todo], k, ee)
            viol = values - d
            worst = float(viol.max())
        self.t_sep += time.perf_counter() - t0
        self.history.append((self.rnd, self.obj, worst))
        if worst <= tol:
            return None
        if time.perf_counter() - start > max_seconds:
            msg = f"max shortfall {worst:.3g} after {self.rnd} rounds; relaxation value {self.obj:.10g}"
            raise _Limit(name, bd.SOLVER_NAME, "time_limit", msg, self.result(n_rows))
        pos = np.nonzero(viol > tol)[0]
        if pos.size > max_blocks:
            pos = np.argsort(-viol)[:max_blocks]
        return todo[pos], events[pos]


def _add_blocks(h, blocks, n_cols: int, d: float) -> int:
    """Add shift blocks to the model in one call; returns the number of rows added.

    Each block is (COO rows, cols, vals, n_ge, n_rows) as :func:`_block` / :func:`_flow_block` return
    it: ``n_ge`` rows ≥ 0, then one budget row ≤ δ.
    """
    import highspy

    inf = highspy.kHighsInf
    rr, cc, vv, lo, hi = [], [], [], [], []
    r_off = 0
    for br, bc, bv, n_ge, n_blk in blocks:
        rr.append(br + r_off)
        cc.append(bc)
        vv.append(bv)
        lo += [np.zeros(n_ge), [-inf]]
        hi += [np.full(n_ge, inf), [d]]
        r_off += n_blk
    mat = sp.csr_matrix((np.concatenate(vv), (np.concatenate(rr), np.concatenate(cc))), shape=(r_off, n_cols))
    bd._add_rows(h, mat, np.concatenate(lo), np.concatenate(hi))
    return r_off


class _Limit(SolverError):
    """Time limit inside a solver loop, carrying the last relaxation (a valid, weaker bound)."""

    def __init__(self, problem, solver, status, detail, state):
        super().__init__(problem, solver, status, detail)
        self.state = state


def _flow_block(left, right, k: int, ee: float, base: int):
    """Dual (flow) rows of one shift: exact because the event problem is totally unimodular.

    max Σ_j v_j y_j − e^ε Σ_t q_t u_t s.t. y_j ≤ u_t (t ∈ cover_j), 0 ≤ y, u ≤ 1 has a network matrix,
    so its LP value is the max over events; its LP dual is min Σ α + Σ β over α_j ≥ v_j − Σ_t π_jt,
    β_t ≥ Σ_j π_jt − e^ε q_t, α, β, π ≥ 0.  Columns from ``base``: π (one per pair j, t ∈ [l_j, r_j]),
    α (N), β (one per covered cell).  Returns (COO rows, cols, vals, n_ge, n_rows, n_new_cols).
    """
    N = left.size
    cnt = right - left + 1
    pj = np.repeat(np.arange(N), cnt)
    pt = np.concatenate([np.arange(a, b + 1) for a, b in zip(left, right, strict=True)])
    P = pj.size
    cells, t_idx = np.unique(pt, return_inverse=True)
    T = cells.size
    pi_col = base + np.arange(P)
    al_col = base + P + np.arange(N)
    be_col = base + P + N + np.arange(T)
    # rows 0..N-1: α_j + Σ π_jt − q_{k+j} ≥ 0
    r1 = np.concatenate([np.arange(N), pj, np.arange(N)])
    c1 = np.concatenate([al_col, pi_col, k + np.arange(N)])
    v1 = np.concatenate([np.ones(N), np.ones(P), -np.ones(N)])
    # rows N..N+T-1: β_t − Σ π_jt + e^ε q_t ≥ 0
    r2 = N + np.concatenate([np.arange(T), t_idx, np.arange(T)])
    c2 = np.concatenate([be_col, pi_col, cells])
    v2 = np.concatenate([np.ones(T), -np.ones(P), np.full(T, ee)])
    # budget Σ α + Σ β ≤ δ
    r3 = np.full(N + T, N + T)
    c3 = np.concatenate([al_col, be_col])
    v3 = np.ones(N + T)
    return (np.concatenate([r1, r2, r3]), np.concatenate([c1, c2, c3]), np.concatenate([v1, v2, v3]),
            N + T, N + T + 1, P + N + T)  # fmt: skip


def _solve_flow(h, partition, shifts, left, right, ee, d, tol, max_seconds, max_blocks, name, start):
    """Shift generation on the exact flow LP: add a shift's whole dual block when it is violated."""
    import highspy

    inf = highspy.kHighsInf
    k, N = partition.k, partition.n_cells
    m = N + 2 * k
    n_cols, n_rows = m, 1
    present = np.zeros(shifts.size, dtype=bool)
    state = _GenerationState()
    while True:
        pick = state.round(h, name, m, k, ee, d, left, right, present, n_rows, tol, max_seconds, max_blocks,
                           start)
        if pick is None:
            return state.result(n_rows)
        blocks, c_new = [], 0
        for r in pick[0]:
            *block, n_new = _flow_block(left[r], right[r], k, ee, n_cols + c_new)
            blocks.append(block)
            c_new += n_new
            present[r] = True
        h.addVars(c_new, np.zeros(c_new), np.full(c_new, inf))
        n_cols += c_new
        n_rows += _add_blocks(h, blocks, n_cols, d)


def cover_lower_bound(
    epsilon,
    delta,
    partition,
    loss="l1",
    *,
    shifts=None,
    tol: float = 1e-9,
    max_rounds: int = 2000,
    max_seconds: float = 900.0,
    max_cuts: int = 400,
    seed=None,
    method: str = "flow",
    max_blocks: int = 16,
    on_limit: str = "raise",
) -> bd.BoundResult:
    """The cover bound C(π, β) ≤ P: a lower bound on the optimal noise valid on any partition π.

    Thesis §1.4.1 (L801–L805, the D(π, β) whose formula is lost) and Corollary 1 (L807); the validity
    argument is in the module docstring.  Solved in the spirit of Algorithm 1 (L819): one HiGHS model,
    the exact DP separation of :func:`worst_events` (our analogue of Algorithm 2, L831–L852) finds the
    violated shifts, and their constraints are added in place (dual simplex warm-started from the
    previous basis) until no shift is violated by more than ``tol``.  Every intermediate LP is a
    relaxation of C(π, β), hence also a valid (weaker) lower bound.

    Parameters
    ----------
    epsilon, delta
        ε > 0, δ ∈ [0, 1).
    partition
        The cells π on the fine grid β = Δf/k (:func:`refined_partition`, :func:`bounds.uniform_partition`).
    loss
        ``"l1"`` or ``"l2"`` (c̲ on the outermost padding cell must also bound c beyond it, which holds
        for these two losses).
    shifts
        Shifts used in the constraints (integers in [−k, k]); default: all breakpoint differences.
        Fewer shifts give a weaker but still valid bound.
    tol
        Stop when no shortfall exceeds δ + ``tol``.
    max_rounds, max_seconds
        Limits (``max_rounds`` for ``"cuts"``); when hit a :class:`SolverError` is raised (the last
        relaxation value, a valid but weaker bound, is in the message).
    max_cuts
        ``"cuts"``: at most this many shifts (the most violated) receive a cut per round.
    seed
        ``"cuts"`` only: optional warm start: masses on the unpadded cells (e.g. the upper bound's
        optimal masses, shape (N,)) or on the padded cells (shape (N + 2k,)).  Before the first solve,
        the worst event of every shift at the seed is added as a cut (same LP optimum).
    method
        ``"flow"`` (default): the exact LP in which each shift's constraints over all 2^N events are
        replaced by the LP dual of that shift's event problem, which is totally unimodular (see
        :func:`_flow_block`): flows π_jt ≥ 0 from event cells j to cells t ∈ cover_s(j) with
        α_j ≥ q_j − Σ_t π_jt, β_t ≥ Σ_j π_jt − e^ε q_t, Σ α + Σ β ≤ δ — a transportation structure
        like the epigraph of the uniform grid (one α per cell).  Shifts are added block by block
        (``max_blocks`` most violated per round) while the DP finds a violated shift.
        ``"potential"``: the exact LP in which each shift's constraints over all 2^N events are
        replaced by the O(N) potential (dual-of-DP) rows of that shift — PM_j ≥ PM_{j−1}, PM_j ≥ F_j,
        GM_j ≥ GM_{j−1} + q, … with PM_{N−1} ≤ δ — added shift by shift while the DP finds a violated
        shift (``max_blocks`` per round).  Feasible potentials exist iff the DP maximum is ≤ δ, so this
        is the same LP optimum.  ``"cuts"``: Algorithm 1 with one event cut per violated shift.
    max_blocks
        Shift blocks added per round by ``"flow"`` and ``"potential"``.
    on_limit
        ``"raise"`` (default) or ``"relaxation"``: when ``max_seconds`` is hit, return the last
        relaxation instead (its value is a valid, weaker lower bound: it minimises over a superset of the
        feasible set of C(π, β)); the result then has ``profile["converged"] = False`` and
        ``max_shortfall`` > ``tol``.

    Returns
    -------
    BoundResult
        ``kind="lower"``, ``method="cover_<method>"``, ``masses`` on ``partition.padded()``.
    """
    _check_partition(partition)
    eps, d, _ = validate_privacy(epsilon, delta, partition.sensitivity)
    check_choice("loss", loss, LOSSES)
    tol = check_positive("tol", tol)
    max_rounds = check_integer("max_rounds", max_rounds, minimum=1)
    max_seconds = check_positive("max_seconds", max_seconds)
    max_cuts = check_integer("max_cuts", max_cuts, minimum=1)
    max_blocks = check_integer("max_blocks", max_blocks, minimum=1)
    check_choice("method", method, ("flow", "potential", "cuts"))
    check_choice("on_limit", on_limit, ("raise", "relaxation"))
    if partition.lo > 0 or partition.hi < 1:
        raise ValueError(
            f"partition must contain the cell [0, beta): breaks from {partition.lo} to {partition.hi}"
        )
    shifts = default_shifts(partition) if shifts is None else _check_shifts(shifts, partition.k)
    if seed is not None and method != "cuts":
        raise ValueError(f"seed is only used by method='cuts'; got seed with method={method!r}")
    pad = partition.padded()
    costs = bd.cell_costs(pad.edges, loss, "inf")
    m = pad.n_cells
    ee = math.exp(eps)
    name = f"dp_noise.C(pi,beta) eps={eps:g} delta={d:g} k={partition.k} N={partition.n_cells}"
    left, right = cover_intervals(partition, shifts)
    h = bd._highs(m, costs)
    h.setOptionValue("solver", "simplex")
    bd._add_rows(h, sp.csr_matrix(np.ones((1, m))), np.ones(1), np.ones(1))
    start = time.perf_counter()
    converged = True
    args = (h, partition, shifts, left, right, ee, d, tol, max_seconds)
    try:
        if method == "flow":
            q, obj, rnd, n_rows, history, t_lp, t_sep = _solve_flow(*args, max_blocks, name, start)
        elif method == "potential":
            q, obj, rnd, n_rows, history, t_lp, t_sep = _solve_potential(*args, max_blocks, name, start)
        else:
            q, obj, rnd, n_rows, history, t_lp, t_sep = _solve_cuts(
                *args, max_cuts, max_rounds, seed, name, start
            )
    except _Limit as exc:
        if on_limit == "raise":
            raise SolverError(exc.problem_name, exc.solver, exc.status, exc.detail) from None
        q, obj, rnd, n_rows, history, t_lp, t_sep = exc.state
        converged = False
    except InfeasibleError as exc:  # Σ q = 1 with q on the padding is always feasible; be explicit anyway
        raise ValueError(f"the cover bound LP is infeasible on this partition: {exc}") from exc
    wall = time.perf_counter() - start
    q = q / q.sum()
    return bd.BoundResult(
        kind="lower",
        value=float(costs @ q),
        masses=q,
        partition=pad,
        epsilon=eps,
        delta=d,
        loss=loss,
        method=f"cover_{method}",
        solver=bd.SOLVER_NAME,
        solver_version=solver_version("HIGHS"),
        wall_time=wall,
        iterations=rnd,
        n_constraints=n_rows,
        max_shortfall=history[-1][2],
        history=history,
        profile={
            "rounds": rnd,
            "rows": n_rows,
            "seconds_lp": t_lp,
            "seconds_separation": t_sep,
            "seconds": wall,
            "relaxation_value": obj,
            "converged": converged,
        },  # fmt: skip
    )


def _solve_cuts(h, partition, shifts, left, right, ee, d, tol, max_seconds, max_cuts, max_rounds, seed, name,
                start):  # fmt: skip
    """Algorithm 1 (L819) with the DP separation: one event cut per violated shift and round."""
    import highspy

    inf = highspy.kHighsInf
    k = partition.k
    m = partition.n_cells + 2 * k
    n_rows = 1
    if seed is not None:
        seed = check_array("seed", seed, ndim=1)
        if seed.size == partition.n_cells:
            seed = np.concatenate([np.zeros(k), seed, np.zeros(k)])
        _, events0 = _dp(_check_q(partition, seed), left, right, k, ee)
        keep = events0.any(axis=1)
        if keep.any():
            bd._add_rows(h, _rows(partition, ee, shifts[keep], events0[keep]),
                         np.full(int(keep.sum()), -inf), np.full(int(keep.sum()), d))  # fmt: skip
            n_rows += int(keep.sum())
    state = _GenerationState()
    every_shift = np.zeros(shifts.size, dtype=bool)  # never marked present: a shift may need several cuts
    while state.rnd < max_rounds:
        found = state.round(h, name, m, k, ee, d, left, right, every_shift, n_rows, tol, max_seconds,
                            max_cuts, start)
        if found is None:
            return state.result(n_rows)
        pick, events = found
        bd._add_rows(h, _rows(partition, ee, shifts[pick], events),
                     np.full(pick.size, -inf), np.full(pick.size, d))  # fmt: skip
        n_rows += pick.size
    raise SolverError(name, bd.SOLVER_NAME, "iteration_limit", f"no convergence in {max_rounds} rounds")


def refined_partition(
    L: int,
    k: int,
    sensitivity: float = 1.0,
    *,
    coarse: int,
    core: int = 0,
    centres=(0.0,),
    growth: float = 1.5,
):
    """A non-uniform π for the bounds: a lattice of ``coarse`` fine cells, refined to single fine cells
    near ``centres`` (thesis §1.4.1, L791: "steep peaks around 0 with gradually declining tails"; the
    optimal noise of Fig. 4 (L900) jumps near 0 and near multiples of Δf).

    Breakpoints: every multiple of ``coarse`` in the event range [−L, L+1) (so that the shifts ±Δf map
    lattice cells onto lattice cells when ``coarse`` divides k), the two range ends, and around each
    centre c (in units of Δf) the points c·k ± (0, 1, …, core) followed by gaps growing by ``growth``
    up to ``coarse``.

    Parameters
    ----------
    L, k, sensitivity
        Range [−Lβ, (L+1)β) with β = Δf/k, as :func:`bounds.uniform_partition`.
    coarse
        Lattice width in fine cells (≥ 1; 1 gives the uniform partition).
    core
        Half-width, in fine cells, of the single-fine-cell block around each centre (≥ 0).
    centres
        Points in units of Δf (e.g. 0 and ±1, ±2, …).
    growth
        Factor ≥ 1 between consecutive gaps after the core.
    """
    L = check_integer("L", L, minimum=1)
    k = check_integer("k", k, minimum=1)
    coarse = check_integer("coarse", coarse, minimum=1)
    core = check_integer("core", core, minimum=0)
    growth = check_positive("growth", growth)
    if growth < 1:
        raise ValueError(f"growth must be >= 1, got growth={growth!r}")
    cs = np.atleast_1d(check_array("centres", centres, ndim=None))
    if cs.ndim != 1:
        raise ValueError(f"centres must be a number or a 1-d sequence of numbers, got shape {cs.shape}")
    lo, hi = -L, L + 1
    first = -(L // coarse) * coarse
    pts = set(range(first, hi + 1, coarse)) | {lo, hi}
    for c in cs:
        c0 = int(round(c * k))
        pts.update(range(c0 - core, c0 + core + 2))
        for sign in (1, -1):
            x, w = float(core + 1), 1.0
            while x < core + 2 * coarse:
                w = min(w * growth, coarse)
                x += w
                pts.add(c0 + (1 if sign > 0 else 0) + sign * int(round(x)))
    br = np.array(sorted(p for p in pts if lo <= p <= hi), dtype=np.int64)
    return bd.Partition(br, k, sensitivity)

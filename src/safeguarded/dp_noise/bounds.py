"""The data-independent bounding LPs of thesis §1.2 and §1.4: P(L, β), D(L, β), P(π, β), D(π, β).

Notation (thesis L555–L633, L791–L809).  The real line is cut into fine cells I_i(β) = [iβ, (i+1)β)
with β = Δf/k.  A *partition* π (:class:`Partition`) groups consecutive fine cells into the N cells
Π_j(β) = [π_j β, π_{j+1} β), j ∈ [N], that carry the decision masses p(j) ≥ 0, Σ_j p(j) = 1; the noise
density is p(j)/|Π_j| on Π_j (restriction (2), L555, and its non-uniform version L795–L799).  The
uniform partition π = (−L, …, L+1) gives P(L, β) (Prop. 1, L572–L578).

For a shift φ = sβ ∈ 𝓑(β) = {−Δf, …, Δf} and an event A that is a union of fine cells inside the
*event range* [−Lβ, (L+1)β), the DP constraint is (Prop. 1; eq. (9) for its shortfall, L815–L817)

    V(φ, A) = Σ_{i∈A} d_i − e^ε Σ_{i∈A} d_{i−s} − δ ≤ 0,

where d_i is the mass of fine cell i (p(j)/n_j for the n_j fine cells of Π_j; 0 outside the cells).
For fixed s the worst event is A* = {i : d_i > e^ε d_{i−s}} (Lemmas 4–5, L1084–L1147), so the
exponentially many events never have to be enumerated.

* **Upper bound** P(π, β): the cells are π itself, costs c_j = |Π_j|⁻¹∫_{Π_j} c (L797).
* **Lower bound** D(π, β), implemented through its LP dual (L1456, L1494–L1499; catalog §3.2): the same
  problem with the cells padded by Δf/β single fine cells at both ends (index set 𝔑, L803), costs
  c̲_j = inf_{Π_j} c, and events still restricted to the unpadded range.  By LP duality its value equals
  that of the maximisation problem D(L, β) of Prop. 3 (L631–L633).

Exact solution methods, cross-checked in the tests:

``"compact"``
    an epigraph reformulation: for each relevant shift s and each pair (j, j') of cells that overlap
    as Π_j ∩ (Π_{j'} + φ), an auxiliary t ≥ p(j)/n_j − e^ε p(j')/n_{j'}, t ≥ 0, weighted by the overlap
    length; Σ t + (uncovered parts) ≤ δ.  This is exactly the maximum over A (the pairs are the ones of
    Algorithm 2, L831–L852).  One sparse LP, solved by HiGHS.
``"cutting_plane"``
    Algorithm 1 (L819): solve a relaxation with the constraints found so far, add for every shift the
    most violated event (the separation of Algorithm 2, vectorised over fine cells), re-solve
    warm-started with HiGHS dual simplex, until no shortfall exceeds ``tol``.

``"ipm"`` (uniform partitions; :mod:`safeguarded.dp_noise.ipm`)
    the compact LP by a primal–dual interior-point method whose Newton systems are reduced to the cell
    masses, for the thesis's ≈ 2,000-cell grids (up to 2 million epigraph terms); its values are certified
    bounds (exactly checked masses above, clipped Lagrangian multipliers below), cross-checked against the
    two methods above in ``tests/test_dp_noise_ipm.py``.

Only shifts in the difference set {π_j − π_{j'}} ∪ {±k} need to be checked (the shortfall is
piecewise linear in φ between those breakpoints; Algorithm 2's outer loop).

All LPs are solved by HiGHS (``highspy``) directly; the records name it ``"HIGHS (highspy)"``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise.mechanisms import PiecewiseUniformNoise, _finite_float, validate_privacy
from safeguarded.solvers import InfeasibleError, SolverError, solver_version
from safeguarded.validation import check_array, check_bool, check_integer, check_positive, check_type

__all__ = [
    "Partition",
    "uniform_partition",
    "symmetric_partition",
    "graded_partition",
    "support_rule",
    "BoundResult",
    "cell_costs",
    "upper_bound",
    "lower_bound",
    "l1_uniform_bounds",
    "l1_upper_from_lower",
    "privacy_shortfalls",
    "separation_algorithm2",
    "separation_algorithm3",
    "max_shortfall_bruteforce",
    "relative_gap",
    "interval_split",
    "SOLVER_NAME",
]

SOLVER_NAME = "HIGHS (highspy)"
LOSSES = ("l1", "l2")
METHODS = ("generation", "compact", "cutting_plane", "ipm")


# --------------------------------------------------------------------------------------------------
# partitions
# --------------------------------------------------------------------------------------------------
def _positive_int(name: str, value) -> int:
    if isinstance(value, bool) or int(value) != value or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
    return int(value)


@dataclass(frozen=True)
class Partition:
    """Cells Π_j = [breaks[j]·β, breaks[j+1]·β) on the fine grid β = Δf/k (thesis §1.4.1, L793).

    Parameters
    ----------
    breaks
        Strictly increasing integers π_1 < … < π_{N+1} (fine-cell indices).
    k
        Fine cells per sensitivity: β = Δf/k (L637: "β as Δf/k for some k ∈ ℕ").
    sensitivity
        Δf > 0.
    """

    breaks: np.ndarray
    k: int
    sensitivity: float = 1.0

    def __post_init__(self):
        b = np.asarray(self.breaks)
        if b.ndim != 1 or b.size < 2 or not np.all(np.equal(np.mod(b, 1), 0)):
            raise ValueError("breaks must be a 1-D array of at least 2 integers")
        b = b.astype(np.int64)
        if np.any(np.diff(b) <= 0):
            raise ValueError("breaks must be strictly increasing")
        _positive_int("k", self.k)
        s = _finite_float("sensitivity", self.sensitivity)
        if s <= 0:
            raise ValueError(f"sensitivity must be in (0, inf), got sensitivity={self.sensitivity!r}")
        object.__setattr__(self, "breaks", b)

    @property
    def beta(self) -> float:
        return self.sensitivity / self.k

    @property
    def n_cells(self) -> int:
        return self.breaks.size - 1

    @property
    def widths(self) -> np.ndarray:
        """n_j: number of fine cells in Π_j."""
        return np.diff(self.breaks)

    @property
    def edges(self) -> np.ndarray:
        """Cell edges in noise units (π·β)."""
        return self.breaks * self.beta

    @property
    def lo(self) -> int:
        return int(self.breaks[0])

    @property
    def hi(self) -> int:
        return int(self.breaks[-1])

    def padded(self) -> Partition:
        """π padded with Δf/β single fine cells at both ends: the index set 𝔑 of D(π, β) (L803)."""
        left = np.arange(self.lo - self.k, self.lo)
        right = np.arange(self.hi + 1, self.hi + self.k + 1)
        return Partition(np.concatenate([left, self.breaks, right]), self.k, self.sensitivity)


def uniform_partition(L: int, k: int, sensitivity: float = 1.0) -> Partition:
    """Cells I_i(β), i ∈ [±L], with β = Δf/k: the partition of P(L, β) (eq. (3), L568)."""
    L = _positive_int("L", L)
    return Partition(np.arange(-L, L + 2), k, sensitivity)


def symmetric_partition(L: int, k: int, sensitivity: float = 1.0) -> Partition:
    """Cells I_i(β), i = −L … L − 1: the grid [−Lβ, Lβ) of the thesis's code (``arange(-limits, limits)``).

    It is symmetric about 0 (Prop. 1's grid, :func:`uniform_partition`, has one more cell, [Lβ, (L+1)β)),
    so P and D on it have mirror-symmetric optima, which ``method="ipm"`` exploits (:func:`.ipm.fold`).
    """
    L = _positive_int("L", L)
    return Partition(np.arange(-L, L + 1), k, sensitivity)


def graded_partition(L: int, k: int, sensitivity: float = 1.0, *, fine: int | None = None, growth=1.25):
    """A non-uniform π (§1.4.1): single fine cells on [−fine, fine], widths growing geometrically outside.

    Motivated by L791 ("steep peaks around 0 with gradually declining tails").  ``fine`` defaults to
    2k (two sensitivities each side); cell widths grow by ``growth`` per cell (rounded up to integers)
    up to k fine cells (one sensitivity).  The outermost cells end exactly at −L and L+1.
    """
    L = _positive_int("L", L)
    k = _positive_int("k", k)
    fine = min(L, 2 * k if fine is None else _positive_int("fine", fine))
    growth = _finite_float("growth", growth)
    if growth < 1:
        raise ValueError(f"growth must be >= 1, got growth={growth!r}")
    right = list(range(1, fine + 2))  # breaks 1..fine+1 (cells [0,1), …, [fine, fine+1))
    width = 1.0
    while right[-1] < L + 1:
        width = min(width * growth, float(k))
        right.append(min(right[-1] + math.ceil(width), L + 1))
    # mirror: cell [a, b) on the right ↔ [−b+1, −a+1) on the left, so the partition is symmetric
    # about x = β/2 like the uniform grid [−L, L+1)
    left = sorted({1 - b for b in right if b >= 1})
    breaks = np.array(sorted(set(left) | {0} | set(right)), dtype=np.int64)
    breaks = breaks[(breaks >= -L) & (breaks <= L + 1)]
    if breaks[0] != -L:
        breaks = np.concatenate([[-L], breaks])
    return Partition(breaks, k, sensitivity)


def support_rule(epsilon, delta, sensitivity: float = 1.0) -> int:
    """Λ = ⌈(1/ε)·log(1 + (e^ε − 1)/(2δ))⌉: supports [−ΛΔf, ΛΔf] with k ≥ 2 make P feasible (supp. p.10).

    Λ·Δf bounds the truncated-Laplace support A from above (catalog §2.2).
    """
    eps, d, _ = validate_privacy(epsilon, delta, sensitivity, delta_positive=True)
    from safeguarded.dp_noise.mechanisms import _tlap_log1pq

    return max(1, math.ceil(_tlap_log1pq(eps, d) / eps - 1e-12))


# --------------------------------------------------------------------------------------------------
# costs
# --------------------------------------------------------------------------------------------------
def cell_costs(edges: np.ndarray, loss, kind: str) -> np.ndarray:
    """c_j = |Π_j|⁻¹∫_{Π_j} c (``kind="mean"``, L797) or c̲_j = inf_{Π_j} c (``kind="inf"``, L621).

    ``loss`` is ``"l1"`` (|x|), ``"l2"`` (x²) or a callable c(x) (vectorised; continuous and coercive,
    Assumption 1); for a callable, the mean uses adaptive quadrature (split at 0) and the infimum a dense
    evaluation (201 points per cell including the end points and 0), which is exact for piecewise-monotone c.
    """
    edges = check_array("edges", edges, ndim=1)
    if edges.size < 2 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"edges must hold >= 2 strictly increasing values, got edges={edges!r}")
    a, b = edges[:-1], edges[1:]
    if kind not in ("mean", "inf"):
        raise ValueError(f"kind must be 'mean' or 'inf', got kind={kind!r}")
    if loss == "l1":
        if kind == "mean":
            inside = (a < 0) & (b > 0)
            return np.where(inside, (a * a + b * b) / (2 * (b - a)), np.abs(a + b) / 2)
        return np.where((a <= 0) & (b > 0), 0.0, np.minimum(np.abs(a), np.abs(b)))
    if loss == "l2":
        if kind == "mean":
            return (a * a + a * b + b * b) / 3.0
        return np.where((a <= 0) & (b > 0), 0.0, np.minimum(a * a, b * b))
    if callable(loss):
        if kind == "mean":
            from scipy import integrate

            def avg(lo, hi):
                pts = [0.0] if lo < 0 < hi else None
                return integrate.quad(lambda x: float(loss(x)), lo, hi, points=pts, limit=200)[0] / (hi - lo)

            return np.array([avg(lo, hi) for lo, hi in zip(a, b, strict=True)])
        pts = a[:, None] + (b - a)[:, None] * np.linspace(0, 1, 201)[None, :]
        zero = np.where((a < 0) & (b > 0), 0.0, a)[:, None]  # include x = 0 where the cell holds it
        return np.asarray(loss(np.hstack([pts, zero])), dtype=float).min(axis=1)
    raise ValueError(f"loss must be one of {LOSSES} or a callable, got loss={loss!r}")


# --------------------------------------------------------------------------------------------------
# separation: the worst event per shift
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Problem:
    """An LP of the family P(π, β)/D(π, β): cells, event range, privacy parameters, costs."""

    cells: Partition
    ev_lo: int
    ev_hi: int
    epsilon: float
    delta: float
    costs: np.ndarray
    shifts: np.ndarray = field(default=None)

    def __post_init__(self):
        if self.shifts is None:
            object.__setattr__(self, "shifts", _relevant_shifts(self.cells, self.ev_lo, self.ev_hi))

    @property
    def n(self) -> int:
        return self.cells.n_cells


def _relevant_shifts(cells: Partition, ev_lo: int, ev_hi: int) -> np.ndarray:
    """Shifts s ∈ [−k, k] at which the shortfall can be maximal (Algorithm 2's outer loop, L835).

    Differences of breakpoints of the cells and of the event range, intersected with [−k, k], and ±k.
    """
    k = cells.k
    pts = np.unique(np.concatenate([cells.breaks, [ev_lo, ev_hi]]))
    if pts.size * pts.size > 4_000_000:  # too many: all shifts
        return np.arange(-k, k + 1)
    diff = np.unique((pts[:, None] - pts[None, :]).ravel())
    diff = diff[(diff >= -k) & (diff <= k) & (diff != 0)]
    return np.unique(np.concatenate([diff, [-k, k]]))


def _check_prob_masses(prob, masses, *, stacked: bool = False) -> np.ndarray:
    """``prob`` a :class:`_Problem` and ``masses`` its cell masses: shape (n,), or (K, n) when
    ``stacked``, finite and >= 0 (up to LP round-off)."""
    check_type("prob", prob, _Problem, "a _Problem (the LP of upper_bound / lower_bound)")
    masses = check_array("masses", masses, shape=(None, prob.n) if stacked else (prob.n,))
    if np.any(masses < -1e-9):
        raise ValueError(f"masses must be >= 0, got minimum {masses.min():.3g}")
    return masses


def _fine_cell_index(prob: _Problem) -> np.ndarray:
    """cell index of every fine cell in [cells.lo, cells.hi)."""
    return np.repeat(np.arange(prob.n), prob.cells.widths)


def _fine_density(prob: _Problem, masses: np.ndarray) -> np.ndarray:
    return np.repeat(masses / prob.cells.widths, prob.cells.widths)


def privacy_shortfalls(prob: _Problem, masses: np.ndarray, shifts=None):
    """V(φ, A*(φ)) + δ for every shift, with the worst events, computed on the fine grid.

    Returns ``(shifts, values, events)`` where ``values[r] = Σ_{i∈A*} (d_i − e^ε d_{i−s})`` (eq. (9)
    without the −δ) and ``events[r]`` is the boolean mask of A* over the event range.
    """
    masses = _check_prob_masses(prob, masses)
    if shifts is None:
        shifts = prob.shifts
    else:
        shifts = np.asarray(shifts)
        k = prob.cells.k
        if shifts.ndim != 1 or not np.issubdtype(shifts.dtype, np.integer) or np.any(np.abs(shifts) > k):
            raise ValueError(f"shifts must be a 1-D array of integers in [-{k}, {k}], got shifts={shifts!r}")
    d = _fine_density(prob, masses)
    lo, ev_lo, ev_hi = prob.cells.lo, prob.ev_lo, prob.ev_hi
    # padded density so that d[i − s] reads 0 outside the cells
    k = prob.cells.k
    pad = np.concatenate([np.zeros(k), d, np.zeros(k)])
    idx = np.arange(ev_lo, ev_hi) - lo + k
    ee = math.exp(prob.epsilon)
    rows = pad[idx][None, :] - ee * pad[idx[None, :] - shifts[:, None]]
    events = rows > 0
    values = np.where(events, rows, 0.0).sum(axis=1)
    return shifts, values, events


def _cut_row(prob: _Problem, s: int, event: np.ndarray) -> np.ndarray:
    """Coefficients of p in the DP constraint (φ = sβ, A): (|A∩Π_j| − e^ε|(A−φ)∩Π_j|)/|Π_j|."""
    lo, n = prob.cells.lo, prob.n
    fine = np.arange(prob.ev_lo, prob.ev_hi)[event]
    cell_of = _fine_cell_index(prob)
    j_pos = cell_of[fine - lo]
    src = fine - s - lo
    ok = (src >= 0) & (src < cell_of.size)
    j_neg = cell_of[src[ok]]
    w = prob.cells.widths
    return (np.bincount(j_pos, minlength=n) - math.exp(prob.epsilon) * np.bincount(j_neg, minlength=n)) / w


def _shortfall_on_cells(prob: _Problem, dens_pos: np.ndarray, dens_neg: np.ndarray, s: int) -> float:
    """Inner loops of Algorithms 2 and 3: V(φ, A*) + δ for φ = sβ, event mass from ``dens_pos`` and the
    shifted mass from ``dens_neg`` (densities per fine cell of the cells π; equal in Algorithm 2)."""
    b = prob.cells.breaks
    ee = math.exp(prob.epsilon)
    v = 0.0
    for j in range(prob.n):
        # Π_j restricted to the event range
        a, c = max(b[j], prob.ev_lo), min(b[j + 1], prob.ev_hi)
        if a >= c:
            continue
        # A_j: the part of Π_j outside the shifted cell range [lo + s, hi + s)
        inside = max(0, min(c, prob.cells.hi + s) - max(a, prob.cells.lo + s))
        v += (c - a - inside) * dens_pos[j]
        for jp in range(prob.n):
            if dens_pos[j] > ee * dens_neg[jp]:
                ov = min(c, b[jp + 1] + s) - max(a, b[jp] + s)  # A_jj' = Π_j ∩ (Π_j' + φ)
                if ov > 0:
                    v += ov * (dens_pos[j] - ee * dens_neg[jp])
    return v


def separation_algorithm2(prob: _Problem, masses: np.ndarray):
    """Algorithm 2 (L831–L852) on the cells (not the fine grid): max shortfall over (φ, A).

    For each φ in the difference set, every cell Π_j contributes its part outside the shifted support
    (A_j) and, for every cell Π_{j'} with p(j)/|Π_j| > e^ε p(j')/|Π_{j'}|, the overlap
    Π_j ∩ (Π_{j'} + φ) (A_{jj'}).  Lengths are in fine cells; returns ``(s*, V* + δ)`` with V* ≥ 0
    (the algorithm starts from V* = 0).  O(#φ · N²); used to cross-check the vectorised separation.
    """
    dens = _check_prob_masses(prob, masses) / prob.cells.widths
    best_s, best_v = 0, 0.0
    for s in prob.shifts:
        v = _shortfall_on_cells(prob, dens, dens, int(s))
        if v > best_v:
            best_s, best_v = int(s), v
    return best_s, best_v


def separation_algorithm3(prob: _Problem, masses: np.ndarray, triples):
    """Algorithm 3 (L1873–L1899), literally: the data-dependent separation over the (k, m, φ) families.

    ``masses[k]`` is the distribution p_k of Φ-interval k on the cells of ``prob``; ``triples`` are the
    (k, m, s) families with φ = sβ (three shifts per pair for P′).  Returns ``((k*, m*, s*), V* + δ)``.
    O(#triples · N²) — a cross-check for the vectorised separation of :mod:`.data_dependent`.
    """
    dens = _check_prob_masses(prob, masses, stacked=True) / prob.cells.widths
    K = dens.shape[0]
    if isinstance(triples, str):
        raise ValueError(f"triples must be a sequence of (k, m, s) integer triples, got triples={triples!r}")
    triples = list(triples)
    for t in triples:
        if (
            not isinstance(t, tuple | list | np.ndarray)
            or len(t) != 3
            or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in t)
        ):
            raise ValueError(f"triples must hold (k, m, s) integer triples, got {t!r}")
        if not (0 <= t[0] < K and 0 <= t[1] < K):
            raise ValueError(f"triples must have k, m in [0, {K}) (the rows of masses), got {tuple(t)!r}")
    best, best_v = None, 0.0
    for k, m, s in triples:
        v = _shortfall_on_cells(prob, dens[k], dens[m], int(s))
        if v > best_v:
            best, best_v = (int(k), int(m), int(s)), v
    return best, best_v


def max_shortfall_bruteforce(prob: _Problem, masses: np.ndarray) -> float:
    """max over *all* φ ∈ 𝓑(β) and all 2^n events A of the event range of V(φ, A) + δ (tiny grids only).

    Independent of Lemmas 4–5 and Algorithm 2: enumerates every union of fine cells explicitly.
    """
    masses = _check_prob_masses(prob, masses)
    n_ev = prob.ev_hi - prob.ev_lo
    if n_ev > 16:
        raise ValueError(f"event range must have at most 16 fine cells for brute force, got {n_ev}")
    k = prob.cells.k
    best = 0.0
    masks = ((np.arange(2**n_ev)[:, None] >> np.arange(n_ev)[None, :]) & 1).astype(bool)
    d = _fine_density(prob, masses)
    ee = math.exp(prob.epsilon)
    for s in range(-k, k + 1):
        pos = np.zeros(n_ev)
        neg = np.zeros(n_ev)
        for t, i in enumerate(range(prob.ev_lo, prob.ev_hi)):
            pos[t] = d[i - prob.cells.lo]
            src = i - s - prob.cells.lo
            neg[t] = d[src] if 0 <= src < d.size else 0.0
        vals = masks.astype(float) @ (pos - ee * neg)
        best = max(best, float(vals.max()))
    return best


# --------------------------------------------------------------------------------------------------
# LP solving through highspy
# --------------------------------------------------------------------------------------------------
@dataclass
class BoundResult:
    """Optimal value and masses of one bounding LP, with what produced them."""

    kind: str  # "upper" or "lower"
    value: float
    masses: np.ndarray
    partition: Partition  # the cells of the masses (padded for a lower bound)
    epsilon: float
    delta: float
    loss: str
    method: str
    solver: str
    solver_version: str
    wall_time: float
    iterations: int = 1
    n_constraints: int = 0
    max_shortfall: float = 0.0
    history: list = field(default_factory=list)
    profile: dict = field(default_factory=dict)  # generation: rounds, columns, rows, seconds inside HiGHS

    def noise(self) -> PiecewiseUniformNoise:
        """The piecewise-uniform noise of the masses (for an upper bound: an (ε, δ)-DP mechanism)."""
        return PiecewiseUniformNoise(self.partition.edges, self.masses, name=f"{self.kind} bound noise")

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "value": self.value,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "loss": self.loss if isinstance(self.loss, str) else "custom",
            "method": self.method,
            "solver": self.solver,
            "solver_version": self.solver_version,
            "wall_time": self.wall_time,
            "iterations": self.iterations,
            "n_constraints": self.n_constraints,
            "n_cells": self.partition.n_cells,
            "k": self.partition.k,
            "max_shortfall": self.max_shortfall,
        }


def _highs(n_cols: int, costs: np.ndarray, lower=None, upper=None):
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("primal_feasibility_tolerance", 1e-10)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    inf = highspy.kHighsInf
    lower = np.zeros(n_cols) if lower is None else lower
    upper = np.full(n_cols, inf) if upper is None else upper
    h.addVars(n_cols, lower, upper)
    h.changeColsCost(n_cols, np.arange(n_cols, dtype=np.int32), np.asarray(costs, dtype=float))
    return h


def _add_rows(h, mat: sp.csr_matrix, lo: np.ndarray, hi: np.ndarray) -> None:
    mat = sp.csr_matrix(mat)
    h.addRows(
        mat.shape[0],
        np.asarray(lo, dtype=float),
        np.asarray(hi, dtype=float),
        mat.nnz,
        mat.indptr.astype(np.int32),
        mat.indices.astype(np.int32),
        mat.data.astype(float),
    )


def _run(h, name: str):
    import highspy

    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        raise InfeasibleError(name, SOLVER_NAME, "infeasible")
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(name, SOLVER_NAME, h.modelStatusToString(status))
    sol = h.getSolution()
    return np.asarray(sol.col_value, dtype=float), float(h.getInfo().objective_function_value)


def _monotone_rows(prob: _Problem, n_cols: int) -> sp.csr_matrix:
    """d_j ≤ d_{j+1} for cells left of 0, d_j ≥ d_{j+1} right of 0 (repo ``monoton = 1``; Fig. 4)."""
    w = prob.cells.widths.astype(float)
    b = prob.cells.breaks
    rows, cols, vals = [], [], []
    r = 0
    for j in range(prob.n - 1):
        # cells j and j+1 share the boundary b[j+1]; density must rise towards 0
        if b[j + 1] <= 0:  # both left of 0 (cell j+1 ends at ≤ 1, the cell holding 0 is [0, 1))
            a, c = j, j + 1  # d_a − d_c ≤ 0
        else:
            a, c = j + 1, j
        rows += [r, r]
        cols += [a, c]
        vals += [1.0 / w[a], -1.0 / w[c]]
        r += 1
    return sp.csr_matrix((vals, (rows, cols)), shape=(r, n_cols))


def _compact_matrix(prob: _Problem):
    """The epigraph LP of the worst-event constraints (see module docstring), as sparse blocks.

    Variables: [p (n), t (m)].  Returns (A, row_lo, row_hi, m).
    """
    n, lo = prob.n, prob.cells.lo
    cell_of = _fine_cell_index(prob)
    w = prob.cells.widths.astype(float)
    ee = math.exp(prob.epsilon)
    ev = np.arange(prob.ev_lo, prob.ev_hi)
    pos_cell = cell_of[ev - lo]
    t_rows = []  # rows t − p_j/n_j + e^ε p_j'/n_j' ≥ 0
    sum_rows_p, sum_cols_p, sum_vals_p = [], [], []  # budget rows: p parts
    sum_rows_t, sum_cols_t, sum_vals_t = [], [], []  # budget rows: t parts
    m = 0
    r_eps = 0
    for r, s in enumerate(prob.shifts):
        src = ev - s - lo
        ok = (src >= 0) & (src < cell_of.size)
        # uncovered fine cells: contribute d_i = p_j/n_j directly
        unc = np.bincount(pos_cell[~ok], minlength=n)
        nz = np.nonzero(unc)[0]
        sum_rows_p += [r] * nz.size
        sum_cols_p += list(nz)
        sum_vals_p += list(unc[nz] / w[nz])
        # covered: pairs (j, j') with multiplicity
        j, jp = pos_cell[ok], cell_of[src[ok]]
        keep = j != jp  # j = j' gives p_j/n_j (1 − e^ε) ≤ 0
        key = j[keep] * n + jp[keep]
        uniq, counts = np.unique(key, return_counts=True)
        pj, pjp = uniq // n, uniq % n
        q = uniq.size
        t_idx = np.arange(m, m + q)
        t_rows.append((t_idx, pj, pjp))
        sum_rows_t += [r] * q
        sum_cols_t += list(t_idx)
        sum_vals_t += list(counts.astype(float))
        m += q
        r_eps += 1
    n_shift = len(prob.shifts)
    # budget rows: Σ counts·t + Σ unc p/n ≤ δ
    budget = sp.csr_matrix(
        (
            np.concatenate([sum_vals_p, sum_vals_t]),
            (
                np.concatenate([sum_rows_p, sum_rows_t]).astype(int),
                np.concatenate([sum_cols_p, np.asarray(sum_cols_t, dtype=int) + n]).astype(int),
            ),
        ),
        shape=(n_shift, n + m),
    )
    # epigraph rows: t − p_j/n_j + e^ε p_j'/n_j' ≥ 0
    if m:
        t_idx = np.concatenate([x[0] for x in t_rows])
        pj = np.concatenate([x[1] for x in t_rows])
        pjp = np.concatenate([x[2] for x in t_rows])
        rr = np.arange(m)
        epi = sp.csr_matrix(
            (
                np.concatenate([np.ones(m), -1.0 / w[pj], ee / w[pjp]]),
                (np.concatenate([rr, rr, rr]), np.concatenate([n + t_idx, pj, pjp])),
            ),
            shape=(m, n + m),
        )
    else:
        epi = sp.csr_matrix((0, n + m))
    mat = sp.vstack([budget, epi]).tocsr()
    row_lo = np.concatenate([np.full(n_shift, -np.inf), np.zeros(m)])
    row_hi = np.concatenate([np.full(n_shift, prob.delta), np.full(m, np.inf)])
    return mat, row_lo, row_hi, m


def _solve_compact(prob: _Problem, name: str, monotone: bool):
    import highspy

    inf = highspy.kHighsInf
    mat, row_lo, row_hi, m = _compact_matrix(prob)
    n = prob.n
    h = _highs(n + m, np.concatenate([prob.costs, np.zeros(m)]))
    h.setOptionValue("solver", "ipm" if n + m > 20000 else "simplex")
    simplex = sp.csr_matrix(np.ones((1, n + m)) * np.r_[np.ones(n), np.zeros(m)])
    _add_rows(h, simplex, np.ones(1), np.ones(1))
    _add_rows(h, mat, np.where(np.isinf(row_lo), -inf, row_lo), np.where(np.isinf(row_hi), inf, row_hi))
    n_rows = 1 + mat.shape[0]
    if monotone:
        mono = _monotone_rows(prob, n + m)
        _add_rows(h, mono, np.full(mono.shape[0], -inf), np.zeros(mono.shape[0]))
        n_rows += mono.shape[0]
    x, obj = _run(h, name)
    return x[:n], obj, 1, n_rows, []


def _solve_cutting_plane(
    prob: _Problem, name: str, monotone: bool, tol: float, max_rounds: int, cuts: str, max_seconds: float
):
    """Algorithm 1 (L819) with the vectorised separation; warm-started HiGHS dual simplex."""
    import highspy

    inf = highspy.kHighsInf
    n = prob.n
    h = _highs(n, prob.costs)
    h.setOptionValue("solver", "simplex")
    _add_rows(h, sp.csr_matrix(np.ones((1, n))), np.ones(1), np.ones(1))
    n_rows = 1
    if monotone:
        mono = _monotone_rows(prob, n)
        _add_rows(h, mono, np.full(mono.shape[0], -inf), np.zeros(mono.shape[0]))
        n_rows += mono.shape[0]
    history = []
    start = time.perf_counter()
    for rnd in range(1, max_rounds + 1):
        p, obj = _run(h, name)
        p = np.clip(p, 0.0, None)
        shifts, vals, events = privacy_shortfalls(prob, p)
        viol = vals - prob.delta
        worst = float(viol.max())
        history.append((rnd, obj, worst))
        if worst <= tol:
            return p, obj, rnd, n_rows, history
        if time.perf_counter() - start > max_seconds:
            raise SolverError(
                name, SOLVER_NAME, "time_limit", f"max shortfall {worst:.3g} after {rnd} rounds"
            )
        if cuts == "max":
            pick = [int(np.argmax(viol))]
        else:  # every shift with a positive shortfall
            pick = list(np.nonzero(viol > tol)[0])
        rows = np.array([_cut_row(prob, int(shifts[r]), events[r]) for r in pick])
        rows[np.abs(rows) < 1e-15] = 0.0
        _add_rows(h, sp.csr_matrix(rows), np.full(len(pick), -inf), np.full(len(pick), prob.delta))
        n_rows += len(pick)
    raise SolverError(name, SOLVER_NAME, "iteration_limit", f"no convergence in {max_rounds} rounds")


def _pair_tables(prob: _Problem, same_cell: bool = False):
    """Per relevant shift: the uncovered counts per cell and the (j, j', count) overlap pairs.

    Pairs with j = j' are dropped unless ``same_cell``: for one distribution p(j) − e^ε p(j) < 0, but
    the data-dependent problems compare two distributions p_k(j) − e^ε p_m(j), where they matter.
    """
    n, lo = prob.n, prob.cells.lo
    cell_of = _fine_cell_index(prob)
    ev = np.arange(prob.ev_lo, prob.ev_hi)
    pos_cell = cell_of[ev - lo]
    tables = []
    for s in prob.shifts:
        src = ev - s - lo
        ok = (src >= 0) & (src < cell_of.size)
        unc = np.bincount(pos_cell[~ok], minlength=n).astype(float)
        j, jp = pos_cell[ok], cell_of[src[ok]]
        keep = np.ones(j.size, dtype=bool) if same_cell else j != jp
        uniq, counts = np.unique(j[keep] * n + jp[keep], return_counts=True)
        tables.append((unc, uniq // n, uniq % n, counts.astype(float)))
    return tables


def truncated_laplace_masses(epsilon, delta, cells: Partition) -> np.ndarray:
    """Cell masses ∫_{Π_j} f of the truncated Laplace density f (Geng et al. 2020; catalog §2.0), Δf = 1 grid.

    Averaging a DP density over cells keeps it DP for shifts and events on the cell grid (for an event
    A that is a union of cells, Σ_{A} p_j = γ(A) ≤ e^ε γ(A − φ) + δ), so on any partition whose range
    holds the truncated Laplace support ±A these masses are feasible in P(π, β) and in the dual form
    of D(π, β).  Used only to pick the initial epigraph columns of :func:`_solve_generation`.
    """
    from safeguarded.dp_noise.mechanisms import TruncatedLaplace

    tl = TruncatedLaplace(epsilon, delta, cells.sensitivity)
    a, lam, B = tl.support, tl.lam, tl.B
    x = np.clip(cells.edges, -a, a)
    left = B * lam * (np.exp(-np.abs(x) / lam) - math.exp(-a / lam))  # mass of [-a, -|x|]
    cdf = np.where(x <= 0, left, 1.0 - left)
    p = np.clip(np.diff(cdf), 0.0, None)
    return p / p.sum() if p.sum() > 0 else p


class _PairColumns:
    """Epigraph columns t ≥ p(j)/n_j − e^ε p(j')/n_{j'} of the compact LP, added to a HiGHS model in place.

    ``tables`` are :func:`_pair_tables`; budget row r of the model is 1 + r (row 0 is Σ p = 1).
    """

    def __init__(self, h, prob: _Problem, tables, n_cols: int):
        self.h, self.tables, self.n_cols = h, tables, n_cols
        self.w = prob.cells.widths.astype(float)
        self.ee = math.exp(prob.epsilon)
        self.delta = prob.delta
        self.present = [np.zeros(t[1].size, dtype=bool) for t in tables]

    def scan(self, dens: np.ndarray, tol: float, margin: float, only_violated: bool = True):
        """Shortfalls at the densities ``dens``; new pairs of the (violated) shifts.

        A pair is new when p(j)/n_j − e^ε p(j')/n_{j'} > −margin·max(both terms) and p(j) > 0, i.e.
        positive or within ``margin`` of a tie (``margin = 0``: positive only, the plain column generation).
        Returns ``(worst shortfall, [(row, j, j', count), …])``.
        """
        worst, new = -np.inf, []
        for r, (unc, pj, pjp, cnt) in enumerate(self.tables):
            a, b = dens[pj], self.ee * dens[pjp]
            diff = a - b
            pos = diff > 0
            value = float(np.dot(unc, dens) + np.dot(cnt[pos], diff[pos]))
            worst = max(worst, value - self.delta)
            if only_violated and value - self.delta <= tol:
                continue
            want = (diff > -margin * np.maximum(a, b)) & (a > 0) if margin > 0 else pos
            add = want & ~self.present[r]
            self.present[r] |= add
            idx = np.nonzero(add)[0]
            new += [(r, pj[i], pjp[i], cnt[i]) for i in idx]
        return worst, new

    def add(self, new) -> int:
        """Append the columns of ``new`` (budget coefficient = overlap count) and their epigraph rows."""
        import highspy

        q = len(new)
        if q == 0:
            return 0
        inf = highspy.kHighsInf
        r_idx = np.array([c[0] for c in new], dtype=np.int32) + 1  # budget rows start at 1
        cnt = np.array([c[3] for c in new], dtype=float)
        self.h.addCols(
            q, np.zeros(q), np.zeros(q), np.full(q, inf), q,
            np.arange(q, dtype=np.int32), r_idx, cnt,
        )  # fmt: skip
        pj = np.array([c[1] for c in new])
        pjp = np.array([c[2] for c in new])
        tcols = np.arange(self.n_cols, self.n_cols + q)
        rr = np.arange(q)
        epi = sp.csr_matrix(
            (
                np.concatenate([np.ones(q), -1.0 / self.w[pj], self.ee / self.w[pjp]]),
                (np.concatenate([rr, rr, rr]), np.concatenate([tcols, pj, pjp])),
            ),
            shape=(q, self.n_cols + q),
        )
        _add_rows(self.h, epi, np.zeros(q), np.full(q, inf))
        self.n_cols += q
        return q


def _solve_generation(
    prob: _Problem,
    name: str,
    monotone: bool,
    tol: float,
    max_rounds: int,
    max_seconds,
    seed_masses: np.ndarray | None = None,
    margin: float = 0.0,
    stats: dict | None = None,
):
    """Constraint-and-column generation on the compact LP (our accelerated Algorithm 1).

    Start with one budget row per relevant shift holding only the uncovered cells (always positive
    terms).  Each round, solve; for every shift whose full shortfall Σ (d_i − e^ε d_{i−s})⁺ exceeds δ
    (the separation of Algorithm 2), add the epigraph variable t ≥ p(j)/n_j − e^ε p(j')/n_{j'} of every
    positive overlap pair not yet present.  Every relaxation drops only non-negative terms, so it is a
    relaxation of P(π, β); at termination the incumbent is feasible, hence optimal.

    Warm start (``seed_masses``, ``margin``): before the first solve, add the pairs that are positive or
    within ``margin`` of a tie at the seed masses (every shift), and in later rounds also the near-ties of
    the violated shifts.  This only chooses which columns exist earlier — the model is still modified in
    place (``addCols``/``addRows``, HiGHS dual simplex from the previous basis) and the stopping rule is
    unchanged, so the result is the same LP optimum (tests).  ``stats`` (a dict) receives the profile:
    rounds, columns, rows and the seconds spent inside HiGHS.
    """
    import highspy

    inf = highspy.kHighsInf
    n = prob.n
    w = prob.cells.widths.astype(float)
    tables = _pair_tables(prob)
    n_shift = len(tables)
    h = _highs(n, prob.costs)
    h.setOptionValue("solver", "simplex")
    _add_rows(h, sp.csr_matrix(np.ones((1, n))), np.ones(1), np.ones(1))
    rows = sp.csr_matrix(np.array([unc / w for unc, *_ in tables]))
    _add_rows(h, rows, np.full(n_shift, -inf), np.full(n_shift, prob.delta))
    n_rows = 1 + n_shift
    if monotone:
        mono = _monotone_rows(prob, n)
        _add_rows(h, mono, np.full(mono.shape[0], -inf), np.zeros(mono.shape[0]))
        n_rows += mono.shape[0]
    cols = _PairColumns(h, prob, tables, n)
    if seed_masses is not None:
        _, new = cols.scan(np.asarray(seed_masses, dtype=float) / w, tol, margin, only_violated=False)
        n_rows += cols.add(new)
    history = []
    start = time.perf_counter()
    t_lp = 0.0
    for rnd in range(1, max_rounds + 1):
        t0 = time.perf_counter()
        x, obj = _run(h, name)
        t_lp += time.perf_counter() - t0
        p = np.clip(x[:n], 0.0, None)
        worst, new = cols.scan(p / w, tol, margin)
        history.append((rnd, obj, worst))
        if stats is not None:
            stats.update(rounds=rnd, columns=cols.n_cols, rows=n_rows, seconds_lp=t_lp,
                         seconds=time.perf_counter() - start)  # fmt: skip
        if worst <= tol:
            return p, obj, rnd, n_rows, history
        if not new:  # every positive pair is present: the residual is the LP solver's tolerance
            if worst <= 1e-6 * max(prob.delta, 1e-3):
                return p, obj, rnd, n_rows, history
            raise SolverError(name, SOLVER_NAME, "stalled", f"shortfall {worst:.3g} without new pairs")
        if time.perf_counter() - start > max_seconds:
            raise SolverError(
                name, SOLVER_NAME, "time_limit", f"max shortfall {worst:.3g} after {rnd} rounds"
            )
        n_rows += cols.add(new)
    raise SolverError(name, SOLVER_NAME, "iteration_limit", f"no convergence in {max_rounds} rounds")


def _validate_common(epsilon, delta, partition, loss, method):
    eps, d, _ = validate_privacy(
        epsilon, delta, partition.sensitivity if isinstance(partition, Partition) else 1
    )
    if not isinstance(partition, Partition):
        raise ValueError(f"partition must be a Partition, got partition={partition!r}")
    if not (loss in LOSSES or callable(loss)):
        raise ValueError(f"loss must be one of {LOSSES} or a callable, got loss={loss!r}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got method={method!r}")
    if partition.lo > 0 or partition.hi < 1:
        raise ValueError(
            f"partition must contain the cell [0, beta): breaks from {partition.lo} to {partition.hi}"
        )
    return eps, d


WARM_STARTS = ("tlap", "coarse", None)


def _coarse_seed(kind, eps, d, partition: Partition, loss, cells: Partition, margin: float):
    """Masses on ``cells`` from the same bound solved on the uniform grid with k // 2 (warm start "coarse").

    The coarse problem keeps the support in units of Δf (L' = L·k'/k) and is itself warm-started the same
    way down to k < 8 (then from the truncated Laplace).  Its density is read off at the fine cell centres.
    Returns ``None`` when the partition is not uniform or too coarse to halve.
    """
    k = partition.k
    if k < 8 or np.any(partition.widths != 1) or (-partition.lo) % k:
        return truncated_laplace_masses(eps, d, cells) if d > 0 else None
    k2 = k // 2
    coarse = uniform_partition((-partition.lo) // k * k2, k2, partition.sensitivity)
    fun = upper_bound if kind == "upper" else lower_bound
    res = fun(eps, d, coarse, loss, method="generation", warm_start="coarse", margin=margin)
    dens = res.masses / np.diff(res.partition.edges)
    centres = 0.5 * (cells.edges[:-1] + cells.edges[1:])
    idx = np.searchsorted(res.partition.edges, centres, side="right") - 1
    inside = (idx >= 0) & (idx < dens.size)
    seed = np.where(inside, dens[np.clip(idx, 0, dens.size - 1)], 0.0) * np.diff(cells.edges)
    return seed / seed.sum() if seed.sum() > 0 else None


def _solve(
    kind, epsilon, delta, partition, loss, method, monotone, tol, max_rounds, cuts, max_seconds,
    warm_start="tlap", margin=0.2, ipm_max_iter=None,
):  # fmt: skip
    check_type("partition", partition, Partition, "a Partition (uniform_partition, graded_partition)")
    eps, d = _validate_common(epsilon, delta, partition, loss, method)
    check_bool("monotone", monotone)
    check_integer("max_rounds", max_rounds, minimum=1)
    check_positive("max_seconds", max_seconds)
    if ipm_max_iter is not None:
        check_integer("ipm_max_iter", ipm_max_iter, minimum=1)
    if warm_start not in WARM_STARTS:
        raise ValueError(f"warm_start must be one of {WARM_STARTS}, got warm_start={warm_start!r}")
    margin = _finite_float("margin", margin)
    if not 0 <= margin < 1:
        raise ValueError(f"margin must be in [0, 1), got margin={margin!r}")
    if cuts not in ("all", "max"):
        raise ValueError(f"cuts must be 'all' or 'max', got cuts={cuts!r}")
    if not tol > 0:
        raise ValueError(f"tol must be > 0, got tol={tol!r}")
    prob = _problem(kind, eps, d, partition, loss)
    cells, costs = prob.cells, prob.costs
    name = f"dp_noise.{'P' if kind == 'upper' else 'D'}(pi,beta) eps={eps:g} delta={d:g} k={partition.k}"
    profile: dict = {}
    if method == "ipm":
        return _solve_ipm(kind, prob, partition, loss, name, ipm_max_iter)
    start = time.perf_counter()
    try:
        if method == "compact":
            p, obj, its, n_rows, hist = _solve_compact(prob, name, monotone)
        elif method == "generation":
            if warm_start == "coarse":
                seed = _coarse_seed(kind, eps, d, partition, loss, cells, margin)
            else:
                seed = truncated_laplace_masses(eps, d, cells) if warm_start == "tlap" and d > 0 else None
            p, obj, its, n_rows, hist = _solve_generation(
                prob, name, monotone, tol, max_rounds, max_seconds,
                seed_masses=seed, margin=margin if seed is not None else 0.0, stats=profile,
            )  # fmt: skip
        else:
            p, obj, its, n_rows, hist = _solve_cutting_plane(
                prob, name, monotone, tol, max_rounds, cuts, max_seconds
            )
    except InfeasibleError as exc:
        raise _support_too_small(partition, eps, d) from exc
    wall = time.perf_counter() - start
    p = np.clip(p, 0.0, None)
    p = p / p.sum()
    _, vals, _ = privacy_shortfalls(prob, p)
    import highspy  # noqa: F401  (version lookup)

    return BoundResult(
        kind=kind,
        value=float(np.dot(costs, p)),
        masses=p,
        partition=cells,
        epsilon=eps,
        delta=d,
        loss=loss,
        method=method,
        solver=SOLVER_NAME,
        solver_version=solver_version("HIGHS"),
        wall_time=wall,
        iterations=its,
        n_constraints=n_rows,
        max_shortfall=float(vals.max() - d),
        history=hist,
        profile=profile,
    )


def _problem(kind: str, eps: float, d: float, partition: Partition, loss) -> _Problem:
    """The LP data of P(π, β) (``kind="upper"``: the cells, mean costs) or of D(π, β) (the padded cells,
    infimum costs)."""
    cells = partition if kind == "upper" else partition.padded()
    costs = cell_costs(cells.edges, loss, "mean" if kind == "upper" else "inf")
    return _Problem(cells, partition.lo, partition.hi, eps, d, costs)


def _support_too_small(partition: Partition, eps: float, d: float) -> ValueError:
    """The error for a support that cannot hold an (ε, δ)-DP noise on this grid (an infeasible P)."""
    L = max(-partition.lo, partition.hi - 1)
    hint = (
        f"; the supplement's sufficient condition is L >= {support_rule(eps, d, 1.0)}*k with k >= 2"
        if d > 0
        else "; with delta = 0 no noise of bounded support is private"
    )
    return ValueError(
        f"the support [-{L}, {L + 1}) x beta={partition.beta:g} (L={L}) cannot hold an "
        f"({eps:g}, {d:g})-DP noise on this grid; L must be larger{hint}"
    )


def _solve_ipm(
    kind: str, prob: _Problem, partition: Partition, loss, name: str, max_iter: int | None = None
) -> BoundResult:
    """``method="ipm"``: the structured interior-point method of :mod:`.ipm` (uniform partitions only).

    Its bounds are certified: an upper bound is the cost of masses that pass the exact privacy check, a
    lower bound is the Lagrangian value of clipped dual multipliers (valid whatever the IPM's accuracy).
    A failed certificate is raised as a :class:`SolverError`, never returned.
    """
    from safeguarded.dp_noise import ipm

    if np.any(partition.widths != 1):
        raise ValueError("method='ipm' needs a uniform partition (uniform_partition); got non-uniform cells")
    if kind == "upper" and prob.delta == 0:  # provably infeasible, as the simplex methods report it
        raise _support_too_small(partition, prob.epsilon, 0.0)
    lp = ipm.pair_lp(prob)
    folded = ipm.fold(lp)  # a mirror-symmetric grid: solve over symmetric masses (half the size)
    x0 = truncated_laplace_masses(prob.epsilon, prob.delta, prob.cells) if prob.delta > 0 else None
    res = ipm.solve_pair_lp(
        lp if folded is None else folded, x0=x0, max_iter=ipm.MAX_ITER if max_iter is None else max_iter
    )
    value = res.upper if kind == "upper" else res.lower
    if not np.isfinite(value):
        raise SolverError(name, ipm.SOLVER_NAME, res.status, "no certified bound")
    return BoundResult(
        kind=kind,
        value=float(value),
        masses=res.masses,
        partition=prob.cells,
        epsilon=prob.epsilon,
        delta=prob.delta,
        loss=loss,
        method="ipm",
        solver=ipm.SOLVER_NAME,
        solver_version=ipm.solver_version(),
        wall_time=res.wall_time,
        iterations=res.iterations,
        n_constraints=1 + lp.n_shifts + 2 * lp.m,
        max_shortfall=res.max_shortfall,
        history=res.history,
        profile={
            "status": res.status, "upper": res.upper, "lower": res.lower, "pairs": lp.m,
            "folded": folded is not None,
        },  # fmt: skip
    )


def l1_uniform_bounds(
    epsilon, delta, partition: Partition, *, method: str = "ipm", ipm_max_iter: int | None = None
) -> tuple[BoundResult, BoundResult]:
    """P(L, β) and D(L, β) for the ℓ1 loss on a uniform partition, from one solve of D where it suffices.

    On a uniform grid every cell's mean |x| is its infimum plus β/2 (no cell straddles 0), so P − D ≥ β/2.
    When the optimal masses of D put (almost) nothing on the padding cells, the masses restricted to the
    unpadded cells are feasible for P — D's privacy rows on the unpadded events are then P's — and cost
    D + β/2 + (what the padding held), so P = D + β/2 up to that.  We renormalise them, check them with the
    exact :func:`privacy_shortfalls` of P, and return their cost as the upper bound (``method`` suffixed with
    ``" (from D)"``); if the check fails, P is solved by itself.  Either way both values are bounds on the LP
    optimum over the grid: a privacy-checked noise above, ``lower_bound``'s certificate below.

    Returns ``(upper, lower)``.  Measured: one solve instead of two in every cell tried (support ⌈2Λ⌉Δf).
    ``ipm_max_iter`` is :func:`lower_bound`'s.
    """
    lower = lower_bound(epsilon, delta, partition, "l1", method=method, ipm_max_iter=ipm_max_iter)
    upper = l1_upper_from_lower(lower, partition)
    if upper is None:
        upper = upper_bound(epsilon, delta, partition, "l1", method=method, ipm_max_iter=ipm_max_iter)
    return upper, lower


def l1_upper_from_lower(lower: BoundResult, partition: Partition) -> BoundResult | None:
    """The ℓ1 upper bound P(L, β) on the uniform ``partition`` from the masses of ``lower`` = D(L, β), solved
    on the same partition (:func:`l1_uniform_bounds`); None when they fail P's exact privacy check (then
    solve P itself)."""
    if not isinstance(lower, BoundResult) or lower.kind != "lower" or lower.loss != "l1":
        is_bound = isinstance(lower, BoundResult)
        got = f"kind={lower.kind!r}, loss={lower.loss!r}" if is_bound else f"lower={lower!r}"
        raise ValueError(f"lower must be an l1 lower-bound BoundResult (lower_bound(..., 'l1')), got {got}")
    if not isinstance(partition, Partition):
        raise ValueError(f"partition must be a Partition, got partition={partition!r}")
    needed = partition.n_cells + 2 * partition.k
    if lower.masses.shape != (needed,):
        raise ValueError(f"partition must be the one lower was solved on: it needs {needed} masses of D "
                         f"(with the padding), lower has {lower.masses.shape[0]}")
    start = time.perf_counter()
    k = partition.k
    inner = np.clip(lower.masses[k:-k], 0.0, None)
    if inner.sum() <= 0:
        return None
    inner = inner / inner.sum()
    prob = _problem("upper", lower.epsilon, lower.delta, partition, "l1")
    _, vals, _ = privacy_shortfalls(prob, inner)
    if vals.max() > lower.delta:
        return None
    return BoundResult(
        kind="upper",
        value=float(np.dot(prob.costs, inner)),
        masses=inner,
        partition=partition,
        epsilon=lower.epsilon,
        delta=lower.delta,
        loss="l1",
        method=f"{lower.method} (from D)",
        solver=lower.solver,
        solver_version=lower.solver_version,
        wall_time=time.perf_counter() - start,
        iterations=0,
        n_constraints=0,
        max_shortfall=float(vals.max() - lower.delta),
    )


def upper_bound(
    epsilon,
    delta,
    partition: Partition,
    loss="l1",
    *,
    method: str = "generation",
    monotone: bool = False,
    tol: float = 1e-9,
    max_rounds: int = 5000,
    cuts: str = "all",
    max_seconds: float = 900.0,
    warm_start: str | None = "tlap",
    margin: float = 0.2,
    ipm_max_iter: int | None = None,
) -> BoundResult:
    """The upper bound P(π, β) (Prop. 1 for uniform π, L795–L799 otherwise).

    Parameters
    ----------
    epsilon, delta
        Privacy parameters, ε > 0 and δ ∈ [0, 1).
    partition
        The cells π (:func:`uniform_partition`, :func:`graded_partition`); its ``sensitivity`` is Δf.
    loss
        ``"l1"`` (amplitude), ``"l2"`` (power) or a callable c(x).
    method
        ``"generation"`` (column generation on the epigraph LP, default), ``"compact"`` (the whole
        epigraph LP at once), ``"cutting_plane"`` (Algorithm 1 with Algorithm 2, event cuts only) or
        ``"ipm"`` (uniform partitions: the structured interior-point method of :mod:`.ipm`, for grids of
        thousands of cells; its value is a certified bound: an upper bound from exactly checked masses, a
        lower bound from clipped dual multipliers).
    monotone
        Add the monotonicity constraints of Fig. 4 (density non-decreasing up to 0, non-increasing after).
    tol, max_rounds, cuts, max_seconds
        Cutting plane: stop when every shortfall is ≤ ``tol``; add the most violated event of every
        violated shift (``cuts="all"``, as the repo's C++) or only the single worst (``"max"``, as
        Algorithm 1 is written).
    warm_start, margin
        Column generation (``method="generation"``): ``"tlap"`` seeds the epigraph columns with the pairs
        that are positive or within ``margin`` (relative) of a tie at the truncated-Laplace cell masses
        (:func:`truncated_laplace_masses`) and adds near-ties as well as positive pairs in later rounds;
        ``None`` is the unseeded generation (the code path before the warm start).  Same LP optimum.
    ipm_max_iter
        ``method="ipm"``: the iteration limit (``None``: :data:`.ipm.MAX_ITER`); the bound at the limit is
        still certified, only looser.

    Returns
    -------
    BoundResult
        ``value`` = Σ c_j p(j); ``noise()`` is an (ε, δ)-DP mechanism.

    Raises
    ------
    ValueError
        Bad parameters, or a support too small to hold a DP noise (the LP is infeasible).
    """
    return _solve(
        "upper", epsilon, delta, partition, loss, method, monotone, tol, max_rounds, cuts, max_seconds,
        warm_start, margin, ipm_max_iter,
    )  # fmt: skip


def lower_bound(
    epsilon,
    delta,
    partition: Partition,
    loss="l1",
    *,
    method: str = "generation",
    monotone: bool = False,
    tol: float = 1e-9,
    max_rounds: int = 5000,
    cuts: str = "all",
    max_seconds: float = 900.0,
    uncertified_nonuniform: bool = False,
    warm_start: str | None = "tlap",
    margin: float = 0.2,
    ipm_max_iter: int | None = None,
) -> BoundResult:
    """The lower bound D(L, β) (Prop. 3), solved as its LP dual (L1494–L1499), on a uniform partition.

    The cells are ``partition.padded()`` (Δf/β extra fine cells per side), costs c̲_j = inf c, and the
    events are restricted to the unpadded range.  With ``monotone=True`` this is a lower bound for the
    best *monotone* noise only (Fig. 4).  Parameters as :func:`upper_bound`.

    Non-uniform partitions raise: the thesis' D(π, β) of §1.4.1 (L803) is missing from the text, and
    the same construction on coarse cells (uniform density inside each cell) is **not** a lower bound —
    privacy-checked mixtures of §2 cost less than it (tests/test_gaussian_mixtures_optimum.py).
    ``uncertified_nonuniform=True`` computes it anyway, only to demonstrate that finding.  For a lower
    bound that *is* valid on non-uniform partitions use
    :func:`safeguarded.dp_noise.nonuniform.cover_lower_bound` (equal to this one on uniform partitions).
    """
    check_bool("uncertified_nonuniform", uncertified_nonuniform)
    if not uncertified_nonuniform and isinstance(partition, Partition) and np.any(partition.widths != 1):
        raise ValueError(
            "partition must be uniform for lower_bound: D(pi, beta) on non-uniform cells (L803) is lost "
            "in the text and our reconstruction is not a valid lower bound; use uniform_partition, or "
            "dp_noise.nonuniform.cover_lower_bound (valid on any partition)"
        )
    return _solve(
        "lower", epsilon, delta, partition, loss, method, monotone, tol, max_rounds, cuts, max_seconds,
        warm_start, margin, ipm_max_iter,
    )  # fmt: skip


def interval_split(i: int, phi: float, beta: float) -> tuple[int, tuple[float, float], tuple[float, float]]:
    """Definition 1 (L1064–L1069): the split of I_i(β) = [iβ, (i+1)β) by the shifted grid I(β) + φ.

    Returns ``(j, I1, I2)`` with j = ⌈i − φ/β⌉ the unique integer with φ + jβ ∈ I_i(β),
    I_i¹(φ, β) = [iβ, φ + jβ) ⊆ I_{j−1}(β) + φ and I_i²(φ, β) = [φ + jβ, (i+1)β) ⊆ I_j(β) + φ.
    By Observation 5 the privacy shortfall of any A ⊆ I_i¹ is |A|·(p(i) − e^ε p(j − 1)) and of any
    A ⊆ I_i² is |A|·(p(i) − e^ε p(j)); Fig. 6 draws this configuration.
    """
    if isinstance(i, bool) or int(i) != i:
        raise ValueError(f"i must be an integer, got i={i!r}")
    phi = _finite_float("phi", phi)
    beta = _finite_float("beta", beta)
    if beta <= 0:
        raise ValueError(f"beta must be in (0, inf), got beta={beta!r}")
    i = int(i)
    j = math.ceil(i - phi / beta - 1e-12 * max(1.0, abs(i)))
    cut = phi + j * beta
    if not i * beta - 1e-12 <= cut < (i + 1) * beta:  # floating-point guard of the ceiling
        j -= 1 if cut >= (i + 1) * beta else -1
        cut = phi + j * beta
    return j, (i * beta, cut), (cut, (i + 1) * beta)


def relative_gap(upper: float, lower: float) -> float:
    """(P − D)/P, the relative optimality gap of the bounds (L871)."""
    upper = check_positive("upper", upper, allow_zero=True)
    lower = check_positive("lower", lower, allow_zero=True)
    if lower > upper * (1 + 1e-6) + 1e-9:
        raise ValueError(f"lower must be <= upper ({upper!r}), got lower={lower!r}")
    return (upper - lower) / upper if upper > 0 else 0.0

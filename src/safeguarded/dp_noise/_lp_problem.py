"""The LP family P(π, β)/D(π, β) of thesis §1.2 and §1.4 that every bounding algorithm solves:
partitions, cell costs, the problem type :class:`_Problem`, the privacy shortfall and its separation
(Algorithms 2 and 3), and the HiGHS plumbing the algorithms share.

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

The algorithms that solve it live beside this module, one each (:mod:`._lp_compact`,
:mod:`._lp_cutting_plane`, :mod:`._lp_generation`, and :mod:`.ipm`); :mod:`.bounds` is the public face
that validates the parameters, picks one and returns a :class:`~.bounds.BoundResult`, and re-exports the
public names of this module.  Import from :mod:`safeguarded.dp_noise.bounds`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise.mechanisms import _finite_float, validate_privacy
from safeguarded.solvers import InfeasibleError, SolverError
from safeguarded.validation import check_array, check_type

__all__ = [
    "Partition",
    "uniform_partition",
    "symmetric_partition",
    "graded_partition",
    "support_rule",
    "cell_costs",
    "privacy_shortfalls",
    "separation_algorithm2",
    "separation_algorithm3",
    "max_shortfall_bruteforce",
    "truncated_laplace_masses",
    "SOLVER_NAME",
    "LOSSES",
]


SOLVER_NAME = "HIGHS (highspy)"


LOSSES = ("l1", "l2")


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


def _problem(kind: str, eps: float, d: float, partition: Partition, loss) -> _Problem:
    """The LP data of P(π, β) (``kind="upper"``: the cells, mean costs) or of D(π, β) (the padded cells,
    infimum costs)."""
    cells = partition if kind == "upper" else partition.padded()
    costs = cell_costs(cells.edges, loss, "mean" if kind == "upper" else "inf")
    return _Problem(cells, partition.lo, partition.hi, eps, d, costs)


def truncated_laplace_masses(epsilon, delta, cells: Partition) -> np.ndarray:
    """Cell masses ∫_{Π_j} f of the truncated Laplace density f (Geng et al. 2020; catalog §2.0), Δf = 1 grid.

    Averaging a DP density over cells keeps it DP for shifts and events on the cell grid (for an event
    A that is a union of cells, Σ_{A} p_j = γ(A) ≤ e^ε γ(A − φ) + δ), so on any partition whose range
    holds the truncated Laplace support ±A these masses are feasible in P(π, β) and in the dual form
    of D(π, β).  Used to pick the initial epigraph columns of the column generation
    (:mod:`._lp_generation`) and as the starting point of :mod:`.ipm`.
    """
    from safeguarded.dp_noise.mechanisms import TruncatedLaplace

    tl = TruncatedLaplace(epsilon, delta, cells.sensitivity)
    a, lam, B = tl.support, tl.lam, tl.B
    x = np.clip(cells.edges, -a, a)
    left = B * lam * (np.exp(-np.abs(x) / lam) - math.exp(-a / lam))  # mass of [-a, -|x|]
    cdf = np.where(x <= 0, left, 1.0 - left)
    p = np.clip(np.diff(cdf), 0.0, None)
    return p / p.sum() if p.sum() > 0 else p


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

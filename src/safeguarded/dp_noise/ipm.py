"""A structure-exploiting interior-point method for the uniform-grid bounds P(L, β) and D(L, β) (thesis §1.2).

Why.  On a uniform grid the epigraph LP of the bounds (``bounds._compact_matrix``) has one auxiliary
t_r ≥ max(0, d_i − e^ε d_{i−s}) per shift s and event cell i, i.e. m ≈ 2k·N of them for N cells: about
1–2 million at the thesis's ≈ 2,000-cell grids (supp. p.10, L871).  Simplex, column generation and HiGHS's
IPX all slow down as ~N³·⁵ there, because every d_i sits in 2·(2k) rows.  This module solves the *same* LP
with a primal–dual Mehrotra predictor–corrector whose Newton systems are reduced to the N cell masses:

    min cᵀd  s.t.  1ᵀd = 1, d ≥ 0, t ≥ 0, t_r ≥ (Bd)_r = d_i − e^ε d_j, Σ_{r∈s} t_r ≤ δ (every shift s),

where pair r = (s, i) has j = i − s (no second term when j lies outside the cells: the "uncovered" part of
eq. (9)).  With W = z/s the barrier Hessian in (d, t) is [[W₁ + BᵀW₃B, −BᵀW₃], [−W₃B, T]] with
T = diag(W₂ + W₃) + GᵀW₄G (G sums each shift's t); T is inverted shift by shift (Sherman–Morrison), and the
Schur complement on d is

    N = W₁ + Bᵀ diag(W₂W₃/(W₂ + W₃)) B + Q diag(κ) Qᵀ,   Q = BᵀW₃(W₂ + W₃)⁻¹Gᵀ  (N × #shifts),

a dense N × N matrix (one SYRK and one Cholesky per iteration, ≈ 0.3 s at N = 2,001 and 1,001 shifts) —
independent of the number of pairs m, which enter only through O(m) vector operations.

What is returned is certified, not just "solved to a tolerance":

* **upper**: the primal masses, clipped and normalised, and checked exactly with
  :func:`~safeguarded.dp_noise.bounds.privacy_shortfalls` (the IPM runs with δ(1 − ``shrink``) so that its
  residual infeasibility cannot push the masses over δ).  Their cost is an upper bound on the LP.
* **lower**: the Lagrangian bound of any multipliers 0 ≤ y_r ≤ λ_s (Prop. 3's D(L, β) in dual form):
  LB(y, λ) = min_i (c + Bᵀy)_i − δ Σ_s λ_s ≤ LP value.  We evaluate it at the IPM's duals clipped into that
  box, so it is a valid lower bound whatever the IPM's accuracy.

Both are then cross-checked against HiGHS on small grids in ``tests/test_dp_noise_ipm.py``.

On a mirror-symmetric grid (cells [−Lβ, Lβ), :func:`fold`) the LP has a symmetric optimum, and
:class:`FoldedPairLP` solves it over symmetric masses: half the variables and shifts, the dense algebra on a
matrix of half the order (measured 2.4–5.3× less time per iteration at ≈ 2,000 cells,
``benchmarks/bench_dp_noise_bounds.py --fold``), with the same certificates.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
from numpy.lib.stride_tricks import sliding_window_view
from scipy.linalg import blas

from safeguarded.dp_noise._lp_problem import _Problem
from safeguarded.validation import check_array, check_bool, check_integer, check_positive, check_type

__all__ = [
    "PairLP",
    "pair_lp",
    "FoldedPairLP",
    "fold",
    "IPMResult",
    "solve_pair_lp",
    "solver_version",
    "SOLVER_NAME",
    "MAX_ITER",
]

SOLVER_NAME = "safeguarded structured IPM (numpy/LAPACK)"

#: Default iteration limit of :func:`solve_pair_lp`.  The grids of k ≥ 250 cells per sensitivity at large ε
#: often need more (measured: 148 at (1, 0.05) and > 240 at (2, 0.75) with ≈ 2,000 cells).
MAX_ITER = 120


def solver_version() -> str:
    """The versions of the libraries that do the IPM's arithmetic."""
    import scipy

    return f"numpy {np.__version__}, scipy {scipy.__version__}"


@dataclass(frozen=True)
class PairLP:
    """min cᵀd s.t. 1ᵀd = 1, d ≥ 0, Σ_{i ∈ E} max(0, d_i − e^ε d_{i−s}) ≤ δ for every shift s ∈ ``shifts``.

    The cells are 0 … n − 1 on a uniform grid, the event cells E = ``ev0`` … ``ev0 + n_ev − 1``; d_j = 0 for
    j outside the cells (the uncovered part of eq. (9)).  Pair arrays have shape (#shifts, n_ev): row a is
    shift ``shifts[a]``, column q the event cell ``ev0 + q``.
    """

    costs: np.ndarray
    ev0: int
    n_ev: int
    shifts: np.ndarray
    epsilon: float
    delta: float

    @property
    def n(self) -> int:
        return self.costs.size

    @property
    def n_shifts(self) -> int:
        return self.shifts.size

    @property
    def m(self) -> int:
        return self.n_shifts * self.n_ev

    @property
    def _pad(self) -> int:
        return int(np.abs(self.shifts).max())

    def _starts(self) -> np.ndarray:
        """Start of row a's partner cells j = ev0 + q − s_a in the padded cell vector."""
        return self._pad + self.ev0 - self.shifts

    def partners(self, d: np.ndarray) -> np.ndarray:
        """d_{i−s} for every pair, shape (#shifts, n_ev) (0 outside the cells)."""
        pad = self._pad
        dp = np.zeros(self.n + 2 * pad)
        dp[pad : pad + self.n] = d
        return sliding_window_view(dp, self.n_ev)[self._starts()]

    def b_times(self, d: np.ndarray) -> np.ndarray:
        """(Bd)_{s,i} = d_i − e^ε d_{i−s}."""
        return d[self.ev0 : self.ev0 + self.n_ev][None, :] - math.exp(self.epsilon) * self.partners(d)

    def scatter_partners(self, y: np.ndarray) -> np.ndarray:
        """Σ_s y_{s,i} placed at the partner cells i − s (dropped outside the cells): ℝⁿ."""
        pad = self._pad
        out = np.zeros(self.n + 2 * pad)
        for a, st in enumerate(self._starts()):
            out[st : st + self.n_ev] += y[a]
        return out[pad : pad + self.n]

    def bt_times(self, y: np.ndarray) -> np.ndarray:
        """Bᵀy ∈ ℝⁿ."""
        out = -math.exp(self.epsilon) * self.scatter_partners(y)
        out[self.ev0 : self.ev0 + self.n_ev] += y.sum(axis=0)
        return out

    def shortfalls(self, d: np.ndarray) -> np.ndarray:
        """Σ_i max(0, (Bd)_{s,i}) per shift (V(φ, A*) + δ of eq. (9) on the grid)."""
        return np.maximum(self.b_times(d), 0.0).sum(axis=1)

    # The LP's variables are the cell masses themselves (a :class:`FoldedPairLP` has half of them), so the
    # simplex row is 1ᵀd = 1 and folding/unfolding are the identity.
    @property
    def weights(self) -> np.ndarray:
        """The simplex row's coefficients: 1 for every cell."""
        return np.ones(self.n)

    def total(self, v: np.ndarray) -> float:
        """1ᵀv, the left-hand side of the simplex row Σ_j d_j = 1."""
        return float(v.sum())

    def fold(self, v: np.ndarray) -> np.ndarray:
        """Per-variable sums of a cell vector (here: the vector itself)."""
        return v

    def unfold(self, x: np.ndarray) -> np.ndarray:
        """The cell masses of the variables ``x`` (here: themselves)."""
        return x

    @property
    def exact(self) -> PairLP:
        """The LP whose privacy rows certify the masses (here: itself)."""
        return self

    def lagrangian_bound(self, y: np.ndarray, lam: np.ndarray) -> float:
        """min_i (c + Bᵀy)_i − δ Σλ after clipping y_{s,i} into [0, λ_s]: a valid lower bound on the LP."""
        lam = np.maximum(lam, 0.0)
        y = np.clip(y, 0.0, lam[:, None])
        return float(np.min(self.costs + self.bt_times(y)) - self.delta * lam.sum())

    def _q_matrix(self, wq: np.ndarray, kappa: np.ndarray) -> np.ndarray:
        """Q diag(κ)^½ with Q[:, s] = Σ_i wq_{s,i} b_{s,i}: n × #shifts, Fortran order."""
        n, pad, ee = self.n, self._pad, math.exp(self.epsilon)
        qp = np.zeros((n + 2 * pad, self.n_shifts), order="F")
        for a, st in enumerate(self._starts()):
            qp[st : st + self.n_ev, a] -= ee * wq[a]
        q = qp[pad : pad + n]
        q[self.ev0 : self.ev0 + self.n_ev] += wq.T
        return q * np.sqrt(kappa)[None, :]

    def _band_diagonal(self, diag: np.ndarray, omega: np.ndarray) -> np.ndarray:
        """The diagonal of diag + Bᵀ diag(ω) B."""
        ee = math.exp(self.epsilon)
        dg = diag + ee * ee * self.scatter_partners(omega)
        dg[self.ev0 : self.ev0 + self.n_ev] += omega.sum(axis=0)
        return dg

    def _band_ranges(self):
        """Per shift (a, s, lo_i, hi_i): the event cells i ∈ [lo_i, hi_i) whose partner i − s is a cell."""
        i0, i1 = self.ev0, self.ev0 + self.n_ev
        for a, s in enumerate(self.shifts):
            lo_i, hi_i = max(i0, s), min(i1, self.n + s)  # keep 0 <= i − s < n
            if lo_i < hi_i:
                yield a, int(s), lo_i, hi_i

    def schur_dense(
        self, diag: np.ndarray, omega: np.ndarray, wq: np.ndarray, kappa: np.ndarray
    ) -> np.ndarray:
        """N = diag + Bᵀ diag(ω) B + Q diag(κ) Qᵀ with Q[:, s] = Σ_i wq_{s,i} b_{s,i} (Fortran order, upper
        triangle valid for Cholesky)."""
        n, ee = self.n, math.exp(self.epsilon)
        nmat = blas.dsyrk(1.0, self._q_matrix(wq, kappa))  # Fortran order, upper triangle
        flat = nmat.reshape(-1, order="F")  # element (r, c) at r + c·n
        flat[:: n + 1] += self._band_diagonal(diag, omega)
        # off-diagonal −e^ε ω at (i, i − s) for i in E; upper triangle: row min, column max
        for a, s, lo_i, hi_i in self._band_ranges():
            vals = -ee * omega[a, lo_i - self.ev0 : hi_i - self.ev0]
            first = min(lo_i, lo_i - s) + max(lo_i, lo_i - s) * n
            flat[first : first + (hi_i - lo_i) * (n + 1) : n + 1] += vals
        return nmat


@dataclass(frozen=True)
class FoldedPairLP:
    """The pair LP of a mirror-symmetric grid restricted to mirror-symmetric masses: half the variables
    and half the shifts.

    On a grid whose cells, event range and costs are symmetric about 0 (cell j ↔ cell n − 1 − j, shift
    s ↔ −s), the mirror image of a feasible d is feasible with the mirrored cost, and so is their average
    (the constraints are convex): the LP has a symmetric optimum.  Writing d = Fx (x_q the mass of each
    of the mirror cells of q, F the 0/1 unfolding), the rows of the shifts −s repeat those of s, so

        min ĉᵀx  s.t.  aᵀx = 1, x ≥ 0, Σ_i max(0, (BFx)_{s,i}) ≤ δ for every shift s > 0,

    with ĉ = Fᵀc̄ (c̄ the symmetrised costs) and a = Fᵀ1, has the LP's value.  The Newton matrix on x is
    FᵀNF: ¼ of the dense factorisation's size, ⅛ of its work, and half the pair operations.  Certificates
    stay exact: the masses Fx are checked against every shift of :attr:`exact`, and the Lagrangian bound
    of the folded LP is lowered by ‖c − c̄‖∞ (the costs' asymmetry, round-off in practice), which covers
    the difference between the folded and the full LP's values (Σd = 1).
    """

    exact: PairLP  # every shift; the masses are checked against it
    half: PairLP  # the shifts s > 0, acting on unfolded masses
    cell_var: np.ndarray  # variable q of each cell j
    costs: np.ndarray  # ĉ
    weights: np.ndarray  # a = Fᵀ1
    asymmetry: float  # ‖c − c̄‖∞

    @property
    def n(self) -> int:
        return self.costs.size

    @property
    def n_ev(self) -> int:
        return self.half.n_ev

    @property
    def n_shifts(self) -> int:
        return self.half.n_shifts

    @property
    def m(self) -> int:
        return self.half.m

    @property
    def shifts(self) -> np.ndarray:
        return self.half.shifts

    @property
    def epsilon(self) -> float:
        return self.half.epsilon

    @property
    def delta(self) -> float:
        return self.half.delta

    def total(self, v: np.ndarray) -> float:
        """aᵀv: the simplex row Σ_j d_j = 1 in the folded variables."""
        return float(self.weights @ v)

    def unfold(self, x: np.ndarray) -> np.ndarray:
        """Fx: the cell masses."""
        return x[self.cell_var]

    def fold(self, v: np.ndarray) -> np.ndarray:
        """Fᵀv: sums over each pair of mirror cells."""
        return np.bincount(self.cell_var, weights=v, minlength=self.n)

    def b_times(self, x: np.ndarray) -> np.ndarray:
        return self.half.b_times(self.unfold(x))

    def bt_times(self, y: np.ndarray) -> np.ndarray:
        return self.fold(self.half.bt_times(y))

    def shortfalls(self, x: np.ndarray) -> np.ndarray:
        return self.half.shortfalls(self.unfold(x))

    def lagrangian_bound(self, y: np.ndarray, lam: np.ndarray) -> float:
        """min_q (ĉ + FᵀBᵀy)_q / a_q − δ Σλ − ‖c − c̄‖∞, y clipped into [0, λ_s]: a lower bound on the full
        LP (weak duality on the folded LP, whose value is the full LP's up to the costs' asymmetry)."""
        lam = np.maximum(lam, 0.0)
        y = np.clip(y, 0.0, lam[:, None])
        reduced = (self.costs + self.bt_times(y)) / self.weights
        return float(np.min(reduced) - self.delta * lam.sum() - self.asymmetry)

    def schur_dense(
        self, diag: np.ndarray, omega: np.ndarray, wq: np.ndarray, kappa: np.ndarray
    ) -> np.ndarray:
        """FᵀNF for the unfolded N of :meth:`PairLP.schur_dense` (``diag`` is already on x)."""
        half, n_full, n, ee = self.half, self.half.n, self.n, math.exp(self.epsilon)
        q = half._q_matrix(wq, kappa)
        lo_rows = q[: n_full // 2][::-1]
        qf = np.array(q[n_full // 2 :], order="F")
        qf[n - n_full // 2 :] += lo_rows  # Fᵀ Q: the centre cell (odd n) has no mirror
        nmat = blas.dsyrk(1.0, qf)
        flat = nmat.reshape(-1, order="F")
        band_dg = half._band_diagonal(np.zeros(n_full), omega)
        flat[:: n + 1] += diag + self.fold(band_dg)
        # off-diagonal −e^ε ω at (i, i − s) and (i − s, i) of N, folded; upper triangle of FᵀNF
        rows, cols, vals = [], [], []
        for a, s, lo_i, hi_i in half._band_ranges():
            i = np.arange(lo_i, hi_i)
            rows.append(self.cell_var[i])
            cols.append(self.cell_var[i - s])
            vals.append(-ee * omega[a, lo_i - half.ev0 : hi_i - half.ev0])
        r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
        v = np.where(r == c, 2.0 * v, v)  # both (i, i − s) and its transpose land on the diagonal
        flat += np.bincount(np.minimum(r, c) + np.maximum(r, c) * n, weights=v, minlength=n * n)
        return nmat


def fold(lp: PairLP, rtol: float = 1e-9) -> FoldedPairLP | None:
    """The :class:`FoldedPairLP` of ``lp`` if its grid is mirror-symmetric, else ``None``.

    Symmetric means: the mirror j ↔ n − 1 − j maps the event range onto itself, the shift set is symmetric,
    and the costs agree with their mirror image to ``rtol`` (relative to max(1, max |c|)).  The uniform grid
    of Prop. 1 (cells −L … L) is not symmetric; the grid of the thesis's code (cells −L … L − 1,
    :func:`~safeguarded.dp_noise.bounds.symmetric_partition`) is, for P and for D.
    """
    check_type("lp", lp, PairLP, "a PairLP (pair_lp)")
    rtol = check_positive("rtol", rtol)
    n = lp.n
    if lp.ev0 != n - lp.ev0 - lp.n_ev or not np.array_equal(np.sort(lp.shifts), np.sort(-lp.shifts)):
        return None
    c = lp.costs
    asym = float(np.max(np.abs(c - c[::-1]))) / 2.0
    if asym > rtol * max(1.0, float(np.abs(c).max())):
        return None
    j = np.arange(n)
    cell_var = np.where(j >= n // 2, j - n // 2, n - 1 - j - n // 2)
    half = PairLP(c, lp.ev0, lp.n_ev, lp.shifts[lp.shifts > 0], lp.epsilon, lp.delta)
    c_sym = 0.5 * (c + c[::-1])
    n_var = n - n // 2
    return FoldedPairLP(
        lp,
        half,
        cell_var,
        np.bincount(cell_var, weights=c_sym, minlength=n_var),
        np.bincount(cell_var, minlength=n_var).astype(float),
        asym,
    )


def pair_lp(prob) -> PairLP:
    """The pair LP of a uniform-grid ``bounds._Problem`` (P(L, β): plain cells; D(L, β): padded cells).

    Every shift s ∈ [−k, k] \\ {0} and every fine cell i of the event range gives the pair (i, i − s).
    """
    check_type("prob", prob, _Problem, "a bounds._Problem (the LP of upper_bound / lower_bound)")
    cells = prob.cells
    if np.any(cells.widths != 1):
        raise ValueError("prob must be on a uniform partition (all cell widths 1) for the pair LP")
    k, lo = cells.k, cells.lo
    shifts = np.array([s for s in range(-k, k + 1) if s != 0], dtype=np.int64)
    return PairLP(
        np.asarray(prob.costs, float),
        int(prob.ev_lo - lo),
        int(prob.ev_hi - prob.ev_lo),
        shifts,
        float(prob.epsilon),
        float(prob.delta),
    )


@dataclass
class IPMResult:
    """Masses and certified bounds on the LP value (``upper``: nan if the masses fail the exact check)."""

    masses: np.ndarray
    upper: float
    lower: float
    iterations: int
    status: str
    wall_time: float
    max_shortfall: float
    history: list = field(default_factory=list)
    shift_duals: np.ndarray | None = None  # λ_s of the budget rows (the clipped multipliers of the bound)


def _step(v: np.ndarray, dv: np.ndarray) -> float:
    neg = dv < 0
    return float(np.min(-v[neg] / dv[neg])) if np.any(neg) else np.inf


def _cholesky(nmat, flat, diag_idx):
    """Cholesky factor of N; near the optimum W spans many orders of magnitude and N can lose definiteness
    to round-off, so retry with a growing diagonal regularisation (10⁻¹⁴ … 10⁻⁸ of the mean diagonal)."""
    scale = float(flat[diag_idx].mean())
    for reg in (0.0, 1e-14, 1e-12, 1e-10, 1e-8):
        work = nmat.copy(order="F")
        if reg:
            work.reshape(-1, order="F")[diag_idx] += reg * scale
        try:
            return sla.cho_factor(work, lower=False, overwrite_a=True, check_finite=False)
        except np.linalg.LinAlgError:
            continue
    return None


class _Newton:
    """The Newton systems of one IPM iteration (module docstring): weights W = z/s, the factor of N, and
    the directions for any complementarity right-hand side (predictor, corrector, centrality correctors)."""

    def __init__(self, lp: PairLP, s: tuple, z: tuple, res: tuple, diag_idx: np.ndarray):
        self.lp, self.s, self.res = lp, s, res
        self.w = tuple(z_ / s_ for z_, s_ in zip(z, s, strict=True))
        _w1, w2, w3, w4 = self.w
        self.dt = w2 + w3
        self.kappa = w4 / (1.0 + w4 * (1.0 / self.dt).sum(axis=1))
        nmat = lp.schur_dense(self.w[0], w3 * w2 / self.dt, w3 / self.dt, self.kappa)
        self.factor = _cholesky(nmat, nmat.reshape(-1, order="F"), diag_idx)
        if self.factor is not None:
            self.a_d, self.a_t = self.solve_m(lp.weights, np.zeros((lp.n_shifts, lp.n_ev)))  # M⁻¹Aᵀ
            self.a_dot = lp.total(self.a_d)

    def t_inv(self, v):
        """T⁻¹v, T = diag(W₂ + W₃) + GᵀW₄G, shift by shift (Sherman–Morrison)."""
        v = v / self.dt
        return v - (self.kappa * v.sum(axis=1))[:, None] / self.dt

    def solve_m(self, g_d, g_t):
        """M [u_d; u_t] = [g_d; g_t] by the Schur complement on d."""
        lp, w3 = self.lp, self.w[2]
        u_d = sla.cho_solve(self.factor, g_d + lp.bt_times(w3 * self.t_inv(g_t)), check_finite=False)
        return u_d, self.t_inv(g_t + w3 * lp.b_times(u_d))

    def direction(self, rc):
        """(Δd, Δt, Δν, Δs, Δz) for the complementarity right-hand sides ``rc`` (one per block)."""
        lp, (s1, s2, s3, s4), (w1, w2, w3, w4) = self.lp, self.s, self.w
        rd_d, rd_t, rp, rs1, rs2, rs3, rs4 = self.res
        rc1, rc2, rc3, rc4 = rc
        # h = Fᵀ(r_c/s − W r_s) − r_d, with F blocks: d | t | t − Bd | −Gt
        v1 = rc1 / s1 - w1 * rs1
        v2 = rc2 / s2 - w2 * rs2
        v3 = rc3 / s3 - w3 * rs3
        v4 = rc4 / s4 - w4 * rs4
        u_d, u_t = self.solve_m(v1 - lp.bt_times(v3) - rd_d, v2 + v3 - v4[:, None] - rd_t)
        dnu = (rp - lp.total(u_d)) / self.a_dot
        dx_d, dx_t = u_d + dnu * self.a_d, u_t + dnu * self.a_t
        ds = (dx_d + rs1, dx_t + rs2, dx_t - lp.b_times(dx_d) + rs3, rs4 - dx_t.sum(axis=1))
        dz = tuple(r / s_ - w * ds_ for r, s_, w, ds_ in zip(rc, self.s, self.w, ds, strict=True))
        return dx_d, dx_t, dnu, ds, dz


def _steps(s_all, z_all, ds, dz) -> tuple[float, float]:
    """Largest primal and dual steps (≤ 1) that keep s and z non-negative."""
    a_p = min(1.0, min(_step(s_, d_) for s_, d_ in zip(s_all, ds, strict=True)))
    a_dl = min(1.0, min(_step(z, d_) for z, d_ in zip(z_all, dz, strict=True)))
    return a_p, a_dl


@np.errstate(over="ignore", invalid="ignore", divide="ignore")  # divergence is detected and reported
def solve_pair_lp(
    lp: PairLP,
    *,
    max_iter: int = MAX_ITER,
    gap_tol: float = 1e-6,
    shrink: float = 1e-7,
    correctors: int = 2,
    eta: float = 0.99,
    x0=None,
    verbose: bool = False,
) -> IPMResult:
    """Mehrotra predictor–corrector with Gondzio's centrality correctors on the pair LP; certified bounds.

    Parameters
    ----------
    lp
        The LP (:func:`pair_lp`).
    max_iter
        Iteration limit; the best certified bounds so far are returned when it is reached.
    gap_tol
        Stop when the certified bounds are within ``gap_tol`` (relative) of each other.
    shrink
        The IPM uses δ(1 − shrink), so that its residual infeasibility cannot push the masses over δ.
    correctors
        Number of Gondzio centrality correctors per iteration (0: plain Mehrotra).
    eta
        Fraction of the step to the boundary.
    x0
        Starting cell masses (e.g. the truncated Laplace's; for a :class:`FoldedPairLP` the masses of all
        cells, averaged over mirror cells), mixed 9:1 with uniform masses; default uniform.
    """
    check_type("lp", lp, (PairLP, FoldedPairLP), "a PairLP (pair_lp) or FoldedPairLP (fold)")
    check_integer("max_iter", max_iter, minimum=1)
    check_positive("gap_tol", gap_tol)
    check_integer("correctors", correctors, minimum=0)
    check_bool("verbose", verbose)
    if not 0 <= shrink < 1:
        raise ValueError(f"shrink must be in [0, 1), got shrink={shrink!r}")
    if not 0 < eta < 1:  # also refuses NaN
        raise ValueError(f"eta must be in (0, 1), got eta={eta!r}")
    if x0 is not None:
        x0 = check_array("x0", x0, shape=(lp.exact.n,))
        if np.any(x0 < 0) or not x0.sum() > 0:
            raise ValueError("x0 must hold non-negative masses with a positive sum")
    start = time.perf_counter()
    n, m, S = lp.n, lp.m, lp.n_shifts
    delta_in = lp.delta * (1.0 - shrink)
    c = lp.costs
    diag_idx = np.arange(n) * (n + 1)

    # starting point: the masses x0 (e.g. the truncated Laplace's, feasible) mixed with uniform masses so
    # that d > 0; t a little above max(0, Bd); slacks from the constraints (floored); duals z = μ₀/s
    n_cells, simplex_row = lp.exact.n, lp.weights
    if x0 is not None:  # folded: the mean mass of each pair of mirror cells
        x0 = lp.fold(x0) / simplex_row
    d = np.full(n, 1.0 / n_cells) if x0 is None else 0.9 * x0 / lp.total(x0) + 0.1 / n_cells
    floor_t = delta_in / lp.n_ev
    bd0 = lp.b_times(d)
    t = np.maximum(bd0, 0.0) + floor_t
    s1, s2 = d.copy(), t.copy()
    s3 = np.maximum(t - bd0, floor_t)
    s4 = np.maximum(delta_in - t.sum(axis=1), delta_in)
    n_ineq = n + 2 * m + S
    mu0 = float(c @ d) / n_ineq
    z1, z2, z3, z4 = mu0 / s1, mu0 / s2, mu0 / s3, mu0 / s4
    nu = 0.0
    cscale = max(1.0, float(np.abs(c).max()))
    history = []
    status = "iteration_limit"
    best = _Best()
    min_dinf = np.inf
    it = 0
    for it in range(1, max_iter + 1):
        bd_now = lp.b_times(d)
        rd_d = c - z1 + lp.bt_times(z3) - nu * simplex_row
        rd_t = z4[:, None] - z2 - z3
        rp = 1.0 - lp.total(d)
        rs1, rs2 = d - s1, t - s2
        rs3 = t - bd_now - s3
        rs4 = delta_in - t.sum(axis=1) - s4
        mu = (s1 @ z1 + np.vdot(s2, z2) + np.vdot(s3, z3) + s4 @ z4) / n_ineq
        primal_obj = float(c @ d)
        pinf = max(abs(rp), np.abs(rs1).max(), np.abs(rs2).max(), np.abs(rs3).max(), np.abs(rs4).max())
        dinf = max(np.abs(rd_d).max(), np.abs(rd_t).max()) / cscale
        gap = mu * n_ineq / max(1.0, abs(primal_obj))
        history.append((it, primal_obj, pinf, dinf, gap))
        if verbose:
            print(f"{it:3d} obj {primal_obj:.10f} pinf {pinf:.1e} dinf {dinf:.1e} gap {gap:.1e}", flush=True)
        if pinf < 1e-6 and gap < 1e-3:  # every iterate certifies bounds: keep the best of each
            best.update(lp, d, z3, z4)
            if best.upper - best.lower <= gap_tol * max(abs(best.lower), 1e-12):
                status = "optimal (certified gap)"
                break
        if gap < 1e-10:  # complementarity exhausted: more iterations only add round-off (and denormals)
            status = "stalled"
            break
        min_dinf = min(min_dinf, dinf)
        if min_dinf < 1e-6 and dinf > 1e4 * min_dinf:  # the dual residual blows up: numerical breakdown
            status = "numerical breakdown"
            break
        # an infeasible LP makes the iterates blow up
        if not (np.isfinite(mu) and np.isfinite(pinf) and mu < 1e20):
            status = "diverged (infeasible?)"
            break
        s_all, z_all = (s1, s2, s3, s4), (z1, z2, z3, z4)
        newton = _Newton(lp, s_all, z_all, (rd_d, rd_t, rp, rs1, rs2, rs3, rs4), diag_idx)
        if newton.factor is None:
            status = "numerical_error"
            break
        aff = newton.direction(tuple(-s_ * z for s_, z in zip(s_all, z_all, strict=True)))
        a_p, a_dl = _steps(s_all, z_all, aff[3], aff[4])
        mu_aff = sum(np.vdot(s_ + a_p * ds, z + a_dl * dz) for s_, ds, z, dz in
                     zip(s_all, aff[3], z_all, aff[4], strict=True)) / n_ineq  # fmt: skip
        sigma = (mu_aff / mu) ** 3
        rc = [
            sigma * mu - s_ * z - ds * dz for s_, z, ds, dz in zip(s_all, z_all, aff[3], aff[4], strict=True)
        ]
        dx_d, dx_t, dnu, ds, dz = newton.direction(rc)
        a_p, a_dl = _steps(s_all, z_all, ds, dz)
        # Gondzio's multiple centrality correctors: aim at a longer step, push the complementarity
        # products of the trial point back into [0.1, 10]·σμ, keep the corrector if the step grows
        for _ in range(correctors):
            alpha = min(a_p, a_dl)
            if alpha >= 1.0:
                break
            target = min(1.0, 1.5 * alpha + 0.1)
            mu_t = sigma * mu
            extra = []
            for s_, z, ds_, dz_ in zip(s_all, z_all, ds, dz, strict=True):
                v = (s_ + target * ds_) * (z + target * dz_)
                extra.append(np.maximum(np.clip(v, 0.1 * mu_t, 10.0 * mu_t) - v, -10.0 * mu_t))
            cand = newton.direction(tuple(r + e for r, e in zip(rc, extra, strict=True)))
            c_p, c_dl = _steps(s_all, z_all, cand[3], cand[4])
            if min(c_p, c_dl) < 1.01 * alpha:
                break
            rc = [r + e for r, e in zip(rc, extra, strict=True)]
            dx_d, dx_t, dnu, ds, dz = cand
            a_p, a_dl = c_p, c_dl
        a_p, a_dl = min(1.0, eta * a_p), min(1.0, eta * a_dl)
        if verbose:
            print(f"    steps primal {a_p:.3f} dual {a_dl:.3f} sigma {sigma:.2e}", flush=True)
        d, t = d + a_p * dx_d, t + a_p * dx_t
        s1, s2, s3, s4 = (s_ + a_p * d_ for s_, d_ in zip(s_all, ds, strict=True))
        z1, z2, z3, z4 = (z + a_dl * d_ for z, d_ in zip(z_all, dz, strict=True))
        nu += a_dl * dnu

    best.update(lp, d, z3, z4, last=True)
    upper = best.upper if np.isfinite(best.upper) else float("nan")
    return IPMResult(
        best.masses, upper, best.lower, it, status, time.perf_counter() - start,
        best.shortfall - lp.delta, history, best.shift_duals,
    )  # fmt: skip


class _Best:
    """The best certified bounds over the iterates: the cheapest masses that pass the exact privacy
    check (upper) and the largest Lagrangian bound of clipped duals (lower)."""

    def __init__(self):
        self.upper, self.lower = np.inf, -np.inf
        self.masses = self.shift_duals = None
        self.shortfall = np.inf

    def update(self, lp: PairLP, d: np.ndarray, y: np.ndarray, lam: np.ndarray, last: bool = False):
        """Certify the iterate (d, y, λ); ``last``: also keep its masses when none passed the check yet."""
        masses = lp.unfold(np.clip(d, 0.0, None))
        masses /= masses.sum()
        shortfall = float(lp.exact.shortfalls(masses).max())
        upper = float(lp.exact.costs @ masses) if shortfall <= lp.delta else float("nan")
        if upper < self.upper or (last and self.masses is None):
            self.upper, self.masses, self.shortfall = upper, masses, shortfall
        lower = lp.lagrangian_bound(y, lam)
        if lower > self.lower:
            self.lower, self.shift_duals = lower, np.maximum(lam, 0.0)

"""The data-independent bounding LPs of thesis §1.2 and §1.4: P(L, β), D(L, β), P(π, β), D(π, β).


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

Layout.  This module is the public face: it validates the parameters, picks the method and returns a
:class:`BoundResult`.  The problem itself (partitions, costs, :class:`_Problem`, the shortfall and its
separation) is in :mod:`._lp_problem`, each method in its own module (:mod:`._lp_compact`,
:mod:`._lp_cutting_plane`, :mod:`._lp_generation`, :mod:`.ipm`); the names of those that other modules
use are re-exported here, so ``from safeguarded.dp_noise.bounds import Partition`` keeps working.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from safeguarded.dp_noise import ipm
from safeguarded.dp_noise._lp_compact import _compact_matrix, _solve_compact
from safeguarded.dp_noise._lp_cutting_plane import _solve_cutting_plane
from safeguarded.dp_noise._lp_generation import _pair_tables, _PairColumns, _solve_generation
from safeguarded.dp_noise._lp_problem import (
    LOSSES,
    SOLVER_NAME,
    Partition,
    _add_rows,
    _check_prob_masses,
    _cut_row,
    _fine_cell_index,
    _fine_density,
    _highs,
    _monotone_rows,
    _positive_int,
    _Problem,
    _problem,
    _relevant_shifts,
    _run,
    _shortfall_on_cells,
    cell_costs,
    graded_partition,
    max_shortfall_bruteforce,
    privacy_shortfalls,
    separation_algorithm2,
    separation_algorithm3,
    support_rule,
    symmetric_partition,
    truncated_laplace_masses,
    uniform_partition,
)
from safeguarded.dp_noise.mechanisms import PiecewiseUniformNoise, _finite_float, validate_privacy
from safeguarded.solvers import InfeasibleError, SolverError, solver_version
from safeguarded.validation import check_bool, check_integer, check_positive, check_type

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
# the shared problem's helpers that the other modules of this work reach through ``bounds``
_REEXPORTED = (
    LOSSES, _add_rows, _check_prob_masses, _compact_matrix, _cut_row, _fine_cell_index, _fine_density, _highs,
    _monotone_rows, _pair_tables, _PairColumns, _positive_int, _Problem, _relevant_shifts, _run,
    _shortfall_on_cells, truncated_laplace_masses,
)


METHODS = ("generation", "compact", "cutting_plane", "ipm")


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

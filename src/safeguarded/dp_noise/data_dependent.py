"""Data-dependent bounds P′(L, β) (Prop. 5, L722–L733) and D′(L, β) (Prop. 7, L765–L771) of thesis §1.3.

The query outputs Φ = ∪_{k∈[K]} Φ_k(β) are K consecutive intervals of length β (L704); the noise is a
family of piecewise-constant distributions p_k on the fine cells I_i(β), i ∈ [±L] (restrictions (7)).

* **P′(L, β)**: minimise β Σ_k w_k Σ_i c_i p_k(i) subject to, for every ordered pair (k, m) and every
  φ = sβ ∈ 𝓑(β) ∩ {(m−k−1)β, (m−k)β, (m−k+1)β}, and every event A ⊆ [±L]:
  Σ_{j∈A} p_k(j) − e^ε Σ_{j∈A} p_m(j − s) ≤ δ.
* **D′(L, β)** through its LP dual (derived from Prop. 7 exactly as D(L, β) in :mod:`.bounds`): the same
  form with supports padded by Δf/β cells, costs c̲_i·w̲_k, and only the shift φ = (m − k)β for the pair
  (k, m) (the dual variables are piecewise constant on Φ_k, so a shift by sβ maps Φ_k onto Φ_{k+s}).
  A short derivation: the multiplier q_k(i) of θ_k ≤ … sums to β by stationarity in θ_k; p_k = q_k/β.

The uniform weight w = 1/|Φ| of the authors' experiments gives β·w_k = β·w̲_k = 1/K.

Both LPs are solved by the constraint-and-column generation of :mod:`.bounds` (the data-dependent
separation — the worst event for every (k, m, φ), Algorithm 3 L1873–L1899, literally in
:func:`safeguarded.dp_noise.bounds.separation_algorithm3` for the tests — is vectorised over the
fine cells: O(K²·N) per round as Prop. 8's analogue).
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise.mechanisms import validate_privacy
from safeguarded.solvers import InfeasibleError, SolverError, solver_version
from safeguarded.validation import check_array, check_choice, check_integer, check_positive, check_type

__all__ = [
    "DDResult",
    "dd_upper_bound",
    "dd_lower_bound",
    "dd_triples",
    "dd_max_shortfall",
    "DataDependentNoise",
    "interval_noise",
    "sign_preserving_noise",
]


@dataclass
class DDResult:
    kind: str
    value: float
    masses: np.ndarray  # K × n
    partition: bd.Partition
    epsilon: float
    delta: float
    K: int
    solver: str
    solver_version: str
    wall_time: float
    iterations: int
    max_shortfall: float


def dd_triples(K: int, k_sens: int, kind: str) -> list[tuple[int, int, int]]:
    """The (k, m, s) constraint families of P′ (three shifts per pair) or of D′'s dual (one shift)."""
    check_integer("K", K, minimum=1)
    check_integer("k_sens", k_sens, minimum=1)
    check_choice("kind", kind, ("upper", "lower"))
    out = []
    for k in range(K):
        for m in range(K):
            shifts = (m - k - 1, m - k, m - k + 1) if kind == "upper" else (m - k,)
            for s in shifts:
                if abs(s) <= k_sens and not (k == m and s == 0):
                    out.append((k, m, s))
    return out


def _shift_tables(cells: bd.Partition, ev_lo: int, ev_hi: int, shifts):
    """Per shift: uncovered counts per cell and the (j, j', count) overlap pairs, as in bounds."""
    prob = bd._Problem(cells, ev_lo, ev_hi, 1.0, 0.0, np.zeros(cells.n_cells), shifts=np.asarray(shifts))
    tables = bd._pair_tables(prob, same_cell=True)  # p_k(j) vs p_m(j): k ≠ m can violate DP
    return dict(zip([int(s) for s in shifts], tables, strict=True))


def _fine_density(cells: bd.Partition, P: np.ndarray) -> np.ndarray:
    return np.repeat(P / cells.widths, cells.widths, axis=-1)


def dd_max_shortfall(result: DDResult, kind: str | None = None) -> float:
    """max over the constraint families of Σ_{i∈A*}(d_k(i) − e^ε d_m(i − s)) − δ, on the fine grid."""
    check_type("result", result, DDResult, "a DDResult (dd_upper_bound, dd_lower_bound)")
    check_choice("kind", kind, (None, "upper", "lower"))
    kind = kind or result.kind
    cells = result.partition
    k_sens = cells.k
    d = _fine_density(cells, result.masses)
    ev_lo, ev_hi = (cells.lo, cells.hi) if kind == "upper" else (cells.lo + k_sens, cells.hi - k_sens)
    pad = np.pad(d, ((0, 0), (k_sens, k_sens)))
    idx = np.arange(ev_lo, ev_hi) - cells.lo + k_sens
    worst = -np.inf
    ee = math.exp(result.epsilon)
    for k, m, s in dd_triples(result.K, k_sens, kind):
        diff = pad[k, idx] - ee * pad[m, idx - s]
        worst = max(worst, float(diff[diff > 0].sum()) - result.delta)
    return worst


def _grouped_triples(K: int, k_sens: int, kind: str, groups: np.ndarray):
    """Distinct (g, h, s) families when the K Φ-intervals share distributions by ``groups`` (supp. G.1)."""
    return sorted(
        {(int(groups[k]), int(groups[m]), s) for k, m, s in dd_triples(K, k_sens, kind)}
        - {(g, g, 0) for g in range(int(groups.max()) + 1)}
    )


def _group_costs(cells: bd.Partition, loss, n_dist: int, kind: str) -> np.ndarray:
    """Cell costs per distribution (n_dist × n): one shared ``loss``, or a sequence of one loss per
    distribution (a loss that depends on the query output, e.g. Table 3's sign-preserving loss, L990)."""
    how = "mean" if kind == "upper" else "inf"
    if isinstance(loss, (list, tuple)):
        if len(loss) != n_dist:
            raise ValueError(f"loss must hold one loss per distribution ({n_dist}), got {len(loss)}")
        return np.array([bd.cell_costs(cells.edges, one, how) for one in loss])
    return np.tile(bd.cell_costs(cells.edges, loss, how), (n_dist, 1))


def _solve_dd(
    kind, epsilon, delta, K, partition, loss, tol, max_rounds, max_seconds, groups=None, weights=None
):
    import highspy

    if not isinstance(partition, bd.Partition):
        raise ValueError(f"partition must be a Partition, got partition={partition!r}")
    eps, d, _ = validate_privacy(epsilon, delta, partition.sensitivity)
    K = bd._positive_int("K", K)
    check_positive("tol", tol)
    check_integer("max_rounds", max_rounds, minimum=1)
    check_positive("max_seconds", max_seconds)
    cells = partition if kind == "upper" else partition.padded()
    n = cells.n_cells
    if groups is None:
        triples = dd_triples(K, partition.k, kind)
        default_weights = np.full(K, 1.0 / K)
    else:  # non-uniform Φ partition: Φ-intervals k with equal groups[k] share one distribution
        raw = np.asarray(groups)
        if raw.dtype.kind not in "iub" and not (raw.dtype.kind == "f" and np.all(raw == np.round(raw))):
            raise ValueError(f"groups must be integer group codes, got groups={groups!r}")
        groups = raw.astype(int)
        if (groups.shape != (K,) or groups.min() != 0
                or np.any((np.diff(groups) < 0) | (np.diff(groups) > 1))):
            raise ValueError(
                "groups must be a non-decreasing integer array of length K with codes 0, 1, ..., G-1 "
                f"(steps of 0 or 1), got groups={groups.tolist()!r}"
            )
        triples = _grouped_triples(K, partition.k, kind, groups)
        default_weights = np.bincount(groups) / K
        K = int(groups.max()) + 1
    if weights is None:
        weights = default_weights
    else:
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (K,) or np.any(weights < 0) or not math.isclose(weights.sum(), 1.0):
            raise ValueError(f"weights must be {K} non-negative numbers summing to 1 (one per distribution)")
    objective = (weights[:, None] * _group_costs(cells, loss, K, kind)).ravel()
    tables = _shift_tables(cells, partition.lo, partition.hi, sorted({s for _, _, s in triples}))
    w = cells.widths.astype(float)
    ee = math.exp(eps)
    inf = highspy.kHighsInf
    name = f"dp_noise.{'P' if kind == 'upper' else 'D'}'(L,beta) eps={eps:g} delta={d:g} K={K}"
    h = bd._highs(K * n, objective)
    h.setOptionValue("solver", "simplex")
    simplex = sp.kron(sp.identity(K), sp.csr_matrix(np.ones((1, n)))).tocsr()
    bd._add_rows(h, simplex, np.ones(K), np.ones(K))
    # budget rows: uncovered cells of block k (always positive terms)
    budget = sp.csr_matrix(
        np.array(
            [
                np.concatenate([np.zeros(k * n), tables[s][0] / w, np.zeros((K - k - 1) * n)])
                for k, _, s in triples
            ]
        )  # fmt: skip
    )
    bd._add_rows(h, budget, np.full(len(triples), -inf), np.full(len(triples), d))
    present = [np.zeros(tables[s][1].size, dtype=bool) for _, _, s in triples]
    n_cols = K * n
    start = time.perf_counter()
    rnd = 0
    try:
        while True:
            rnd += 1
            if rnd > max_rounds:
                raise SolverError(name, bd.SOLVER_NAME, "iteration_limit", f"{max_rounds} rounds")
            x, obj = bd._run(h, name)
            P = np.clip(x[: K * n], 0.0, None).reshape(K, n)
            dens = P / w
            worst, new = -np.inf, []
            for r, (k, m, s) in enumerate(triples):
                unc, pj, pjp, cnt = tables[s]
                diff = dens[k, pj] - ee * dens[m, pjp]
                pos = diff > 0
                value = float(np.dot(unc, dens[k]) + np.dot(cnt[pos], diff[pos]))
                worst = max(worst, value - d)
                if value - d > tol:
                    add = pos & ~present[r]
                    present[r] |= add
                    for i in np.nonzero(add)[0]:
                        new.append((r, k * n + pj[i], m * n + pjp[i], cnt[i], w[pj[i]], w[pjp[i]]))
            if worst <= tol or (not new and worst <= 1e-6 * max(d, 1e-3)):
                break
            if not new:
                raise SolverError(name, bd.SOLVER_NAME, "stalled", f"shortfall {worst:.3g}")
            if time.perf_counter() - start > max_seconds:
                raise SolverError(name, bd.SOLVER_NAME, "time_limit", f"shortfall {worst:.3g}")
            q = len(new)
            arr = np.array(new)
            h.addCols(
                q, np.zeros(q), np.zeros(q), np.full(q, inf), q,
                np.arange(q, dtype=np.int32), arr[:, 0].astype(np.int32) + K, arr[:, 3],
            )  # fmt: skip
            rr = np.arange(q)
            a, b = arr[:, 1].astype(int), arr[:, 2].astype(int)
            epi = sp.csr_matrix(
                (
                    np.concatenate([np.ones(q), -1.0 / arr[:, 4], ee / arr[:, 5]]),
                    (np.concatenate([rr, rr, rr]), np.concatenate([n_cols + rr, a, b])),
                ),
                shape=(q, n_cols + q),
            )
            bd._add_rows(h, epi, np.zeros(q), np.full(q, inf))
            n_cols += q
    except InfeasibleError as exc:
        raise ValueError(
            f"the support of partition (L={-partition.lo}) cannot hold ({eps:g}, {d:g})-DP noise; "
            "L must be larger"
        ) from exc
    P = P / P.sum(axis=1, keepdims=True)
    res = DDResult(
        kind, float(objective @ P.ravel()), P, cells, eps, d, K, bd.SOLVER_NAME,
        solver_version("HIGHS"), time.perf_counter() - start, rnd, 0.0,
    )  # fmt: skip
    res.max_shortfall = dd_max_shortfall(res) if groups is None else float(worst)
    return res


def dd_upper_bound(
    epsilon,
    delta,
    K,
    partition,
    loss="l1",
    *,
    tol=1e-9,
    max_rounds=5000,
    max_seconds=900.0,
    groups=None,
    weights=None,
):
    """P′(L, β) (Prop. 5); Φ is K intervals of length β = Δf/k.

    ``groups`` (length K, non-decreasing from 0) ties the distributions of Φ-intervals with equal group
    index, i.e. a coarser non-uniform partition of Φ (supp. Alg. G.1; Fig. 5).  ``loss`` is ``"l1"``,
    ``"l2"``, a callable, or a sequence with one loss per distribution; ``weights`` are the objective
    weights w_g of the distributions (default: proportional to their Φ length, 1/K each without groups).
    Returns a :class:`DDResult` whose ``masses[g]`` is the noise for query outputs in group g.
    """
    opts = (tol, max_rounds, max_seconds, groups, weights)
    return _solve_dd("upper", epsilon, delta, K, partition, loss, *opts)


def dd_lower_bound(epsilon, delta, K, partition, loss="l1", *, tol=1e-9, max_rounds=5000, max_seconds=900.0):
    """D′(L, β) (Prop. 7) through its LP dual, uniform weights; see the module docstring."""
    return _solve_dd("lower", epsilon, delta, K, partition, loss, tol, max_rounds, max_seconds)


@dataclass
class DataDependentNoise:
    """A data-dependent noise: query outputs φ in [phi_breaks[g], phi_breaks[g+1]) get noise p_g.

    ``phi_breaks`` are the G − 1 inner breakpoints of Φ (the outer groups extend to ±∞); ``edges`` and
    ``masses`` (G × n) the piecewise-uniform noise of each group.  ``sample(rng, values)`` draws one
    noise per query output in ``values``.
    """

    phi_breaks: np.ndarray
    edges: np.ndarray
    masses: np.ndarray
    name: str = "DD"
    data_dependent: bool = True

    def group_of(self, values) -> np.ndarray:
        return np.searchsorted(self.phi_breaks, np.asarray(values, dtype=float), side="right")

    def sample(self, rng: np.random.Generator, values) -> np.ndarray:
        values = np.asarray(values, dtype=float)
        g = self.group_of(values).ravel()
        cdf = np.cumsum(self.masses, axis=1)
        cdf[:, -1] = 1.0
        u = rng.random(g.size)
        cell = np.minimum((cdf[g] < u[:, None]).sum(axis=1), self.masses.shape[1] - 1)
        lo, hi = self.edges[cell], self.edges[cell + 1]
        return (lo + (hi - lo) * rng.random(g.size)).reshape(values.shape)


def _sign_preserving_loss(x, sign: float, penalty: float):
    """|x| where the noise keeps the sign of the query output, ``penalty``·|x| where it opposes it."""
    x = np.asarray(x, dtype=float)
    return np.where(x * sign >= 0, np.abs(x), penalty * np.abs(x))


def interval_noise(
    epsilon, delta, sensitivity, phi_breaks, *, k=4, support=None, loss="l1", weights=None
) -> tuple[DataDependentNoise, DDResult]:
    """A data-dependent noise for the query-output intervals (−∞, b_1), [b_1, b_2), …, [b_m, ∞) by P′.

    ``phi_breaks`` b_1 < … < b_m must be multiples of β = Δ/k (the noise cell width); noise cells of width
    β on [−Λ·Δ, (Λ + 1/k)·Δ) with Λ the support rule unless ``support`` (in sensitivities) is given.
    ``loss`` is one loss for all intervals or a sequence of m + 1 losses; ``weights`` the objective
    weights of the intervals (default uniform).  The unbounded outer intervals are represented by k + 2
    cells of width β: DP constraints only couple outputs at most Δ + β apart, so a longer run of one
    shared distribution adds no constraint.
    """
    eps, d, sens = validate_privacy(epsilon, delta, sensitivity, delta_positive=True)
    k = bd._positive_int("k", k)
    beta = sens / k
    b = check_array("phi_breaks", phi_breaks, ndim=1)
    cells = b / beta
    if b.ndim != 1 or b.size < 1 or np.any(np.diff(b) <= 0) or np.any(np.abs(cells - np.round(cells)) > 1e-9):
        raise ValueError(
            f"phi_breaks must be increasing multiples of beta = {beta:g} (sensitivity/k), got {phi_breaks!r}"
        )
    widths = np.diff(np.round(cells).astype(int))
    pad = k + 2
    groups = np.concatenate(
        [np.zeros(pad, int), np.repeat(np.arange(1, b.size), widths), np.full(pad, b.size)]
    )
    n_groups = b.size + 1
    if support is not None:
        check_positive("support", support)
    lam = bd.support_rule(eps, d) if support is None else bd._positive_int("support", support)
    part = bd.uniform_partition(lam * k, k, sens)
    w = np.full(n_groups, 1.0 / n_groups) if weights is None else weights
    res = dd_upper_bound(eps, d, groups.size, part, loss, groups=groups, weights=w)
    return DataDependentNoise(b, res.partition.edges, res.masses, name="(OPT)"), res


def sign_preserving_noise(
    epsilon,
    delta,
    sensitivity=2.0,
    *,
    k=8,
    phi_cell=0.5,
    phi_range=10.0,
    support=None,
    penalty=10_000.0,
) -> tuple[DataDependentNoise, DDResult]:
    """Table 3's data-dependent (OPT) noise (L990; repo ``main.cpp`` ``obj == 11``, supp. p.6).

    Φ = (−∞, −phi_range) ∪ cells of width ``phi_cell`` on [−phi_range, phi_range) ∪ [phi_range, ∞):
    42 distributions for the defaults (:func:`interval_noise`).  Loss for outputs φ: |x| on the side
    of φ's sign, ``penalty``·|x| on the other side (it penalises noise that flips the sign of the
    gradient sum).  Objective weights are uniform over the distributions ([DECIDE]: not stated).
    """
    validate_privacy(epsilon, delta, sensitivity, delta_positive=True)
    check_integer("k", k, minimum=1)
    check_positive("phi_cell", phi_cell)
    check_positive("phi_range", phi_range)
    if support is not None:
        check_positive("support", support)
    check_positive("penalty", penalty)
    n_mid = int(round(2 * phi_range / phi_cell))
    if n_mid < 1 or not math.isclose(n_mid * phi_cell, 2 * phi_range):
        raise ValueError(f"phi_range must be a positive multiple of phi_cell/2, got phi_range={phi_range!r}")
    breaks = -phi_range + phi_cell * np.arange(n_mid + 1)
    centres = np.concatenate([[-1.0], -phi_range + phi_cell * (np.arange(n_mid) + 0.5), [1.0]])
    losses = [
        functools.partial(_sign_preserving_loss, sign=float(np.sign(c)), penalty=penalty) for c in centres
    ]
    return interval_noise(epsilon, delta, sensitivity, breaks, k=k, support=support, loss=losses)

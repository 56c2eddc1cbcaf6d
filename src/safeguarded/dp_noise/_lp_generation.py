"""The ``"generation"`` method (the default) of :func:`safeguarded.dp_noise.bounds.upper_bound` /
``lower_bound``: constraint-and-column generation on the compact epigraph LP (our accelerated
Algorithm 1), modified in place in HiGHS and warm-started from seed masses.  :func:`_pair_tables` (the
overlap pairs per shift) is shared with the data-dependent problems of :mod:`.data_dependent`.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise._lp_problem import (
    SOLVER_NAME,
    _add_rows,
    _fine_cell_index,
    _highs,
    _monotone_rows,
    _Problem,
    _run,
)
from safeguarded.solvers import SolverError


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

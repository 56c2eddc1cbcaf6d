"""The ``"compact"`` method of :func:`safeguarded.dp_noise.bounds.upper_bound` / ``lower_bound``: the
epigraph reformulation of the worst-event constraints as one sparse LP, solved by HiGHS.

For each relevant shift s and each pair (j, j') of cells that overlap as Π_j ∩ (Π_{j'} + φ), an auxiliary
t ≥ p(j)/n_j − e^ε p(j')/n_{j'}, t ≥ 0, weighted by the overlap length; Σ t + (uncovered parts) ≤ δ.  This
is exactly the maximum over events A (the pairs are the ones of Algorithm 2, L831–L852).  The matrix
(:func:`_compact_matrix`) is also the LP that :mod:`.ipm` solves by an interior-point method.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise._lp_problem import (
    _add_rows,
    _fine_cell_index,
    _highs,
    _monotone_rows,
    _Problem,
    _run,
)


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

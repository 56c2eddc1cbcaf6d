"""Issue 49: the fits of Table 21's lymphography logistic cell the working set changes; which value is right.

    python benchmarks/bench_wm21_ws_fit.py            # ≈ 5 min on a shared core
    python benchmarks/bench_wm21_ws_fit.py --store    # stored Table 21 logistic cells with working_set=True

``bench_cells_34.py --only wm21`` found one of the cell's 111 shared fits 0.049 apart in optimal value between
the default path and ``working_set=True``.  This script reruns that cell's r-MixF(K) cross-validation (the
method whose fits differ: (split 4, size full, 3 folds, the eps grid (0, 1e-5, 1e-3, 0.1) x alpha grid
(0, 1e-3, 0.1)), 36 fold fits and the refit) three ways, recording every fit:

* ``default``: one Clarabel relaxation over every stored cut each round (the stored sweeps' path);
* ``ws_be9c8a1``: the working set as first written (commit be9c8a1, rebuilt here): the set grows by every
  pool cut within ``slack`` of binding at the new point;
* ``ws``: the working set of today: it grows by the most violated pool cut of each sample.

Per fit it gives each variant's reported value (the cutting plane's lower bound, i.e. Clarabel's objective),
its status, and the *exact* worst-case objective of the returned beta (:func:`exact_objective`: alpha ||beta||
plus the minimum over lambda of lambda eps + sum_n w_n sup_{i, z} [L - lambda d], each sup by Algorithm 10,
lambda by a grid then a bounded 1-d search: no cut approximation).  Where the variants differ (beyond 1e-4)
or a reported value is not its beta's exact objective, an independent reference: a cutting plane over
cvxpy's own formulation (``cp.logistic``) solved by Clarabel at tight tolerances, cold from the nominal
cuts, until no cut is violated by 1e-9; the final cut set solved again by SCS (eps 1e-9): ``reference_lower``
(SCS's relaxation value, a lower bound) and ``reference_upper`` (the smallest exact objective of the
iterates' betas).  Writes ``benchmarks/results/wm21_ws_fits.csv``; ``--cell dataset:size:split --method M``
another Table 21 logistic cell's and method's fits (``wm21_ws_fits_<dataset>_<size>_<split>_<method>.csv``).

``--store``: would the working set as the default keep Table 21's stored numbers?  Recomputes a few stored
cells of ``wasserstein_mixed/tables21_26`` with the log-loss (one per data set and size given by
``--cells``; the store's split) with ``working_set=True`` and compares them with the stored rows as
``results verify`` does (the shard's tolerance, rtol 1e-9); per cell the columns that differ, split into the
table's numbers (test_metric, test_loss, the chosen eps and alpha) and the bookkeeping (solves, rounds, cuts,
status: a working set changes the rounds and the cut count by construction).  Writes
``benchmarks/results/wm21_ws_store.csv``.

Measured (2026-11-29, one shared core; the CSVs hold every number):

* The 0.049 fit is r-MixF(K)'s first fold at (alpha, eps) = (1e-3, 1e-5) (fit 5): the working set of be9c8a1
  reported 0.0807756 (Clarabel InsufficientProgress in all three settings, accepted as optimal_inaccurate;
  the exact objective of its beta 0.0620479), the default path 0.0318334, the independent optimum
  0.0318334 (SCS 0.03183338, exact objective of the reference's beta 0.03183338).  Cause: the set chosen
  at the previous point (eps = 0) missed binding cuts; it grew by every pool cut within slack (1e-2) of
  binding, which at this near-separable point is (nearly) every one of the 1,067 pool cuts, and Clarabel
  fails on the whole pool here as the default path does.  Fixed (commit e9a9b33): the set grows by the most
  violated pool cut of each sample; the six fits below are then within 2.2e-10 of the reference.
* Six of the 37 fits differ beyond 1e-4, all at alpha = 1e-3, eps in {0, 1e-5, 1e-3}, folds 0 and 2: the
  default path is off the optimum (exact objective of its beta minus the reference) at 5 of 6, by up to
  0.0088 (fold 2, eps 0: 0.0471705 vs 0.0383755; reported 0.0518935), every one accepted
  optimal_inaccurate (the whole pool of 1,000-2,000 cuts: InsufficientProgress / AlmostSolved); be9c8a1's
  working set at 4 of 6 (up to 0.0302); today's working set at 0 of 6.  So on this cell the default path
  (the stored sweeps) is wrong too, in the other direction: its r-MixF(K) fits at alpha = 1e-3 are not
  optima; fixing it would move stored Table 21 cells (not done: the defaults stay).
* Seconds for the 37 fits: default 89.2, be9c8a1's working set 29.9, today's 31.5.  The whole cell
  (bench_cells_34 wm21, 8 methods): 155.4 s default, 65.7 s working set (2.37x; 1,930 Clarabel calls
  against 640; the largest difference of the 111 shared fits now 0.0135, the default's fold-2 fit above);
  6 of 8 rows still differ (ties among optima at eps = 0, and the default's inaccurate fits).
* ``--store``: 0 of 5 stored Table 21 logistic cells recompute equal with working_set=True (balance-scale
  half 0, primary-tumor half 9, breast-cancer half 6, spect full 0, lymphography full 4): test_loss differs
  in every cell (mostly 1e-8 to 1e-6 relative: other optimal betas of the same values), cuts in 5, rounds in
  4, ConF(K)'s chosen eps in 3 (test_metric 0.0606 -> 0.1818 on primary-tumor, 0.2414 -> 0.3103 on
  lymphography) and MixF(1)'s test_metric on lymphography (0.3448 -> 0.3793); the working set also reports
  optimal_inaccurate in rows the store has optimal.  So the default stays.
* ``--cell primary-tumor:half:9 --method "ConF(K)"`` (the largest test_metric change above): all 12 fold fits
  have the same optimal value by the three variants and the same exact objective (to 1e-7); the chosen eps
  moves (0.1 -> 0) through the two eps = 0 fits, where the variants return other optimal betas of that value
  (largest |beta| 26.9 vs 29.9 and 52.3 vs 55.3: non-unique optima on separable folds), not through a wrong
  optimum.
"""

from __future__ import annotations

import platform
import re
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize_scalar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cells_34 import AFTER  # noqa: E402

from safeguarded.wasserstein_mixed import experiments as wm  # noqa: E402
from safeguarded.wasserstein_mixed._cut_models import ConicCutModel  # noqa: E402
from safeguarded.wasserstein_mixed._problem import _base_rows, _lam_bounds  # noqa: E402
from safeguarded.wasserstein_mixed.models import _violations, cut_matrices  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "wm21_ws_fits.csv"
OUT_STORE = OUT.with_name("wm21_ws_store.csv")
DEFAULT_CELL = "lymphography:full:4"
#: (dataset, size, split) of the stored cells --store recomputes by default (cheap ones first, and the
#: cell of bench_cells_34's wm21)
STORE_CELLS = ("balance-scale:half:0", "primary-tumor:half:9", "breast-cancer:half:6", "spect:full:0",
               "lymphography:full:4")
TABLE_COLUMNS = ("test_metric", "test_loss", "eps", "alpha")
VARIANTS = ("default", "ws_be9c8a1", "ws")


def _solve_be9c8a1(self, eps, weights):
    """ConicCutModel.solve's working-set branch as of commit be9c8a1 (the set grows by every cut near
    binding)."""
    rows = self._pool_cuts(weights)
    cuts = None if rows is None else cut_matrices(self.spec, *rows)
    if not self.working_set or cuts is None:
        x, obj, flag = self._solve(eps, weights, cuts)
        self.solves += 1
        self.set_sizes.append(0 if cuts is None else cuts[0].shape[0])
        return x, obj, flag
    m = cuts[0].shape[0]
    keep = np.ones(m, bool) if self._x is None else self._violation(cuts, self._x) >= -self.slack
    while True:
        x, obj, flag = self._solve(eps, weights, tuple(a[keep] for a in cuts))
        self.solves += 1
        self.set_sizes.append(int(keep.sum()))
        viol = self._violation(cuts, x)
        if not np.any(~keep & (viol > self.pool_tol)):
            break
        keep |= viol >= -self.slack
    self._x = x
    return x, obj, flag


def _h(spec, beta, lam, eps, w):
    x = np.zeros(spec.n_base)
    x[: spec.nb], x[spec.lam] = beta, lam
    act = np.nonzero(w > 0)[0]
    v, _, _ = _violations(spec, x, act)  # s = 0: v_n = sup_{i,z} [L - lambda d] (Algorithm 10)
    return lam * eps + float(np.sum(w[act] * np.maximum(v, 0.0)))


def exact_objective(spec, beta, eps, w) -> float:
    """The worst-case objective of a fixed beta without cuts: convex piecewise-linear in lambda, minimised
    over the model's lambda range by a log grid then Brent's bounded search around the grid's best point."""
    d = spec.data
    lo, hi = _lam_bounds(spec)
    if d.M_x:
        lo = max(lo, float(np.max(spec.loss.lip * np.abs(beta[1 : 1 + d.M_x]) / d.x_weights)))
    grid = np.unique(np.concatenate([[lo, hi], lo + np.logspace(-8, np.log10(max(hi - lo, 1e-8)), 60)]))
    grid = grid[(grid >= lo) & (grid <= hi)]
    vals = [_h(spec, beta, lam, eps, w) for lam in grid]
    k = int(np.argmin(vals))
    r = minimize_scalar(lambda lam: _h(spec, beta, lam, eps, w), bounds=(grid[max(k - 1, 0)],
                        grid[min(k + 1, grid.size - 1)]), method="bounded", options={"xatol": 1e-12})
    return spec.alpha * float(np.linalg.norm(beta)) + min(float(r.fun), vals[k])


def _relaxation(spec, eps, w, cuts, solver, **options):
    import cvxpy as cp

    x = cp.Variable(spec.n_base)
    G, gc, R, rc = cut_matrices(spec, *cuts)
    lo, hi = _lam_bounds(spec)
    N = spec.data.N
    s = x[spec.s0 : spec.s0 + N]
    cons = [cp.abs(x[: spec.nb]) <= spec.bound, x[spec.lam] >= lo, x[spec.lam] <= hi, s >= 0,
            cp.logistic(-(G @ x + gc)) <= R @ x + rc, cp.norm(x[: spec.nb], 2) <= x[spec.tau]]
    if np.any(w <= 0):
        cons.append(x[spec.s0 + np.nonzero(w <= 0)[0]] == 0)
    A, u = _base_rows(spec)  # Theta: lip |beta_x,k| <= lambda w_k (numerical features, e.g. ConF)
    if A.shape[0]:
        cons.append(A @ x <= u)
    problem = cp.Problem(cp.Minimize(eps * x[spec.lam] + w @ s + spec.alpha * x[spec.tau]), cons)
    problem.solve(solver=solver, **options)
    return x.value, float(problem.value), problem.status


def reference(spec, eps, w, tol=1e-9, max_rounds=60) -> dict:
    """The independent check: cvxpy's cutting plane (Clarabel, tight), then SCS on its final cut set."""
    import cvxpy as cp

    d, act = spec.data, np.nonzero(w > 0)[0]
    n = np.concatenate([act] * len(spec.groups))
    cuts = [n, np.repeat(spec.groups, act.size), d.codes[n]]
    keys = {(int(a), int(b), c.tobytes()) for a, b, c in zip(*cuts, strict=True)}
    upper, rounds = np.inf, 0
    tight = dict(tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10, max_iter=1000)
    for rounds in range(1, max_rounds + 1):  # noqa: B007
        try:
            x, clarabel_value, clarabel_status = _relaxation(spec, eps, w, cuts, "CLARABEL", **tight)
        except cp.error.SolverError:  # (alpha = 0, eps ~ 0: beta at the box) SCS for this round
            x, clarabel_value, clarabel_status = (*_relaxation(spec, eps, w, cuts, "SCS", eps_abs=1e-9,
                                                               eps_rel=1e-9, max_iters=50_000)[:2], "SCS")
        upper = min(upper, exact_objective(spec, x[: spec.nb], eps, w))
        v, g, z = _violations(spec, x, act)
        new = [t for t in np.nonzero(v > tol)[0] if (int(act[t]), int(g[t]), z[t].tobytes()) not in keys]
        if not new:
            break
        keys |= {(int(act[t]), int(g[t]), z[t].tobytes()) for t in new}
        cuts = [np.concatenate([cuts[0], act[new]]), np.concatenate([cuts[1], g[new]]),
                np.vstack([cuts[2], z[new]])]
    x, scs_value, scs_status = _relaxation(spec, eps, w, cuts, "SCS", eps_abs=1e-9, eps_rel=1e-9,
                                           max_iters=50_000)
    upper = min(upper, exact_objective(spec, x[: spec.nb], eps, w))
    return {"reference_lower": scs_value, "reference_upper": upper, "reference_status": scs_status,
            "reference_clarabel": clarabel_value, "reference_clarabel_status": clarabel_status,
            "reference_rounds": rounds, "reference_cuts": len(cuts[0])}


def run_variant(variant: str, cell: str = DEFAULT_CELL, method: str = "r-MixF(K)") -> tuple[list, float]:
    """Fit ``method`` of a Table 21 logistic cell (``dataset:size:split``, bench_cells_34's wm21 settings
    otherwise) by ``variant``; returns every fit (spec, eps, weights, result) and the seconds."""
    _, function, kwargs = AFTER["wm21"]
    dataset, size, split = cell.split(":")
    kwargs = dict(kwargs, dataset=dataset, size=size, split=int(split), methods=(method,))
    calls, original, original_solve = [], wm.cutting_plane, ConicCutModel.solve

    def recorded(spec, eps, weights=None, model=None, **kw):
        r = original(spec, eps, weights, model, **kw)
        calls.append((spec, eps, np.array(weights), r))
        return r

    wm.cutting_plane = recorded
    if variant == "ws_be9c8a1":
        ConicCutModel.solve = _solve_be9c8a1
    start = time.perf_counter()
    try:
        function(**kwargs, working_set=variant != "default")
    finally:
        wm.cutting_plane, ConicCutModel.solve = original, original_solve
    return calls, time.perf_counter() - start


def compare_store(cells=STORE_CELLS) -> int:
    from safeguarded import results as R

    sweep = "wasserstein_mixed/tables21_26"
    store = next(s for s in R.load_stores(None, "wasserstein_mixed") if s.sweep == sweep)
    stored = {(c.params["dataset"], c.params["size"], str(c.params["split"])): c for c in store.cells.values()
              if c.params["loss"] == "logistic"}
    rows = []
    for name in cells:
        cell = stored[tuple(name.split(":"))]
        tol = cell.header.get("tolerance") or R.DEFAULT_TOLERANCE
        start = time.perf_counter()
        now = wm.uci_cell(**cell.params, seed=cell.seed, working_set=True)
        seconds = time.perf_counter() - start
        for r in now:
            r.pop("clarabel_solves")
        diffs = R.compare_rows(cell.rows, now, rtol=tol["rtol"], atol=tol["atol"],
                               volatile=cell.header.get("volatile"), columns=tol.get("columns"))
        table = [d for d in diffs if d.split(":")[0].split()[-1] in TABLE_COLUMNS]

        def close(a, b, c, tol=tol):
            return R._close(a[c], b[c], tol["rtol"], tol["atol"])

        pairs = list(zip(cell.rows, now, strict=True))
        differ = sorted({a["method"] for a, b in pairs if not all(close(a, b, c) for c in TABLE_COLUMNS)})
        metric = [f"{a['method']} {a['test_metric']:.6g} -> {b['test_metric']:.6g}" for a, b in pairs
                  if not close(a, b, "test_metric")]
        rows.append({"cell": name, "loss": "logistic", "seconds_working_set": seconds,
                     "seconds_stored": R._cell_seconds(cell.record), "differences": len(diffs),
                     "table_differences": len(table), "methods_differ": ";".join(differ),
                     "test_metric_differs": "; ".join(metric),
                     "equal_within_store_tolerance": not diffs, "details": " | ".join(diffs)})
        print({k: v for k, v in rows[-1].items() if k != "details"}, flush=True)
    pd.DataFrame(rows).assign(machine=platform.node(), date=time.strftime("%Y-%m-%d")).to_csv(OUT_STORE,
                                                                                               index=False)
    print(f"wrote {OUT_STORE}")
    return 0


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", action="store_true")
    parser.add_argument("--cells", nargs="*", default=list(STORE_CELLS), help="dataset:size:split")
    parser.add_argument("--cell", default=DEFAULT_CELL, help="without --store: dataset:size:split")
    parser.add_argument("--method", default="r-MixF(K)", help="without --store: the method whose fits")
    args = parser.parse_args(argv)
    if args.store:
        return compare_store(args.cells)
    out = OUT if (args.cell, args.method) == (DEFAULT_CELL, "r-MixF(K)") else OUT.with_name(
        "wm21_ws_fits_" + "_".join(args.cell.split(":") + [re.sub(r"\W", "", args.method)]) + ".csv")
    runs = {}
    for variant in VARIANTS:
        runs[variant] = run_variant(variant, args.cell, args.method)
        print(variant, f"{runs[variant][1]:.1f} s, {len(runs[variant][0])} fits", flush=True)
    rows = []
    per_fold = (len(runs["default"][0]) - 1) // 3
    for i, fits in enumerate(zip(*(runs[v][0] for v in VARIANTS), strict=True)):
        spec, eps, w, _ = fits[0]
        fold = "refit" if np.all(w > 0) else int(i // per_fold)
        row = {"fit": i, "fold": fold, "alpha": spec.alpha, "eps": eps}
        if any((e, s.alpha) != (eps, spec.alpha) for s, e, _, _ in fits):  # refits at other chosen points
            rows.append(row | {f"{v}_point": f"eps {e:g}, alpha {s.alpha:g}" for v, (s, e, _, _) in
                               zip(VARIANTS, fits, strict=True)} | {"note": "refits at different points"})
            continue
        for variant, (s, _, wv, r) in zip(VARIANTS, fits, strict=True):
            assert np.array_equal(wv, w)
            row |= {f"{variant}_value": r.lower, f"{variant}_status": r.status,
                    f"{variant}_exact": exact_objective(s, r.beta, eps, w),
                    f"{variant}_beta_max": float(np.abs(r.beta).max())}
        values = [row[f"{v}_{c}"] for v in VARIANTS for c in ("value", "exact")]
        if max(values) - min(values) > 1e-4:
            row |= reference(spec, eps, w)
            for variant in VARIANTS:
                row[f"{variant}_off"] = row[f"{variant}_exact"] - row["reference_upper"]
        rows.append(row)
        print({k: v for k, v in row.items() if not k.endswith("_status")}, flush=True)
    table = pd.DataFrame(rows).assign(**{f"{v}_seconds": runs[v][1] for v in VARIANTS},
                                      machine=platform.node(), date=time.strftime("%Y-%m-%d"))
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

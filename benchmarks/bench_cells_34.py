"""Where the time of a §3–§4 cell goes, and the transport subproblems before/after POT's network simplex.

    python benchmarks/bench_cells_34.py                      # every item below, ≈ 40 min on a shared core
    python benchmarks/bench_cells_34.py --only W fold        # some items (W, fold, costs, profile, wm21, ...)

Writes ``benchmarks/results/cells_34.csv`` (one row per item and variant: seconds, the ratio before/after,
the numbers each variant computed) and ``benchmarks/results/cells_34_profile.csv`` (per profiled cell, the
top functions by own time, and the time by kind: solver calls, cvxpy's model building, pair costs, the rest);
a run of some items replaces those items' rows and keeps the others'.

Items, the "before" variant being the code of commit 289a774 rebuilt here (HiGHS's LP, the loop over rows;
the bundle's lower-bound LP is today's in both variants, one HiGHS model kept across steps, so the fold's
"before" is faster than 289a774 was: its lower-bound LPs, rebuilt each step, took ≈ 55 s of 852 s in the
first run of this script, 6 s now):

* ``W``: W(P_N, P̂_N̂) of the radius filter on spambase's first simulation (690 × 2070 atoms, κ = 1):
  HiGHS's transport LP vs POT's ``ot.emd`` (``transport.wasserstein_distance(solver=...)``);
* ``costs``: the pair costs c_ij(θ) of Theorem 11 on spambase's first fold (460 × 2070 pairs) at a random
  θ ∈ Θ: the loop over rows (``models.inter_aro_violations``) vs the vectorised ``pair_costs``;
* ``fold``: one Inter-ARO* fit by the level bundle on that fold, (α, ε, ε̂, κ) = (0.05, 0.1, 10, 1) — the
  ``bundle`` row of ``robust_lr_aux_spambase_bundle.csv`` — before: V(θ) by the warm-started HiGHS LP and
  the loop pair costs; after: POT and the vectorised costs.  Same optimum to the certified gap (1e-6);
* ``profile``: cProfile of one cell of each kind that dominates §3–§4 sweeps today: robust_lr_aux
  Tables 27/30/31 on spect (Inter-ARO* by constraint generation, Clarabel), wasserstein_mixed Table 21
  on lymphography (logistic: the conic cut model) and Table 22 on cylinder-bands (hinge: HiGHS cuts).

* ``wm21``, ``wm22``, ``ra_spect``: the three profiled cells before/after the working sets (both opt-in,
  ``working_set=True``; the stored sweeps use the default): wasserstein_mixed Table 21 (logistic) and
  Table 22 (hinge) solve each cutting-plane round's Clarabel relaxation on the cuts near binding
  (:class:`ConicCutModel`), robust_lr_aux fits DRO+ARO+Aux by constraint generation from the pairs binding
  at the previous candidate (``cv.cross_validate``).  Each variant's every fit is recorded (the cutting
  plane's lower/upper bounds; Inter-ARO*'s solver value): the row ``after`` gives the largest difference
  of the optimal values over the fits both variants made (``value``), the cells' rows that differ
  (``rows_differ``: a chosen grid point or a test number beyond 1e-9), and the Clarabel solves;
  ``--only profile_after`` profiles the ``after`` variants (rows ``profile``, cells suffixed
  " (working set)").

Times are wall-clock on a machine shared with other jobs (the column ``machine``); compare within a run.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_robust_lr_aux_spambase import ALPHA, EPS, EPS_HAT, KAPPA, fold  # noqa: E402

from safeguarded.experiments import rng_for  # noqa: E402
from safeguarded.robust_lr_aux import cv, inter_aro_bundle, transport  # noqa: E402
from safeguarded.robust_lr_aux import data as D  # noqa: E402
from safeguarded.robust_lr_aux.models import Fit, inter_aro_violations  # noqa: E402
from safeguarded.wasserstein_mixed import experiments as wm  # noqa: E402

OUT = Path(__file__).resolve().parent / "results"
ITEMS = ("W", "costs", "fold", "profile", "wm21", "wm22", "ra_spect", "profile_after")


def loop_pair_costs(beta, lam, lam_hat, X, y, X_aux, y_aux, *, alpha, kappa, p=2):
    """The pair costs as computed before: Theorem 11's violations at s = ŝ = 0, a loop over the rows i."""
    zero = Fit(np.asarray(beta, float), 0.0, [], {"lam": lam, "lam_hat": lam_hat, "s": np.zeros(len(y)),
                                                  "s_hat": np.zeros(len(y_aux))})
    return inter_aro_violations(zero, X, y, X_aux, y_aux, alpha=alpha, kappa=kappa, p=p)


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def bench_W() -> list[dict]:
    sim = D.uci_simulation("spambase", rng_for(0))
    args = sim["X"], sim["y"], sim["X_aux"], sim["y_aux"]
    rows = []
    for variant, solver in (("before", "HIGHS"), ("after", "POT-EMD")):
        W, seconds = timed(transport.wasserstein_distance, *args, kappa=1.0, solver=solver)
        rows.append({"item": "W", "variant": variant, "solver": solver, "seconds": seconds, "value": W,
                     "size": f"{len(args[1])} x {len(args[3])}"})
    return rows


def bench_costs(repeats: int = 5) -> list[dict]:
    X, y, X_aux, y_aux = fold(0)
    rng = np.random.default_rng(1)
    lam, lam_hat = 0.4, 0.3
    beta = np.clip(0.3 * rng.normal(size=X.shape[1]), -(lam + lam_hat), lam + lam_hat)
    rows, values = [], {}
    for variant, function in (("before", loop_pair_costs), ("after", inter_aro_bundle.pair_costs)):
        seconds = []
        for _ in range(repeats):
            values[variant], s = timed(function, beta, lam, lam_hat, X, y, X_aux, y_aux, alpha=ALPHA,
                                       kappa=KAPPA)
            seconds.append(s)
        rows.append({"item": "costs", "variant": variant, "seconds": float(np.median(seconds)),
                     "size": f"{len(y)} x {len(y_aux)}", "note": f"median of {repeats} calls"})
    rows[-1]["value"] = float(np.abs(values["after"] - values["before"]).max())
    rows[-1]["note"] += "; value = max |after - before| over the pairs"
    return rows


def bench_fold() -> list[dict]:
    X, y, X_aux, y_aux = fold(0)
    rows = []
    for variant, solver in (("before", "HIGHS"), ("after", "POT-EMD")):
        original = inter_aro_bundle.pair_costs
        if variant == "before":
            inter_aro_bundle.pair_costs = loop_pair_costs
        try:
            bundle = inter_aro_bundle.InterAroBundle(X, y, X_aux, y_aux, alpha=ALPHA, kappa=KAPPA,
                                                     transport_solver=solver)
            fit, seconds = timed(bundle.fit, EPS, EPS_HAT)
        finally:
            inter_aro_bundle.pair_costs = original
        rows.append({"item": "fold", "variant": variant, "solver": bundle.solver_label, "seconds": seconds,
                     "value": fit.objective, "lower_bound": fit.extra["lower_bound"],
                     "steps": fit.extra["steps"],
                     "size": f"{len(y)} x {len(y_aux)}",
                     **{f"{k}_seconds": v for k, v in bundle.seconds.items()}})
        print(rows[-1], flush=True)
    return rows


KINDS = (  # (kind, substrings of "file:function") in the order they are matched
    ("solver: Clarabel", ("DefaultSolver", "clarabel")),
    ("solver: HiGHS", ("highspy", "Highs", "_highs")),
    ("solver: POT network simplex", ("emd_c",)),
    ("solver: ECOS/SCS", ("ecos", "scs")),
    ("model building (cvxpy)", ("cvxpy",)),
    ("pair costs and violations", ("inter_aro_violations", "pair_cost", "cdist", "logaddexp")),
)


def _kind(key: tuple) -> str:
    label = f"{key[0]}:{key[2]}"
    for kind, needles in KINDS:
        if any(n in label for n in needles):
            return kind
    return "numpy, Python and the rest"


def profile(name: str, function, **kwargs) -> tuple[list[dict], dict]:
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.runcall(function, **kwargs)
    wall = time.perf_counter() - start
    # (file, line, function) -> (calls, primitive calls, own seconds, cumulative seconds, callers)
    stats = pstats.Stats(profiler).stats
    by_kind: dict[str, float] = {}
    for key, (_, _, own, _, _) in stats.items():
        by_kind[_kind(key)] = by_kind.get(_kind(key), 0.0) + own
    top = sorted(stats.items(), key=lambda kv: -kv[1][2])[:8]
    rows = [{"cell": name, "rank": r + 1, "function": f"{Path(k[0]).name}:{k[1]}({k[2]})", "calls": v[0],
             "own_seconds": round(v[2], 2), "share": round(v[2] / wall, 3)} for r, (k, v) in enumerate(top)]
    rows += [{"cell": name, "rank": 0, "function": f"[kind] {kind}", "own_seconds": round(s, 2),
              "share": round(s / wall, 3)} for kind, s in sorted(by_kind.items(), key=lambda kv: -kv[1])]
    print(f"{name}: {wall:.1f} s; " + ", ".join(f"{k} {s:.1f}" for k, s in by_kind.items()), flush=True)
    return rows, {"item": "profile", "variant": "after", "cell": name, "seconds": wall}


PROFILED = {
    "robust_lr_aux Tables 27/30/31, spect, alpha 0.05, simulation 0 (constraint generation)": (
        cv.uci_cell, dict(dataset="spect", alpha=0.05, eps=(1e-3, 1e-2, 1e-1, 1.0), eps_inter=(1e-2, 1e-1),
                          eps_hat=(1.0, 10.0), weights=cv.THESIS_WEIGHTS, kappas=("1",), folds=3, seed=0)),
    "wasserstein_mixed Table 21, lymphography, logistic, full, split 4": (wm.uci_cell, dict(
        dataset="lymphography", loss="logistic", size="full", split=4, eps_grid=(0.0, 1e-5, 1e-3, 0.1),
        alpha_grid=(0.0, 1e-3, 0.1), folds=3)),
    "wasserstein_mixed Table 22, cylinder-bands, hinge, full, split 0": (wm.uci_cell, dict(
        dataset="cylinder-bands", loss="hinge", size="full", split=0, eps_grid=(0.0, 1e-5, 1e-3, 0.1),
        alpha_grid=(0.0, 1e-3, 0.1), folds=3)),
}


_NAMES = dict(zip(("ra_spect", "wm21", "wm22"), PROFILED, strict=True))
#: item -> (cell name, function, arguments); "before" runs without, "after" with working_set=True.  (The spect
#: cell's Inter-ARO* is the full reduced model, N·N̂ = 1,728 <= cg_threshold: the profile's label is older.)
AFTER = {item: (name.removesuffix(" (constraint generation)"), *PROFILED[name])
         for item, name in _NAMES.items()}
#: the columns of a cell's rows compared between the variants (verify's tolerance: rtol 1e-9)
COMPARED = ("test_metric", "test_loss", "eps", "alpha", "error", "cv_error", "eps_hat", "kappa", "w",
            "beta_norm_inf", "n_failed", "status")


class _Recorder:
    """Counts Clarabel solver constructions (retries included) and records every fit's optimal value."""

    def __init__(self):
        import clarabel

        from safeguarded.wasserstein_mixed import experiments as wm_experiments

        self.clarabel, self.wm = clarabel, wm_experiments
        self.orig = (clarabel.DefaultSolver, wm_experiments.cutting_plane, cv._Fitter.fit)
        self.calls, self.values = 0, {}

    def __enter__(self):
        solver, cutting_plane, fitter_fit = self.orig

        def counted(*args, **kwargs):
            self.calls += 1
            return solver(*args, **kwargs)

        def recorded_cp(spec, eps, weights=None, model=None, **kwargs):
            r = cutting_plane(spec, eps, weights, model, **kwargs)
            w = np.asarray(weights if weights is not None else [], float)
            key = (spec.data.M_x, spec.kappa_y, spec.nominal, spec.alpha, eps, hash(w.tobytes()))
            self.values.setdefault(key, r.lower)
            return r

        def recorded_fit(fitter, cand):
            f = fitter_fit(fitter, cand)
            key = (fitter.method, fitter.N, tuple(sorted(cand.items())))
            self.values.setdefault(key, float(f.extra.get("solver_objective", f.objective)))
            return f

        self.clarabel.DefaultSolver, self.wm.cutting_plane = counted, recorded_cp
        cv._Fitter.fit = recorded_fit
        return self

    def __exit__(self, *exc):
        self.clarabel.DefaultSolver, self.wm.cutting_plane, cv._Fitter.fit = self.orig


def _rows_differ(a: list[dict], b: list[dict]) -> list[str]:
    out = []
    for ra, rb in zip(a, b, strict=True):
        cols = [c for c in COMPARED if c in ra and c in rb and not _same(ra[c], rb[c])]
        if cols:
            out.append(f"{ra['method']}: " + ", ".join(f"{c} {ra[c]!r} -> {rb[c]!r}" for c in cols))
    return out


def _same(a, b) -> bool:
    if isinstance(a, float | int | np.floating) and isinstance(b, float | int | np.floating):
        return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-12
    return a == b


def bench_working_set(item: str) -> list[dict]:
    name, function, kwargs = AFTER[item]
    out, rows = {}, []
    for variant, ws in (("before", False), ("after", True)):
        with _Recorder() as rec:
            cell_rows, seconds = timed(function, **kwargs, working_set=ws)
        out[variant] = (cell_rows, rec.values)
        rows.append({"item": item, "variant": variant, "cell": name, "seconds": seconds,
                     "clarabel_calls": rec.calls, "fits": len(rec.values)})
        print(rows[-1], flush=True)
    (rows_b, val_b), (rows_a, val_a) = out["before"], out["after"]
    common = sorted(set(val_b) & set(val_a), key=str)
    diffs = [abs(val_a[k] - val_b[k]) for k in common]
    differ = _rows_differ(rows_b, rows_a)
    rows[-1].update(value=max(diffs, default=np.nan), fits_compared=len(common), rows_differ=len(differ),
                    note="value = max |optimal value after - before| over the fits both made; "
                         + ("; ".join(differ) if differ else "every compared column within 1e-9"))
    print(rows[-1], flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=ITEMS, default=list(ITEMS))
    parser.add_argument("--out", default=str(OUT / "cells_34.csv"))
    args = parser.parse_args(argv)
    rows, profile_rows = [], []
    if "W" in args.only:
        rows += bench_W()
    if "costs" in args.only:
        rows += bench_costs()
    if "fold" in args.only:
        rows += bench_fold()
    if "profile" in args.only:
        for name, (function, kwargs) in PROFILED.items():
            top, row = profile(name, function, **kwargs)
            profile_rows += top
            rows.append(row)
    for item in ("wm21", "wm22", "ra_spect"):
        if item in args.only:
            rows += bench_working_set(item)
    if "profile_after" in args.only:
        for item in ("wm21", "wm22", "ra_spect"):
            name, function, kwargs = AFTER[item]
            top, row = profile(f"{name} (working set)", function, **kwargs, working_set=True)
            profile_rows += top
            rows.append({**row, "item": "profile_after"})
    table = pd.DataFrame(rows)
    before = table[table.variant == "before"].set_index("item")["seconds"]
    table["speedup"] = [before.get(i, np.nan) / s if v == "after" else np.nan
                        for i, v, s in zip(table["item"], table["variant"], table["seconds"], strict=True)]
    table = table.assign(machine=platform.node(), date=time.strftime("%Y-%m-%d"))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():  # keep the rows of the items not rerun
        old = pd.read_csv(out)
        table = pd.concat([old[~old["item"].isin(table["item"])], table], ignore_index=True)
    table.to_csv(out, index=False)
    print(table.drop(columns=["machine"]).to_string(), f"\nwrote {out}")
    if profile_rows:
        path = out.with_name(out.stem + "_profile.csv")
        new = pd.DataFrame(profile_rows)
        if path.exists():
            old = pd.read_csv(path)
            new = pd.concat([old[~old["cell"].isin(new["cell"])], new], ignore_index=True)
        new.to_csv(path, index=False)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Runtime of Algorithm 1 (corrected Theorem 1, vectorised) against the LP-bisection baselines of
Section 6.2, over the number of records |R_X| — a figure of this repository, not of the paper (the
paper argues "linear time" but measures nothing).

    SAFEGUARDED_N_JOBS=1 python benchmarks/bench_atr_runtime.py [--max-seconds 120] [--quick]

Synthetic tables: QID groups of 10 records (one private attribute with 10 values), P(x) ~ Gamma(1)
normalised, decision rules d in {0, 0.5, 1} at random, delta = 0.9. Methods:

* ``algorithm1``: :func:`safeguarded.atr.algorithm.algorithm1` (beta*_T and the announced mapping);
* ``lp_per_group``: one bisection of small feasibility LPs per QID group (OPT-Sub);
* ``lp_monolithic``: one bisection of feasibility LPs over all records (OPT), beta* only.

The LPs are solved by HiGHS (scipy.optimize.linprog), bisection tolerance 1e-9 (30 LPs). A baseline
stops growing once the predicted time of the next size exceeds ``--max-seconds``. Writes
``figures/atr/runtime.{png,pdf,csv}`` and prints the log-log slopes and the speed-up at the largest
size every method reached.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from safeguarded.atr import lfp
from safeguarded.atr.algorithm import algorithm1
from safeguarded.atr.fidelity import fidelity_box
from safeguarded.experiments import rng_for

GROUP_SIZE = 10
DELTA = 0.9


def instance(n: int, seed: int = 0):
    rng = rng_for(seed, n)
    group = np.repeat(np.arange(n // GROUP_SIZE), GROUP_SIZE)
    p = rng.gamma(1.0, size=group.size)
    p /= p.sum()
    d = rng.choice([0.0, 0.5, 1.0], group.size)
    lo, hi = fidelity_box(d, delta=DELTA)
    return p, d, lo, hi, group


def time_algorithm1(p, d, lo, hi, group, repeats):
    best = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        res = algorithm1(p, lo, hi, group, d=d)
        best = min(best, time.perf_counter() - t)
    return best, res.beta, 0


def slope(frame):
    """Least-squares slope of log10(seconds) on log10(records), sizes >= 1e3 (fixed overheads excluded)."""
    f = frame[frame["records"] >= 1000]
    if len(f) < 2:
        f = frame
    if len(f) < 2:
        return float("nan")
    return float(np.polyfit(np.log10(f["records"]), np.log10(f["seconds"]), 1)[0])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seconds", type=float, default=150.0, help="budget per baseline size")
    parser.add_argument("--quick", action="store_true", help="sizes up to 1e5 only (a smoke run)")
    args = parser.parse_args(argv)
    top = 5 if args.quick else 7
    sizes = sorted({int(round(v, -1)) for k in range(2, top + 1) for v in (10**k, 3 * 10**k) if v <= 10**top})
    rows, alive = [], {"lp_per_group": True, "lp_monolithic": True}
    last = {}
    for n in sizes:
        p, d, lo, hi, group = instance(n)
        sec, beta, n_lps = time_algorithm1(p, d, lo, hi, group, repeats=3 if n <= 10**6 else 1)
        rows.append(
            dict(method="algorithm1", records=n, groups=n // GROUP_SIZE, seconds=sec, beta=beta, n_lps=0)
        )
        print(f"algorithm1     n={n:>9d}  {sec:9.4f} s  beta*={beta:.9f}", flush=True)
        for method, fn in (
            ("lp_per_group", lfp.lp_bisection_per_group),
            ("lp_monolithic", lfp.lp_bisection_monolithic),
        ):
            if not alive[method]:
                continue
            if method in last:
                n0, s0 = last[method]
                if s0 * (n / n0) ** 1.2 > args.max_seconds:
                    alive[method] = False
                    guess = s0 * (n / n0) ** 1.2
                    print(f"{method:14s} stops: predicted {guess:.0f} s > {args.max_seconds:.0f} s")
                    continue
            t = time.perf_counter()
            out = fn(p, lo, hi, group, tol=1e-9)
            sec = time.perf_counter() - t
            b = float(np.max(out.beta))
            if abs(b - beta) > 1e-6:
                raise AssertionError(f"{method} beta*={b} disagrees with Algorithm 1's {beta} at n={n}")
            last[method] = (n, sec)
            rows.append(
                dict(method=method, records=n, groups=n // GROUP_SIZE, seconds=sec, beta=b, n_lps=out.n_lps)
            )
            print(f"{method:14s} n={n:>9d}  {sec:9.4f} s  beta*={b:.9f}  LPs={out.n_lps}", flush=True)
    frame = pd.DataFrame(rows)
    frame["solver"] = np.where(frame["method"] == "algorithm1", "closed form (numpy)", lfp.SOLVER)

    slopes = {m: slope(f) for m, f in frame.groupby("method", sort=False)}
    alg = frame[frame["method"] == "algorithm1"]
    top_slope = slope(alg[alg["records"] >= alg["records"].max() / 100])
    summary = [f"log-log slope (sizes >= 1e3): {m} {s:.2f}" for m, s in slopes.items()]
    summary += [f"log-log slope of algorithm1 over its top two decades: {top_slope:.2f}"]
    t_alg = alg.set_index("records")["seconds"]
    for m, f in frame[frame["method"] != "algorithm1"].groupby("method", sort=False):
        n_max = int(f["records"].max())
        ratio = float(f.set_index("records")["seconds"][n_max] / t_alg[n_max])
        summary += [f"speed-up of algorithm1 over {m} at its largest size n={n_max}: {ratio:.3g}x"]
    for line in summary:
        print(line)

    import matplotlib.pyplot as plt

    from safeguarded.plotting import save_figure, use_style

    use_style()
    fig, ax = plt.subplots(figsize=(6.0, 4.2))
    labels = {
        "algorithm1": "Algorithm 1 (corrected, vectorised)",
        "lp_per_group": "LP bisection per QID group",
        "lp_monolithic": "LP bisection, monolithic",
    }
    for m, f in frame.groupby("method", sort=False):
        ax.loglog(f["records"], f["seconds"], "o-", label=f"{labels[m]} (slope {slopes[m]:.2f})")
    ax.set_xlabel(r"records $|\mathcal{R}_X|$")
    ax.set_ylabel("wall time (s), one core")
    ax.set_title("Repository benchmark - not a figure of the paper", fontsize=9)
    ax.legend(fontsize=8)
    frame["slope"] = frame["method"].map(slopes)
    paths = save_figure(fig, "atr", "runtime", data=frame)
    print("wrote", ", ".join(str(v) for v in paths.values()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

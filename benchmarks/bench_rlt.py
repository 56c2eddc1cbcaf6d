"""Speed of the three RLT relaxations of thesis §6 side by side on the same simplicial instances.

    python benchmarks/bench_rlt.py [--sizes 10 20 40 60 80 100] [--instances 3] [--sdp-max 100]

Every instance (generator of §6.3, ``safeguarded.rlt.instances.draw_instance("simplex", n, seed)``) is
solved in one process, one after the other, by RLT/SDP, RLT (140), the proposed RLT as an n-variable
exponential-cone program (Theorem 22), and the proposed RLT by its closed form (root search).  Printed
and written to ``benchmarks/results/rlt_speed.csv`` (per solve) and ``rlt_speed_summary.csv``:

* the median per-instance ratio RLT/SDP ÷ proposed (solver times, and wall times) at the largest n
  where both ran (the thesis's abstract, L6035: "up to several orders of magnitude");
* the slope b of log t = a + b log n fitted to each method's median solver time.

Run under the heavy lock on a shared machine (RLT/SDP at n = 100 takes about 2 minutes with Clarabel).
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.rlt.experiment import loglog_slope
from safeguarded.rlt.instances import draw_instance
from safeguarded.rlt.relaxations import solve_method
from safeguarded.solvers import SolverError

OUT = Path(__file__).resolve().parent / "results"
ORDER = ("rlt_sdp", "rlt", "proposed", "proposed_closed_form")


def run(sizes, instances: int, sdp_max: int) -> pd.DataFrame:
    rows = []
    for n in sizes:
        for seed in range(instances):
            inst = draw_instance("simplex", n, seed)
            for method in ORDER:
                if method == "rlt_sdp" and n > sdp_max:
                    continue
                try:
                    r = solve_method(inst, method)
                    row = r.row()
                except SolverError as exc:
                    row = {
                        "method": method,
                        "status": "failed",
                        "solve_time": np.nan,
                        "wall_time": np.nan,
                        "value": np.nan,
                        "first_error": str(exc),
                    }
                rows.append({"n": n, "seed": seed, **row})
                print(
                    f"n={n:4d} seed={seed} {method:22s} solver {row['solve_time']:9.4f} s  "
                    f"wall {row['wall_time']:9.4f} s  {row.get('solver', '')}",
                    flush=True,
                )
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    ok = df[df["status"] == "optimal"]
    med = ok.pivot_table(index="n", columns="method", values=["solve_time", "wall_time"], aggfunc="median")
    slopes = pd.DataFrame(
        [
            {
                "method": m,
                "sizes": f"{sub.index.min()}..{sub.index.max()}",
                "slope_solver_time": loglog_slope(sub.index, sub.to_numpy()),
                "slope_wall_time": loglog_slope(sub.index, med["wall_time"][m].dropna().to_numpy()),
            }
            for m in ORDER
            if m in med["solve_time"]
            for sub in [med["solve_time"][m].dropna()]
        ]
    )
    both = ok.pivot_table(index=["n", "seed"], columns="method", values=["solve_time", "wall_time"])
    both = both.dropna(subset=[("solve_time", "rlt_sdp"), ("solve_time", "proposed")])
    n_max = both.index.get_level_values("n").max()
    at = both.loc[n_max]
    ratio = pd.DataFrame(
        [
            {
                "n": n_max,
                "instances": len(at),
                "ratio_solver_sdp_over_proposed": float(
                    (at["solve_time"]["rlt_sdp"] / at["solve_time"]["proposed"]).median()
                ),
                "ratio_wall_sdp_over_proposed": float(
                    (at["wall_time"]["rlt_sdp"] / at["wall_time"]["proposed"]).median()
                ),
                "ratio_solver_sdp_over_closed_form": float(
                    (at["solve_time"]["rlt_sdp"] / at["solve_time"]["proposed_closed_form"]).median()
                ),
                "ratio_solver_rlt_over_proposed": float(
                    (at["solve_time"]["rlt"] / at["solve_time"]["proposed"]).median()
                ),
            }
        ]
    )
    return med, slopes, ratio


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 60, 80, 100])
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--sdp-max", type=int, default=100)
    args = parser.parse_args(argv)
    df = run(args.sizes, args.instances, args.sdp_max)
    med, slopes, ratio = summarise(df)
    print(f"\nmachine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("\nmedian solver time (s):\n", med["solve_time"].round(4).to_string())
    print("\nmedian wall time (s):\n", med["wall_time"].round(4).to_string())
    print("\nlog-log slopes of the median time against n:\n", slopes.round(2).to_string(index=False))
    print("\nRLT/SDP ÷ proposed at the largest n with both:\n", ratio.round(1).to_string(index=False))
    OUT.mkdir(exist_ok=True)
    df.drop(columns=[c for c in ("first_error",) if c in df]).to_csv(OUT / "rlt_speed.csv", index=False)
    pd.concat([slopes.assign(kind="slope"), ratio.assign(kind="ratio")], ignore_index=True).to_csv(
        OUT / "rlt_speed_summary.csv", index=False
    )
    return df


if __name__ == "__main__":
    main()

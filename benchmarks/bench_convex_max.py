"""Our solve times per instance for thesis Tables 37–41, beside the thesis's (MOSEK/CPLEX, i7-8750H).

    python benchmarks/bench_convex_max.py [--set fast|all] [--exact-limit 600]

For every instance: Cor. 10 (Table 37), Cor. 11's exact method (Table 38) or Algorithm 12 (Tables
39–41) is run once; ``solver_s`` is the solver time (UB + LB; what the thesis reports, L5281) and
``wall_s`` includes building the models.  ``thesis_s`` is the printed time (Table 37 "time", Table 38
"Exact time", Tables 39–41 UB time + LB time).  ``--set fast`` skips the instances measured to take
minutes here (Table 38 P4/P5, Table 39 P5–P7, Table 40 P3/P4, Table 41 P5/P6/P9/P10/P13); ``--set all`` is the
paper scale and must run under the heavy lock.  Results: ``benchmarks/results/convex_max.csv``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import pandas as pd

from safeguarded.claims import parse_printed
from safeguarded.convex_max import cor10_bounds, cor11_exact, instance_names, load_instance, poly_bounds
from safeguarded.convex_max.thesis import TABLE37, TABLE38, TABLE39, TABLE40, TABLE41
from safeguarded.solvers import SolverError

SLOW = {("table38", "P4"), ("table38", "P5"), ("table39", "P5"), ("table39", "P6"), ("table39", "P7"),
        ("table40", "P3"), ("table40", "P4"), ("table41", "P5"), ("table41", "P6"), ("table41", "P9"),
        ("table41", "P10"), ("table41", "P13")}


def _thesis_time(table: str, name: str) -> float:
    row = {"table37": TABLE37, "table38": TABLE38, "table39": TABLE39, "table40": TABLE40,
           "table41": TABLE41}[table][name]
    if table in ("table37", "table38"):
        return parse_printed(row["time"])
    return parse_printed(row["ub_time"].rstrip("*")) + parse_printed(row["lb_time"].rstrip("*"))


def run_one(table: str, name: str, exact_limit: float) -> dict:
    inst = load_instance(table, name)
    start = time.perf_counter()
    status, upper, lower = "optimal", float("nan"), float("nan")
    try:
        if table == "table37":
            res = cor10_bounds(inst)
            solver_s, upper, lower = res.time, res.upper, res.lower
        elif table == "table38":
            res = cor11_exact(inst, time_limit=exact_limit)
            solver_s, status, upper, lower = res.time, res.status, res.bound, res.value
        else:
            opts = {"accept_inaccurate": True} if table == "table39" else {}
            res = poly_bounds(inst, ub_options=opts)
            solver_s, status = res.time, res.upper.status
            upper, lower = inst.report(res.upper.value), inst.report(res.lower.value)
    except SolverError as exc:
        solver_s, status = float("nan"), f"failed: {exc.status}"
    return {"table": table, "problem": name, "solver_s": solver_s, "wall_s": time.perf_counter() - start,
            "thesis_s": _thesis_time(table, name), "status": status, "upper": upper, "lower": lower}


def main(argv=None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("fast", "all"), default="fast")
    parser.add_argument("--exact-limit", type=float, default=600.0)
    parser.add_argument("--tables", default="37,38,39,40,41", help="comma-separated table numbers")
    args = parser.parse_args(argv)
    os.environ.setdefault("SAFEGUARDED_DATA_MIRROR", str(Path(__file__).resolve().parents[2] / "shared/data"))
    rows = []
    for table in [f"table{t.strip()}" for t in args.tables.split(",")]:
        for name in instance_names(table):
            if args.set == "fast" and (table, name) in SLOW:
                continue
            rows.append(run_one(table, name, args.exact_limit))
            r = rows[-1]
            print(f"{table} {name:>10}: UB {r['upper']:.6f} LB {r['lower']:.6f}; ours {r['solver_s']:8.3f} s "
                  f"solver, {r['wall_s']:8.3f} s wall; thesis {r['thesis_s']:8.2f} s  [{r['status']}]",
                  flush=True)
    df = pd.DataFrame(rows)
    df["machine"] = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus"
    tag = args.set if args.tables == "37,38,39,40,41" else f"{args.set}_t{args.tables.replace(',', '_')}"
    out = Path(__file__).parent / "results" / f"convex_max_{tag}.csv"
    out.parent.mkdir(exist_ok=True)
    df.to_csv(out, index=False, float_format="%.4g", lineterminator="\n")
    print(f"total: ours {df['solver_s'].sum():.1f} s solver / {df['wall_s'].sum():.1f} s wall; "
          f"thesis {df['thesis_s'].sum():.1f} s -> {out}")
    return df


if __name__ == "__main__":
    main()

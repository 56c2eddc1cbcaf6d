"""Speed of the Section 3 solvers on one Table 19 / Table 20 instance (thesis L3466-3498).

    SAFEGUARDED_N_JOBS=1 python benchmarks/bench_wasserstein_mixed.py [--N 500] [--share 0.5] [--repeats 3]

Measures, on the same instance in the same process, the median of ``--repeats`` runs of

* the cutting plane (Algorithm 9) with cuts added to one HiGHS LP in place (``addRows``, warm basis)
  against the same algorithm with the relaxation reassembled and solved from scratch by Clarabel each
  round (what a rebuild-per-round implementation pays);
* the cutting plane against the monolithic bounded LP (56') by HiGHS simplex and HiGHS interior point;
* for the log-loss, the Clarabel cutting plane against (56') with J tangent pieces.

Prints one line per method (seconds, rounds, cuts, objective) and writes
``benchmarks/results/wasserstein_mixed.csv``.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.wasserstein_mixed.instances import synthetic_mixed
from safeguarded.wasserstein_mixed.losses import make_loss, tangent_loss
from safeguarded.wasserstein_mixed.models import ConicCutModel, Spec, bounded_lp, cutting_plane


def _timed(fn, repeats):
    out, secs = None, []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        secs.append(time.perf_counter() - t0)
    return statistics.median(secs), out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--N", type=int, default=500)
    parser.add_argument("--share", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--J", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = []
    eps = 1e-2
    hinge = make_loss("hinge")
    data = synthetic_mixed(rng_for(args.seed, args.N, 1), args.N, 30, args.share, "classification")
    spec = Spec(data, hinge, kappa_y=float(data.K))
    cases = {
        "hinge cut, HiGHS in place": lambda: cutting_plane(spec, eps),
        "hinge cut, Clarabel rebuilt per round": lambda: cutting_plane(spec, eps, model=ConicCutModel(spec)),
        "hinge bounded LP (56'), HiGHS simplex": lambda: bounded_lp(spec, eps, lp_solver="simplex"),
        "hinge bounded LP (56'), HiGHS ipm": lambda: bounded_lp(spec, eps, lp_solver="ipm"),
        "logistic cut, Clarabel": lambda: cutting_plane(
            dataclasses.replace(spec, loss=make_loss("logistic")), eps
        ),
        f"logistic piece[{args.J}] bounded LP, HiGHS ipm": lambda: bounded_lp(
            dataclasses.replace(spec, loss=tangent_loss(make_loss("logistic"), args.J)), eps
        ),
    }
    for name, fn in cases.items():
        secs, res = _timed(fn, args.repeats)
        rows.append(
            {
                "method": name,
                "N": args.N,
                "share": args.share,
                "seconds": secs,
                "rounds": res.rounds,
                "cuts": res.cuts_added,
                "objective": res.objective,
                "status": res.status,
                "solver": res.solver,
            }
        )
        print(
            f"{name:45s} {secs:8.3f} s  rounds {res.rounds:3d}  cuts {res.cuts_added:6d}  "
            f"obj {res.objective:.8f}",
            flush=True,
        )
    frame = pd.DataFrame(rows)
    out = Path(__file__).parent / "results" / "wasserstein_mixed.csv"
    out.parent.mkdir(exist_ok=True)
    frame.to_csv(out, index=False)
    print("wrote", out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

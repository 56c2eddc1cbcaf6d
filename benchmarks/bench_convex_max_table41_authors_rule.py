"""Table 41's lower bounds built from the authors' own stored solutions, one step of Algorithm 12 at a time.

    python benchmarks/bench_convex_max_table41_authors_rule.py --authors PATH

``PATH`` is a checkout of the authors' public repository ``selvi-aras/convex-max`` (commit fe713b7d01bd,
:data:`safeguarded.convex_max.thesis.AUTHORS_REPOSITORY`); beside every Table 41 instance its folder
``Section 4.5 - sumofmax over polyhedron/<P>/`` holds ``UB solution.mat`` (the decision rule ``V`` their
CPLEX solve of (124) returned) and ``LB solution.mat`` (their scenarios ``scenarios_W``, the best point
``x_bar`` and ``lower_bound``).  Their ``note.txt`` there says the UB problem and the scenarios "typically"
have alternative optima and that "the solver, or solver version may change the LB quality".  Nothing of
theirs is copied into this repository; the script reads their files and writes only our numbers.

Per instance, with the instance read by our loader (the data mirror):

* ``ldr_bound_of_their_V``: Theorem 21's bound at their ``V`` (:func:`summax_ldr_bound`): equal to their
  stored UB when their ``V`` is optimal for our copy of the instance (a check that the data agree);
* ``value_at_their_x_bar``: our objective at their best point: equal to their stored LB when our objective
  is theirs;
* ``lb_their_V``: our Algorithm 12 lower bound (one-hot scenarios (129), one LP (96) each, HiGHS) from
  *their* ``V``: the one factor "which optimal decision rule" varied against our run;
* ``lb_their_V_last_tie``: the same with the last maximiser of each block where several tie (ours takes the
  first, ``np.argmax``);
* ``lb_their_scenarios``: our LPs (96) on *their* scenarios: the LP step alone;
* ``scenarios``, ``their_scenarios_first_tie``, ``tied_blocks``: how many of their 1 + n + q scenarios are
  the first-maximiser one-hot vectors of their ``V`` (our rule), and how many blocks of those scenarios'
  objectives have several maximisers (each scenario of theirs is checked to be optimal for its objective).

Each is judged against the printed LB under the digits rule of Table 41 (half a unit of the fifth
significant figure, :func:`sig5_tolerance`).  ``ours`` is the LB of the committed Table 41 run
(``figures/convex_max/table41.csv``).  Rows go to ``benchmarks/results/convex_max_table41_authors_rule.csv``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.claims import parse_printed
from safeguarded.convex_max import instance_names, load_instance
from safeguarded.convex_max.functions import block_argmax
from safeguarded.convex_max.instances import read_mat
from safeguarded.convex_max.polyhedron import (
    UpperBound,
    objective,
    scenario_lower_bound,
    summax_ldr_bound,
    summax_scenarios,
)
from safeguarded.convex_max.thesis import AUTHORS_STORED, TABLE41, sig5_tolerance
from safeguarded.paths import REPO_ROOT

OUT = Path(__file__).resolve().parent / "results" / "convex_max_table41_authors_rule.csv"
FOLDER = "Section 4.5 - sumofmax over polyhedron"




def _objectives(inst, V: np.ndarray) -> list[np.ndarray]:
    """The 1 + n + q linear objectives of the scenarios (125)-(127) at the decision rule ``V``."""
    X2 = inst.A - V.T @ inst.D
    return [V.T @ inst.d + inst.b] + [X2[:, i] for i in range(inst.n)] + [-V[i] for i in range(inst.q)]


def row(name: str, authors: Path, ours: float) -> dict:
    inst = load_instance("table41", name)
    ub = read_mat(authors / FOLDER / name / "UB solution.mat")
    lb = read_mat(authors / FOLDER / name / "LB solution.mat")
    V = np.asarray(ub["V"], dtype=float).reshape(inst.q, inst.m)
    their_ub = UpperBound(float(np.ravel(ub["upper_bound"])[0]), np.ravel(ub["u"]), V, None, 0.0, 0.0,
                          "CPLEX (authors' stored solution)", "", "optimal")
    scenarios = [np.asarray(w, dtype=float) for w in np.asarray(lb["scenarios_W"], dtype=float).T]
    objectives = _objectives(inst, V)
    J, K = inst.J, inst.K
    for c, w in zip(objectives, scenarios, strict=True):  # theirs are maximisers of the same objectives
        if abs(c @ w - c.reshape(K, J).max(axis=1).sum()) > 1e-6 * max(1.0, abs(c @ w)):
            raise SystemExit(f"{name}: a stored scenario is not a maximiser of its objective")
    tied = sum(int(((cb >= cb.max(axis=1, keepdims=True) - 1e-9).sum(axis=1) > 1).sum())
               for cb in (c.reshape(K, J) for c in objectives))
    printed = TABLE41[name]["lower"]
    tol = sig5_tolerance(printed)
    p = parse_printed(printed)
    out = {
        "problem": name,
        "printed_lb": printed,
        "tolerance": tol,
        "stored_ub": AUTHORS_STORED["table41"][name][0],
        "ldr_bound_of_their_V": summax_ldr_bound(inst, V),
        "stored_lb": AUTHORS_STORED["table41"][name][1],
        "value_at_their_x_bar": objective(inst, np.ravel(lb["x_bar"]).astype(float)),
        "ours": ours,
        "lb_their_V": scenario_lower_bound(inst, summax_scenarios(inst, their_ub)).value,
        "lb_their_V_last_tie": scenario_lower_bound(
            inst, [block_argmax(c, J, K, tie="last") for c in objectives]).value,
        "lb_their_scenarios": scenario_lower_bound(inst, scenarios).value,
        "scenarios": len(scenarios),
        "their_scenarios_first_tie": sum(bool(np.allclose(w, block_argmax(c, J, K)))
                                         for c, w in zip(objectives, scenarios, strict=True)),
        "tied_blocks": tied,
    }
    for key in ("ours", "lb_their_V", "lb_their_V_last_tie", "lb_their_scenarios"):
        out[f"{key}_within_printed_digits"] = bool(abs(out[key] - p) <= tol)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--authors", type=Path, required=True, help="checkout of selvi-aras/convex-max")
    ap.add_argument("--problems", nargs="+", default=instance_names("table41"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    if not (args.authors / FOLDER).is_dir():
        raise SystemExit(f"--authors must be a checkout of selvi-aras/convex-max with {FOLDER!r}")
    ours = pd.read_csv(REPO_ROOT / "figures" / "convex_max" / "table41.csv").set_index("problem")["LB value"]
    rows = [row(name, args.authors, float(ours[name])) for name in args.problems]
    frame = pd.DataFrame(rows)
    frame.to_csv(args.out, index=False, float_format="%.10g")
    print(frame.drop(columns=["tolerance"]).to_string(index=False))


if __name__ == "__main__":
    main()

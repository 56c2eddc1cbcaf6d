"""Checks behind the gaussian_mixtures causes of issue 32 (``src/safeguarded/gaussian_mixtures/causes.py``).

* Finding ``gm-mg-sigma-not-minimal`` (Tables 8, 11, 14 and the shares of Tables 10/15 built on them, at
  cells whose printed mixture is private): Theorem 6 says Algorithm 6 returns the *minimum* sigma satisfying
  condition (29), i.e. the sigma at which sup_phi H(phi) reaches (1 - eta) delta (eta = 0.01, L2169).  The
  printed entries contradict it in both directions:

  - ``above``: a sigma *below* the smallest sigma the printed value allows (printed + 0.005 pp, the rounding
    end most favourable to the thesis) already has delta(eps) < (1 - eta) delta by the independent audit
    quadrature (the continuous sup over phi in [0, Delta], which bounds the grid maximum of Algorithm 7), so
    it satisfies (29): the printed sigma is not the minimum, and a (29)-feasible mixture with that K improves
    on AG by more than the printed entry;
  - ``below``: at the *largest* sigma the printed value allows (printed - 0.005 pp) the mixture with the
    thesis's K has H(Delta) > (1 - eta) delta at phi = Delta, a point of every grid of Algorithm 7, so the
    printed sigma fails (29) itself.

* Finding ``gm-o-outside-bracket`` (Tables 10/15): the optimum o that a printed share implies together with
  the thesis's own printed m (Tables 8/14) lies outside our certified bracket [D, P] of the optimal loss by
  more than the 10^-3 to which the thesis says its bounds agree (L2988).

* Table 18 (``underspecified``): what the standard deviation is taken over is not stated; two readings of it
  differ by more than the deviations (ecoli, a small run with explicit seeds).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from safeguarded.gaussian_mixtures import audit, causes
from safeguarded.gaussian_mixtures import multi_gaussian as mg

ETA = 0.01

#: (norm, eps, delta) -> (printed improvement, K, case) -- the thesis's printed Table 8 (l1, L2170-L2179) and
#: Table 14 (l2, L3047-L3056) entries (reference data), with the K the check uses: Table 11's / Table 16's
#: (L2991-L3000 / L3074-L3083), except where marked, where the (29)-feasible mixture that beats the printed
#: entry has K = 1 (the printed best K is then not the best).
SIGMA_CASES = {
    ("l1", 0.25, 1e-4): ("-0.34", 10, "above"),
    ("l1", 0.5, 1e-4): ("6.20", 10, "above"),
    ("l1", 0.75, 1e-4): ("23.34", 10, "above"),
    ("l1", 0.25, 5e-4): ("-0.16", 1, "above"),
    ("l1", 0.5, 5e-4): ("11.01", 10, "above"),
    ("l1", 0.1, 1e-3): ("-0.22", 1, "above"),  # Table 11: K = 5
    ("l1", 0.25, 5e-3): ("0.94", 10, "above"),
    ("l1", 1.0, 5e-3): ("42.72", 5, "above"),
    ("l1", 0.75, 0.01): ("33.74", 5, "above"),
    ("l1", 0.25, 0.02): ("15.32", 8, "above"),
    ("l1", 0.5, 0.02): ("18.67", 6, "above"),
    ("l1", 1.0, 0.02): ("29.75", 4, "above"),
    ("l1", 0.5, 0.05): ("9.57", 4, "above"),
    ("l1", 0.75, 0.05): ("17.49", 3, "above"),
    ("l1", 0.25, 0.1): ("4.75", 3, "above"),
    ("l1", 1.0, 0.1): ("13.13", 2, "above"),
    ("l1", 0.5, 0.15): ("3.47", 2, "above"),
    ("l1", 0.75, 0.15): ("-0.30", 2, "above"),
    ("l1", 0.1, 5e-4): ("-0.16", 3, "below"),
    ("l1", 0.25, 1e-3): ("-0.16", 2, "below"),
    ("l1", 0.1, 5e-3): ("-0.29", 3, "below"),
    ("l2", 0.25, 1e-4): ("-0.67", 10, "above"),
    ("l2", 0.5, 1e-4): ("11.37", 10, "above"),
    ("l2", 0.75, 1e-4): ("39.88", 10, "above"),
    ("l2", 0.1, 5e-4): ("-0.33", 1, "above"),  # Table 16: K = 3
    ("l2", 0.25, 5e-4): ("-0.31", 1, "above"),
    ("l2", 0.5, 5e-4): ("19.44", 10, "above"),
    ("l2", 0.1, 1e-3): ("-0.43", 5, "above"),
    ("l2", 0.5, 1e-3): ("27.07", 10, "above"),
    ("l2", 0.25, 5e-3): ("1.65", 10, "above"),
    ("l2", 0.5, 5e-3): ("50.19", 8, "above"),
    ("l2", 1.0, 5e-3): ("58.92", 5, "above"),
    ("l2", 0.75, 0.01): ("48.12", 5, "above"),
    ("l2", 0.5, 0.02): ("26.20", 6, "above"),
    ("l2", 1.0, 0.02): ("39.50", 4, "above"),
    ("l2", 0.25, 0.1): ("15.19", 3, "above"),
    ("l2", 0.5, 0.1): ("2.24", 2, "above"),
    ("l2", 0.25, 0.15): ("11.55", 2, "above"),
    ("l2", 0.5, 0.15): ("9.57", 2, "above"),
    ("l2", 0.75, 0.15): ("-0.31", 1, "above"),
    ("l2", 0.1, 0.25): ("4.49", 1, "above"),
    ("l2", 0.75, 0.25): ("20.98", 1, "above"),
    ("l2", 0.1, 5e-3): ("-0.58", 3, "below"),
    ("l2", 0.25, 0.01): ("11.42", 10, "below"),
    ("l2", 0.1, 0.02): ("1.53", 10, "below"),
    ("l2", 0.25, 1e-3): ("-0.31", 2, "below"),
}


def _improvement(norm: str, sigma: float, eps: float, delta: float, k: int) -> float:
    """The improvement over the analytic Gaussian a multi-Gaussian of scale sigma has (what
    :func:`audit.implied_sigma` inverts), in %."""
    a = audit._ag_loss(eps, delta, norm)
    return 100 * (a - audit._mixture_loss("MG", eps, k, norm)(sigma)) / a


def _check_sigma_case(norm: str, eps: float, delta: float) -> None:
    printed, k, case = SIGMA_CASES[(norm, eps, delta)]
    target = (1 - ETA) * delta
    if case == "above":
        smallest = audit.implied_sigma("MG", float(printed) + 0.005, eps, delta, k, norm=norm)
        ours = mg.calibrate(eps, delta, 1.0, k, ETA).sigma
        assert ours < smallest, (norm, eps, delta)
        sigma = 0.5 * (ours + smallest)  # below every sigma the printed value allows
        assert _improvement(norm, sigma, eps, delta, k) > float(printed) + 0.005
        sup = audit.audit_cell(eps, delta, "MG", sigma, k)["delta_actual"]
        assert sup < target, (norm, eps, delta, sup / target)  # (29) holds at a smaller sigma
    else:
        largest = audit.implied_sigma("MG", float(printed) - 0.005, eps, delta, k, norm=norm)
        at_delta = float(mg.hockey_stick(1.0, largest, eps, 1.0, k)[0])  # phi = Delta, on every grid
        sup = audit.audit_cell(eps, delta, "MG", largest, k)["delta_actual"]  # independent quadrature
        assert at_delta > target and sup > target, (norm, eps, delta, at_delta / target)
        assert sup == pytest.approx(at_delta, rel=1e-6)  # phi = Delta is the worst shift here


def test_sigma_cases_are_the_registry_cells():
    cells = {
        (n, case): {(e, d) for (nn, e, d), (_, _, c) in SIGMA_CASES.items() if nn == n and c == case}
        for n in ("l1", "l2")
        for case in ("above", "below")
    }
    assert cells[("l1", "above")] == set(causes.SIGMA_ABOVE_L1)
    assert cells[("l1", "below")] == set(causes.SIGMA_BELOW_L1)
    assert cells[("l2", "above")] == set(causes.SIGMA_ABOVE_L2)
    assert cells[("l2", "below")] == set(causes.SIGMA_BELOW_L2)
    every = set(causes.NONPRIVATE) | set(causes.NONPRIVATE_L2)
    assert not any((e, d) in every for (_, e, d) in SIGMA_CASES)  # only cells whose mixture is private


@pytest.mark.parametrize(
    "norm,eps,delta",
    [("l1", 1.0, 5e-3), ("l1", 0.75, 1e-4), ("l1", 0.25, 1e-3), ("l2", 0.5, 0.02), ("l2", 0.1, 5e-3)],
)
def test_printed_sigma_is_not_the_minimum_of_29(norm, eps, delta):
    """Finding gm-mg-sigma-not-minimal, representative cells (fast): were the printed entry Algorithm 6's
    minimum sigma of (29) (Theorem 6), a smaller sigma could not satisfy (29) ('above'), and the printed
    sigma itself would satisfy it ('below')."""
    _check_sigma_case(norm, eps, delta)


@pytest.mark.slow
def test_printed_sigma_is_not_the_minimum_of_29_in_every_registered_cell():
    """Finding gm-mg-sigma-not-minimal, all 46 cells of SIGMA_CASES (about a minute)."""
    for norm, eps, delta in SIGMA_CASES:
        _check_sigma_case(norm, eps, delta)


@pytest.mark.parametrize(("eps", "delta", "printed", "k"), [(0.1, 0.01, -0.36, 2), (0.1, 0.02, -0.40, 6)])
def test_the_check_can_pass_where_the_printed_entry_is_the_minimum(eps, delta, printed, k):
    """At (0.1, 0.01) Table 8 prints -0.36 with K = 2, at (0.1, 0.02) -0.40 with K = 6 (Table 11), and both
    readings hold: the largest sigma the printed value allows satisfies (29), and the smallest does not beat
    the minimum (these Table 11 cells stay 'unexplained': causes.T11_CONSISTENT)."""
    assert (eps, delta) in causes.T11_CONSISTENT
    largest = audit.implied_sigma("MG", printed - 0.005, eps, delta, k)
    assert audit.audit_cell(eps, delta, "MG", largest, k)["delta_actual"] < (1 - ETA) * delta
    smallest = audit.implied_sigma("MG", printed + 0.005, eps, delta, k)
    assert smallest < mg.calibrate(eps, delta, 1.0, k, ETA).sigma


# ------------------------------------------------------------------ Table 11: K of a non-private mixture
def _audit_mg() -> pd.DataFrame:
    from safeguarded.paths import REPO_ROOT

    frame = pd.read_csv(REPO_ROOT / "figures" / "gaussian_mixtures" / "audit_tables07_08.csv")
    return frame[frame.mechanism == "MG"]


def _not_private(eps: float, delta: float) -> bool:
    """The audit's check of one cell, recomputed: the multi-Gaussian that the printed Table 8 entry implies
    with Table 11's K (the audit's k and printed columns) has delta(eps) > delta."""
    (row,) = _audit_mg()[(_audit_mg().epsilon == eps) & (_audit_mg().delta == delta)].itertuples()
    sigma = audit.implied_sigma("MG", float(row.printed) - 0.005, eps, delta, int(row.k))
    return audit.audit_cell(eps, delta, "MG", sigma, int(row.k))["delta_actual"] > delta


def test_table11_nonprivate_rows_are_audited_cells():
    """The Table 11 work-error 'best K of a non-private mixture': every row it is attributed to in the
    committed report is a cell whose printed mixture the paper-scale audit finds not (eps, delta)-DP, and
    the audit's check, recomputed at one of them, (2, 1e-4), fails privacy; at a Table 11 cell whose mixture
    is private, (1, 5e-3), the same check passes (the premise broken, the check fails)."""
    from safeguarded.claims import read_report
    from safeguarded.paths import REPO_ROOT

    report = read_report(REPO_ROOT / "figures")
    rows = report[(report.work == "gaussian_mixtures") & (report.item == "table11")]
    rows = rows[rows.why.str.startswith("best K of a non-private mixture")]
    cells = set()
    for claim in rows.claim:
        m = re.match(r"^best K at \(eps, delta\) = \(([\d.e-]+), ([\d.e-]+)\)$", claim)
        cells.add((float(m.group(1)), float(m.group(2))))
    audit_np = {(float(r.epsilon), float(r.delta)) for r in _audit_mg().itertuples() if not r.dp}
    assert len(cells) == 47 and cells <= audit_np == set(causes.NONPRIVATE)
    assert (2.0, 1e-4) in cells and _not_private(2.0, 1e-4)
    assert (1.0, 5e-3) not in audit_np and not _not_private(1.0, 5e-3)


# ------------------------------------------------------------------ Tables 10/15: the optimum o
#: Printed Tables 8 (L2170-L2179), 10 (L2975-L2984), 14 (L3047-L3056), 15 (L3060-L3069): rows delta = 1e-4
#: ... 0.25, columns eps = 0.1 ... 10 (reference data; the shares only at the cells whose mixture is private).
_T08 = """0.08 -0.34 6.20 23.34 62.01 72.86 81.56 88.07 91.67 95.12
-0.16 -0.16 11.01 53.45 55.73 69.36 79.42 91.87 94.78 94.73
-0.22 -0.16 15.89 49.97 52.99 67.43 78.26 91.45 94.53 94.53
-0.29 0.94 34.86 39.39 42.72 61.43 74.74 90.20 93.78 93.96
-0.36 6.48 27.68 33.74 38.03 57.84 79.12 89.54 93.44 93.65
-0.40 15.32 18.67 27.76 29.75 53.27 77.18 88.74 92.95 93.29
8.05 9.69 9.57 17.49 18.73 44.93 73.74 87.24 92.09 92.70
8.05 4.75 -0.13 13.71 13.13 35.70 70.07 85.67 91.33 92.11
2.33 3.17 3.47 -0.30 0.85 35.72 67.22 84.48 90.68 91.69
1.30 2.26 2.06 10.91 9.64 24.29 62.46 82.50 89.71 91.01"""
_T14 = """0.16 -0.67 11.37 39.88 80.96 87.07 91.81 95.32 97.45 99.72
-0.33 -0.31 19.44 72.53 74.79 83.51 89.79 94.84 97.30 99.67
-0.43 -0.31 27.07 68.58 70.94 81.38 88.61 94.29 97.04 99.65
-0.58 1.65 50.19 55.34 58.92 73.88 84.62 92.50 96.18 99.57
-0.72 11.42 40.01 48.12 53.14 68.78 83.43 91.37 95.65 99.53
1.53 26.77 26.20 40.59 39.50 61.66 80.21 89.88 94.97 99.47
23.31 21.65 14.70 25.82 22.16 46.75 73.80 87.01 93.68 99.37
25.14 15.19 2.24 22.87 15.91 30.38 65.96 83.62 92.21 99.27
14.18 11.55 9.57 -0.31 1.57 35.73 59.17 80.78 91.00 99.19
4.49 7.72 8.68 20.98 13.65 15.03 46.33 75.55 88.83 99.05"""


def _grid(text: str) -> dict:
    return {
        (e, d): float(v)
        for line, d in zip(text.splitlines(), causes.DELTAS, strict=True)
        for v, e in zip(line.split(), causes.EPSILONS, strict=True)
    }


def _shares(item: str) -> dict:
    """The printed shares of Table 10/15 at the private cells, from the committed claims report."""
    from safeguarded.claims import read_report
    from safeguarded.paths import REPO_ROOT

    claims = read_report(REPO_ROOT / "figures")
    rows = claims[(claims.work == "gaussian_mixtures") & (claims.item == item)]
    out = {}
    for claim, value in zip(rows.claim, rows.paper_value, strict=True):
        m = re.match(r"^share of AG's gap closed by MG at \(([\d.e-]+), ([\d.e-]+)\)", claim)
        if m:
            out[(float(m.group(1)), float(m.group(2)))] = float(value)
    return out


def _implied_o(a: float, improvement: float, share: float) -> tuple[float, float]:
    """[min, max] of o = a (1 - I/S) over the rounding intervals of the printed I (Table 8/14) and S."""
    ratios = [
        i / s for i in (improvement - 0.005, improvement + 0.005) for s in (share - 0.005, share + 0.005)
    ]
    values = [a * (1 - r) for r in ratios]
    return min(values), max(values)


@pytest.mark.parametrize(
    "item,table,bracket,outside,private",
    [
        ("table10", _T08, "table10_bracket.csv", "O_OUTSIDE_L1", "NONPRIVATE"),
        ("table15", _T14, "table15_bracket.csv", "O_OUTSIDE_L2", "NONPRIVATE_L2"),
    ],
)
def test_printed_share_implies_an_optimum_outside_our_bracket(item, table, bracket, outside, private):
    """Finding gm-o-outside-bracket: at the registered cells, the o that the printed share and the printed m
    imply is below our certified lower bound D by more than the stated agreement of 10^-3 (absolute or
    relative: L2988), or above P, the loss of a noise that satisfies (eps, delta)-DP. Were o the optimum to
    10^-3 (L2988), D - 10^-3 <= o <= P would hold. At the other private cells it does hold (the check can
    pass)."""
    from safeguarded.paths import REPO_ROOT

    frame = pd.read_csv(REPO_ROOT / "figures" / "gaussian_mixtures" / bracket)
    printed_m, shares = _grid(table), _shares(item)
    registered = set(getattr(causes, outside))
    found = set()
    for r in frame.itertuples():
        cell = (float(r.epsilon), float(r.delta))
        if cell in set(getattr(causes, private)) or cell not in shares:
            continue
        o_lo, o_hi = _implied_o(r.a, printed_m[cell], shares[cell])
        below = o_hi < min(r.lower - 1e-3, r.lower / (1 + 1e-3))
        if below or o_lo > r.upper:
            found.add(cell)
    assert found == registered
    assert len(found) >= 40


# ------------------------------------------------------------------ Table 18: what the sd is over
def test_table18_sd_depends_on_what_it_is_taken_over(data_mirror):
    """Table 18 ('underspecified'): the thesis states neither the simulations per split nor what the sd is
    taken over (L2193, L3012). On ecoli (N and d as the thesis's), 10 splits x 10 runs of our DP-PCD: the sd
    across splits of split means is below 0.8 x the sd of single runs in every column (the deviations are of
    that size: e.g. out-of-sample PCD thesis 1.70 vs ours 3.14), and the sd within one split ranges over
    more than a factor 2 between splits."""
    from safeguarded.dp_learning.datasets import train_test_split_indices
    from safeguarded.dp_learning.pcd import dp_pcd_methods
    from safeguarded.dp_learning.tables import _pcd_arrays
    from safeguarded.experiments import rng_for
    from safeguarded.gaussian_mixtures.learning import table9_noises

    X, y = _pcd_arrays("ecoli")
    noises = table9_noises(1.0, 1e-3, 2.0, 9)
    methods = list(noises)
    splits, runs = 10, 10
    err = np.zeros((2, len(methods), splits, runs))
    for s in range(splits):
        tr, te = train_test_split_indices(len(y), rng_for(0, s))
        for r in range(runs):
            res = dp_pcd_methods(
                X[tr], y[tr], rng_for(7, s, r), noises, n_sims={m: 1 for m in noises},
                noise_rngs={m: rng_for(7, s, r, i) for i, m in enumerate(noises)},
                iterations=100, X_test=X[te], y_test=y[te],
            )  # fmt: skip
            for j, m in enumerate(methods):
                err[0, j, s, r], err[1, j, s, r] = res[m].train_error[0], res[m].test_error[0]
    single = err.reshape(2, len(methods), -1).std(axis=-1, ddof=1)
    split_means = err.mean(axis=-1).std(axis=-1, ddof=1)
    within = err.std(axis=-1, ddof=1)
    assert (split_means < 0.8 * single).all()
    assert (within.max(axis=-1) > 2 * within.min(axis=-1)).all()

"""Why gaussian_mixtures' printed numbers deviate: the causes of its claims (protocol v2, ``docs/claims.md``).

Read by :mod:`safeguarded.judging` when ``make claims`` merges the notebooks' rows; the first matching
rule wins, but no printed deviation matches two rules (``tests/test_claims_causes.py``), so the order decides
nothing and no rule hides another.  The l1 non-private cells are those of the privacy audit of Tables 7/8
(``notebooks/gaussian_mixtures_audit_tables07_08.ipynb``, paper run; ``tests/test_claims_causes.py`` checks
the list below against it).  The l2 cells (Tables 14/15) come from the same audit applied to the sigma each
printed Table 14 entry implies with Table 16's K (the same notebook, section "Reading the l2 audit", a claim
per cell; ``tests/test_claims_causes.py`` checks ``NONPRIVATE_L2`` against those claims).

No :class:`~safeguarded.judging.Accuracy` is declared.  The thesis states that its LP bounds "agree with a
tolerance of 10^-3" before the lower bound is taken as o (L2988), but the printed Tables 10/15 are shares
100 (a - m)/(a - o): an error e of o moves a share by share * e/(a - o), which depends on each cell's a - o
(unbounded where the analytic Gaussian is nearly optimal) and on whether the tolerance is absolute or
relative (not stated), so rtol * |printed value| is not a bound the text gives.
"""

from __future__ import annotations

import re

from safeguarded.judging import Cause, Finding

_GRID = "notebooks/gaussian_mixtures_grid_tables.ipynb"
_AUDIT = "notebooks/gaussian_mixtures_audit_tables07_08.ipynb"
_PCD = "notebooks/gaussian_mixtures_pcd_tables09_18.ipynb"
_AUDIT_SECTION = f"{_AUDIT}#reading-the-audit-paper-scale-run-all-200-cells"
_AUDIT_TEST = (
    "tests/test_gaussian_mixtures_audit.py::"
    "test_audit_cell_coarse_agrees_with_the_fine_check_and_flags_a_failure"
)
_AUDIT_RUN_TEST = (
    "tests/test_claims_causes.py::test_gaussian_mixtures_registered_nonprivate_cells_are_the_audits"
)
_SEC_T8 = f"{_GRID}#paper-vs-ours-the-deviation-groups-of-tables-8-and-14"
_SEC_T11 = f"{_GRID}#paper-vs-ours-the-deviation-groups-of-table-11"
_SEC_T10 = f"{_GRID}#paper-vs-ours-the-deviation-groups-of-tables-10-and-15"
_SEC_PCD = f"{_PCD}#paper-vs-ours-the-deviation-groups-of-tables-9-and-18"
_SEC_PCD_SIDE = f"{_PCD}#side-experiment-the-thesis-matched-copies-not-claims"
_MATCHED_TEST = "tests/test_dp_learning_matched.py::test_matched_loading_reaches_the_thesis_table"

EPSILONS = (0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0)
DELTAS = (1e-4, 5e-4, 1e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.15, 0.25)
#: Cells whose printed Table 8 multi-Gaussian (with Table 11's K) is not (eps, delta)-DP (audit, paper run).
NONPRIVATE = tuple((e, d) for e in EPSILONS if e >= 2 for d in DELTAS) + (
    (0.1, 1e-4), (0.75, 5e-4), (1.0, 1e-4), (1.0, 5e-4), (1.0, 1e-3),
)  # fmt: skip

#: Cells whose printed Table 14 multi-Gaussian (with Table 16's K) is not (eps, delta)-DP: the same audit
#: applied to the sigma the l2 entry implies (audit notebook's l2 section, paper run; checked by a test).
NONPRIVATE_L2 = (
    tuple((e, d) for e in (3.0, 4.0, 5.0, 10.0) for d in DELTAS)
    + tuple((2.0, d) for d in DELTAS if d <= 0.05)
    + ((0.1, 1e-4), (0.75, 5e-4), (1.0, 1e-4), (1.0, 5e-4))
)

#: Private cells where the printed entry is not the minimum sigma of (29) that Theorem 6 claims
#: (tests/test_gaussian_mixtures_causes.py): "above" -- a smaller sigma satisfies (29) by the audit quadrature
#: and improves on the printed entry (Table 8 / Table 14); "below" -- the printed sigma (thesis's K, at the
#: rounding end most favourable to it) fails (29) at phi = Delta, which is how its K wins (Table 11).
SIGMA_ABOVE_L1 = (
    (0.25, 1e-4), (0.5, 1e-4), (0.75, 1e-4), (0.25, 5e-4), (0.5, 5e-4), (0.1, 1e-3), (0.25, 5e-3),
    (1.0, 5e-3), (0.75, 0.01), (0.25, 0.02), (0.5, 0.02), (1.0, 0.02), (0.5, 0.05), (0.75, 0.05),
    (0.25, 0.1), (1.0, 0.1), (0.5, 0.15), (0.75, 0.15),
)  # fmt: skip
SIGMA_BELOW_L1 = ((0.1, 5e-4), (0.25, 1e-3), (0.1, 5e-3))
SIGMA_ABOVE_L2 = (
    (0.25, 1e-4), (0.5, 1e-4), (0.75, 1e-4), (0.1, 5e-4), (0.25, 5e-4), (0.5, 5e-4), (0.1, 1e-3), (0.5, 1e-3),
    (0.25, 5e-3), (0.5, 5e-3), (1.0, 5e-3), (0.75, 0.01), (0.5, 0.02), (1.0, 0.02), (0.25, 0.1), (0.5, 0.1),
    (0.25, 0.15), (0.5, 0.15), (0.75, 0.15), (0.1, 0.25), (0.75, 0.25),
)  # fmt: skip
SIGMA_BELOW_L2 = ((0.1, 5e-3), (0.25, 0.01), (0.1, 0.02), (0.25, 1e-3))

#: Private cells of Tables 10/15 whose printed share, with the printed m of Table 8/14, implies an optimum o
#: outside our certified bracket [D, P] by more than the stated 10^-3 (L2988;
#: tests/test_gaussian_mixtures_causes.py).
_PRIVATE_L1 = tuple((e, d) for e in EPSILONS for d in DELTAS if (e, d) not in NONPRIVATE)
_PRIVATE_L2 = tuple((e, d) for e in EPSILONS for d in DELTAS if (e, d) not in NONPRIVATE_L2)
O_INSIDE_L1 = ((0.1, 5e-4), (0.25, 5e-4), (0.25, 1e-3))
O_INSIDE_L2 = ((0.1, 1e-3), (0.25, 1e-4), (0.25, 5e-4), (0.25, 1e-3))
O_OUTSIDE_L1 = tuple(c for c in _PRIVATE_L1 if c not in O_INSIDE_L1)
O_OUTSIDE_L2 = tuple(c for c in _PRIVATE_L2 if c not in O_INSIDE_L2)
#: Table 11 cells whose printed entry is consistent with the minimum of (29) for the printed K, where ours
#: picks another K (tests/test_gaussian_mixtures_causes.py, test_the_check_can_pass_where_...).
T11_CONSISTENT = ((0.1, 0.01), (0.1, 0.02))

#: Data sets of Tables 9/18 whose N and d match the thesis's (the notes of Table 9).
_MATCHED_PCD = ("abalone", "adult", "contraceptive", "ecoli", "spambase")
#: Table 18's deviating sd rows (paper run) on those data sets and on the others (a test checks the counts).
_T18_MATCHED, _T18_SUBSTITUTE = 21, 52


def _at(cells) -> str:
    """``(eps, delta)`` of the cells as the notebooks print them, inside the claim's parentheses."""
    return "|".join(re.escape(f"{e:g}, {d:g}") for e, d in cells)


_NP = _at(NONPRIVATE)
_NP2 = _at(NONPRIVATE_L2)
_L2_SECTION = f"{_AUDIT}#reading-the-l2-audit"
_L2_TEST = "tests/test_claims_causes.py::test_gaussian_mixtures_registered_l2_nonprivate_cells_are_the_audits"
_L2_FAST = "tests/test_claims_causes.py::test_gaussian_mixtures_table14_l2_mixture_not_private_at_2_1e4"
_SIG = _at(SIGMA_ABOVE_L1 + SIGMA_BELOW_L1)
_SIG2 = _at(SIGMA_ABOVE_L2 + SIGMA_BELOW_L2)
_OUT = _at(O_OUTSIDE_L1)
_OUT2 = _at(O_OUTSIDE_L2)
_CT = "tests/test_gaussian_mixtures_causes.py"
_SIG_TESTS = (
    f"{_CT}::test_printed_sigma_is_not_the_minimum_of_29, "
    f"{_CT}::test_printed_sigma_is_not_the_minimum_of_29_in_every_registered_cell"
)
_O_TEST = f"{_CT}::test_printed_share_implies_an_optimum_outside_our_bracket"
_SD_TEST = f"{_CT}::test_table18_sd_depends_on_what_it_is_taken_over"
_T11_TEST = f"{_CT}::test_table11_nonprivate_rows_are_audited_cells"

FINDINGS = [
    Finding(
        id="gm-mg-nonprivate",
        title="Tables 8/10/11: the printed multi-Gaussian is not (eps, delta)-DP in 55 of 100 cells",
        text=(
            "The loss a printed Table 8 improvement implies fixes the scale sigma of the multi-Gaussian with "
            "Table 11's K (at the end of the rounding most favourable to "
            "privacy); the independent hockey-stick "
            "quadrature finds delta(eps) > delta in 55 of the 100 cells: all 50 "
            "with eps >= 2 (delta(eps) about "
            "0.55 at eps = 2 and 0.9-1 above, at interior shifts) and (1, 1e-4), "
            "(1, 1e-3) (about 0.026), with "
            "marginal excesses at (0.1, 1e-4), (0.75, 5e-4) and (1, 5e-4). Theorem "
            "5 claims every such mixture is "
            "private, so these entries (and the Table 10 shares and Table 11 K "
            "built on them) describe noises "
            "that do not meet the privacy level they are compared at. The "
            "quasi-Gaussian of Table 7 passes in "
            "all 100 cells."
        ),
        evidence=f"{_AUDIT_SECTION}, {_AUDIT_TEST}, {_AUDIT_RUN_TEST}",
        size="55 of 100 cells; delta(eps) up to about 1 against delta <= 0.25",
        claims=("table08", "table10", "table11"),
    ),
    Finding(
        id="gm-mg-l2-nonprivate",
        title="Tables 14/15: the printed l2 multi-Gaussian is not (eps, delta)-DP in 51 of 100 cells",
        text=(
            "The same audit applied to the l2 tables: the E X^2 a printed Table 14 "
            "improvement implies fixes the "
            "sigma of the multi-Gaussian with Table 16's K (rounding end "
            "favourable to privacy); the independent "
            "quadrature finds delta(eps) > delta in 51 of the 100 cells: all 40 with eps >= 3 (delta(eps) "
            "0.9-1), eps = 2 with delta <= 0.05 (7 cells, up to 0.55), (1, 1e-4) (0.024, 243 times delta), "
            "(0.75, 5e-4) (15 % above delta) and marginally (1, 5e-4) (4.7 %) and (0.1, 1e-4) (0.7 %, both "
            "confirmed by the fine check). The remaining 49 cells are private, among them eps = 2 with "
            "delta >= 0.1, where Table 16's K = 1. The Table 15 shares of these cells use the same mixtures."
        ),
        evidence=f"{_L2_SECTION}, {_L2_TEST}, {_L2_FAST}",
        size="51 of 100 cells; delta(eps) up to about 1 against delta <= 0.25",
        claims=("table14", "table15"),
    ),
    Finding(
        id="gm-mg-sigma-not-minimal",
        title="Tables 8/11/14: where the printed multi-Gaussian is private, its sigma is often not the "
        "minimum "
        "of condition (29) that Theorem 6 claims",
        text=(
            "Theorem 6 says Algorithm 6 returns the smallest sigma satisfying (29) (eta = 0.01, L2169), i.e. "
            "the sigma at which the worst hockey-stick divergence reaches (1 - eta) delta. At cells whose "
            "printed mixture is private the printed entries contradict this in both directions. Above: in 18 "
            "Table 8 cells and 21 Table 14 cells a sigma below the smallest sigma the printed value allows "
            "(printed + 0.005 pp) already has delta(eps) < (1 - eta) delta by the independent audit "
            "quadrature, so it satisfies (29) and improves on the printed entry (the printed sigma is 0.0005-"
            "2.9 % above the minimum; at (0.1, 1e-3) l1 and (0.1, 5e-4) l2 the beating mixture has K = 1, "
            "not the printed K). Below: in 3 Table 11 cells and 4 Table 14 cells the largest sigma the "
            "printed "
            "value allows, with the printed K, has H(Delta) 0.002-0.12 % above (1 - eta) delta at phi = "
            "Delta, "
            "a point of every grid of Algorithm 7, so it fails (29); that is how K = 3, 2, 3 win Table 11 at "
            "(0.1, 5e-4), (0.25, 1e-3), (0.1, 5e-3), where at the minimum of (29) K = 1 is better. The text "
            "mentions bisection tolerances without values (L2706, L2954); whatever their size, the printed "
            "entries are not the minimum the theorem states."
        ),
        evidence=f"{_SIG_TESTS}, {_SEC_T8}",
        size="46 cells (l1 21, l2 25); printed sigma from 0.02 % below to 2.9 % above the minimum",
        claims=("table08", "table10", "table11", "table14", "table15"),
    ),
    Finding(
        id="gm-o-outside-bracket",
        title="Tables 10/15: the optimum o behind the printed shares is not within 10^-3 of the optimal loss",
        text=(
            "Table 10/15 print 100 (a - m)/(a - o), with o the lower bound of the Section 1 LPs 'once upper "
            "and lower bounds agree with a tolerance of 10^-3' (L2988). With the thesis's own m (its printed "
            "Table 8/14 entry) and a (Table 7 reproduces it), each printed share fixes o up to rounding. At "
            "42 of the 45 private Table 10 cells and 45 of the 49 private Table 15 cells that o lies outside "
            "our bracket [D, P] of the optimal loss by more than 10^-3 (absolute or relative): below our "
            "certified lower bound D by 0.37-4.4 % (l1, 40 cells) and 0.44-3.8 % (l2, 42 cells), or above P, "
            "the loss of a noise that satisfies (eps, delta)-DP, by 2.8-3.5 % (l1, 2 cells) and 0.7-16 % "
            "(l2, 3 cells). An o within 10^-3 of the optimum would lie in [D - 10^-3, P]."
        ),
        evidence=f"{_O_TEST}, {_SEC_T10}",
        size="87 cells (l1 42, l2 45); o up to 4.4 % below D or 16 % above P",
        claims=("table10", "table15"),
    ),
]

CAUSES = [
    # ---------------------------------------------------------------- Table 8 (l1 multi-Gaussian vs AG)
    Cause(
        "work-error",
        "the thesis's multi-Gaussian in these 55 cells is not (eps, delta)-DP "
        "(audit of the sigma its printed "
        "value implies), so a private mixture cannot reach its improvement: ours 0.02-51 pp lower in all 55",
        f"{_AUDIT_SECTION}, {_AUDIT_TEST}",
        item="^table08$",
        claim=rf"^Table 8 at \(eps, delta\) = \((?:{_NP})\)",
        finding="gm-mg-nonprivate",
        section=_SEC_T8,
        tried=(
            "the sigma at the end of the printed value's rounding most favourable to privacy (used): not "
            f"(eps, delta)-DP in 55 of 55 cells, 0 of 55 rows recovered ({_AUDIT_SECTION})",
            "the audit's coarse hockey-stick quadrature against its fine check: the same verdict in every "
            f"registered cell ({_AUDIT_TEST})",
            "a private mixture (ours, the minimum sigma of (29) by Algorithm 6): 0 of 55 rows within the "
            f"printed digits ({_SEC_T8})",
        ),
    ),
    Cause(
        "work-error",
        "Table 8's summary statistics (mean, sd, median, count improving; the max{1, a} variant) average the "
        "55 non-private entries, where ours are far lower",
        f"{_AUDIT_SECTION}, {_AUDIT_TEST}, {_AUDIT_RUN_TEST}",
        item="^table08$",
        claim=r"^MG(?: \(max\{1, a\} denominator\))?: ",
        finding="gm-mg-nonprivate",
        section=_SEC_T8,
        tried=(
            "the summary statistics recomputed from the printed Table 8 entries: they follow from the "
            "printed cells (the deviation is the cells', 55 of them not private), 0 of 6 rows recovered by "
            f"our private cells ({_SEC_T8})",
        ),
    ),
    Cause(
        "work-error",
        "cells where the thesis's mixture is private: the printed sigma is above the minimum of (29) that "
        "Theorem 6 claims (0.001-2.9 %): a smaller sigma satisfies (29) by the audit quadrature and improves "
        "on the printed entry (K = 1 at (0.1, 1e-3)); ours improves more in all 19 rows (0.005-0.55 pp)",
        _SIG_TESTS,
        item="^table08$",
        claim=rf"^(?:Table 8 at \(eps, delta\) = \((?:{_SIG})\)|MG\(K=2\) vs AG at \(1, 0\.1\))",
        finding="gm-mg-sigma-not-minimal",
        section=_SEC_T8,
        tried=(
            "the minimum sigma of (29) by the audit quadrature (ours): improves more than printed in 19 of "
            f"19, 0 within the printed digits ({_SIG_TESTS})",
            "K = 1 instead of the printed K at (0.1, 1e-3): beats the printed entry as well "
            f"({_CT}::test_printed_sigma_is_not_the_minimum_of_29)",
            "a grid of shifts (Algorithm 7) instead of the continuous supremum: a grid maximum can only "
            "make sigma smaller, so it cannot give the larger printed sigma (argued, "
            f"{_SEC_T8})",
        ),
    ),
    # ---------------------------------------------------------------- Table 14 (l2 multi-Gaussian vs AG)
    Cause(
        "work-error",
        "the thesis's l2 multi-Gaussian (Table 16's K) in these cells is not "
        "(eps, delta)-DP (the audit applied "
        "to the sigma the printed l2 entry implies), so a private mixture cannot reach its improvement: ours "
        "0.01-36 pp lower in all 51",
        f"{_L2_SECTION}, {_L2_TEST}, {_L2_FAST}",
        item="^table14$",
        claim=rf"^Table 14 at \(eps, delta\) = \((?:{_NP2})\)",
        finding="gm-mg-l2-nonprivate",
        section=_SEC_T8,
        tried=(
            "the l2 sigma at the end of the printed value's rounding most favourable to privacy, with Table "
            f"16's K (used): not (eps, delta)-DP in 51 of 51 cells, 0 of 51 rows recovered ({_L2_SECTION})",
            "the fine check at the marginal cells (1, 5e-4) and (0.1, 1e-4): not private either "
            f"({_L2_FAST}, {_L2_SECTION})",
            f"a private l2 mixture (ours): 0 of 51 rows within the printed digits ({_SEC_T8})",
        ),
    ),
    Cause(
        "work-error",
        "Table 14 (l2) where the thesis's l2 mixture is private: the printed sigma is not the minimum of "
        "(29) "
        "that Theorem 6 claims: above it in 20 cells (a smaller sigma satisfies (29) and beats the entry; "
        "K = 1 "
        "at (0.1, 5e-4)), below it in 3 (the printed sigma fails (29) at phi = Delta); ours 0.01 pp lower to "
        "0.81 pp higher",
        _SIG_TESTS,
        item="^table14$",
        claim=rf"^Table 14 at \(eps, delta\) = \((?:{_SIG2})\)",
        finding="gm-mg-sigma-not-minimal",
        section=_SEC_T8,
        tried=(
            "the minimum sigma of (29) by the audit quadrature (ours): 0 of 24 rows within the printed "
            f"digits (the registered cells: printed sigma above it in 21, below it in 4; {_SIG_TESTS})",
            "K = 1 instead of Table 16's K = 3 at (0.1, 5e-4): beats the printed entry "
            f"({_CT}::test_printed_sigma_is_not_the_minimum_of_29)",
            "the largest sigma the printed value allows, with Table 16's K, where it is below the minimum: "
            f"fails (29) at phi = Delta in every such cell ({_SIG_TESTS})",
        ),
    ),
    # ---------------------------------------------------------------- Table 11 (best K)
    Cause(
        "work-error",
        "best K of a non-private mixture: in these 47 cells the thesis's K "
        "belongs to a Table 8 entry the audit "
        "finds not (eps, delta)-DP",
        f"{_AUDIT_SECTION}, {_AUDIT_RUN_TEST}, {_T11_TEST}",
        item="^table11$",
        claim=rf"^best K at \(eps, delta\) = \((?:{_NP})\)",
        finding="gm-mg-nonprivate",
        section=_SEC_T11,
        tried=(
            "the printed Table 8 entry's sigma with the printed K, at the rounding end most favourable to "
            f"privacy: not private in 47 of 47, 0 rows recovered ({_AUDIT_SECTION}, {_T11_TEST})",
            f"the best K among private mixtures (ours): 0 of 47 equal to the printed K ({_SEC_T11})",
        ),
    ),
    Cause(
        "work-error",
        "best K where the printed sigma is not the minimum of (29): at (0.25, 1e-4) and (0.1, 1e-3) a K = 1 "
        "mixture satisfying (29) beats the printed best entry; at (0.1, 5e-4), (0.25, 1e-3), (0.1, 5e-3) the "
        "printed K wins only with a sigma that fails (29) at phi = Delta (at the minimum of (29) K = 1 is "
        "better)",
        _SIG_TESTS,
        item="^table11$",
        claim=rf"^best K at \(eps, delta\) = \((?:{_SIG})\)",
        finding="gm-mg-sigma-not-minimal",
        section=_SEC_T11,
        tried=(
            "the best K at the minimum sigma of (29) (ours): K = 1 in 5 of 5, 0 equal to the printed K "
            f"({_SIG_TESTS})",
            "the printed K at the largest sigma the printed Table 8 value allows: wins only where that sigma "
            f"fails (29) at phi = Delta (3 of 5), else a K = 1 mixture beats it (2 of 5) ({_SIG_TESTS})",
        ),
    ),
    Cause(
        "unexplained",
        "best K at (0.1, 0.01) and (0.1, 0.02), where the printed entry is consistent with the minimum of "
        "(29) "
        "for the printed K and ours differs by 0.002-0.004 pp, below the printed digits (K = 1 vs 2, 7 vs 6)",
        f"{_SEC_T11}, {_CT}::test_the_check_can_pass_where_the_printed_entry_is_the_minimum",
        item="^table11$",
        claim=rf"^best K at \(eps, delta\) = \((?:{_at(T11_CONSISTENT)})\)$",
        section=_SEC_T11,
    ),
    # -------------------------------------------------------- Tables 10 and 15 (share of AG's gap closed)
    Cause(
        "work-error",
        "share of AG's gap closed at the 55 cells whose printed mixture m is not private (audit): the share "
        "uses that m, which no private mixture reaches",
        f"{_AUDIT_SECTION}, {_AUDIT_TEST}, {_AUDIT_RUN_TEST}",
        item="^table10$",
        claim=rf"^share of AG's gap closed by MG at \((?:{_NP})\)",
        finding="gm-mg-nonprivate",
        section=_SEC_T10,
        tried=(
            "the share with our private mixture's m and our bracket for o (ours): 0 of 55 within the printed "
            f"digits ({_SEC_T10})",
            "the share with the thesis's own m (its printed Table 8 entry) and our o: moves towards the "
            "printed shares but averages 78.8-79.2 % against the printed mean 67.67 % "
            f"({_GRID}#diagnostic-which-of-m-and-o-moves-the-headline-share)",
        ),
    ),
    Cause(
        "underspecified",
        "the thesis's LP bounds agree to 1e-3 before o is taken; ours, on uniform ~2,000-cell grids, agree "
        "to at most 18.8 % (eps = 10): the thesis's partitions are not stated",
        "ours: uniform grids of ~2,000 cells (supp. p.10's count), on which P - D >= beta/2 for l1",
        item="^table10$",
        claim=r"^LP bounds agree",
        section=_SEC_T10,
    ),
    Cause(
        "work-error",
        "share of AG's gap closed at private cells whose printed share, with the printed Table 8 m, "
        "implies an "
        "optimum o outside our bracket [D, P] by more than the stated 10^-3 (40 below D by 0.37-4.4 %, 2 "
        "above P)",
        _O_TEST,
        item="^table10$",
        claim=rf"^share of AG's gap closed by MG at \((?:{_OUT})\)",
        finding="gm-o-outside-bracket",
        section=_SEC_T10,
        tried=(
            "o within 10^-3 of our bracket [D, P], absolute: the o each printed share implies (with the "
            f"printed m) is outside in 42 of 45 private cells ({_O_TEST})",
            f"o within 10^-3 relative: outside in the same 42 ({_O_TEST})",
            "the share with the thesis's m and our o (D or P): 0 of 42 within the printed digits "
            f"({_GRID}#diagnostic-which-of-m-and-o-moves-the-headline-share)",
        ),
    ),
    Cause(
        "work-error",
        "share of AG's gap closed at the 3 private cells where the implied o is inside our bracket: the "
        "share "
        "moves with m, whose printed sigma is not the minimum of (29) there (Table 8/11)",
        _SIG_TESTS,
        item="^table10$",
        claim=rf"^share of AG's gap closed by MG at \((?:{_at(O_INSIDE_L1)})\)",
        finding="gm-mg-sigma-not-minimal",
        section=_SEC_T10,
    ),
    Cause(
        "work-error",
        "Table 10's mean/sd/median average 97 cells whose m is not private (55) or whose implied o lies "
        "outside "
        "our bracket (42); with the thesis's m and our o the mean would be 78.8-79.2 % (printed 67.67 %)",
        f"{_O_TEST}, {_GRID}#diagnostic-which-of-m-and-o-moves-the-headline-share",
        item="^table10$",
        claim=r"^share of AG's optimality gap closed by MG over the grid: ",
        finding="gm-o-outside-bracket",
        section=_SEC_T10,
        tried=(
            "the mean, sd and median recomputed with the thesis's m and our o: mean 78.8-79.2 % (printed "
            f"67.67 %), 0 of 5 rows recovered ({_GRID}#diagnostic-which-of-m-and-o-moves-the-headline-share)",
        ),
    ),
    Cause(
        "work-error",
        "Table 15 (l2) share of AG's gap closed at the cells whose printed l2 mixture m is not private: the "
        "share uses that m, which no private mixture reaches",
        f"{_L2_SECTION}, {_L2_TEST}, {_L2_FAST}",
        item="^table15$",
        claim=rf"^share of AG's gap closed by MG at \((?:{_NP2})\)",
        finding="gm-mg-l2-nonprivate",
        section=_SEC_T10,
        tried=(
            "the l2 share with our private mixture's m and our bracket for o: 0 of 51 within the printed "
            f"digits ({_SEC_T10})",
            "the l2 share with the thesis's own m (printed Table 14) and our o: does not reach the printed "
            f"shares ({_GRID}#diagnostic-which-of-m-and-o-moves-the-headline-share)",
        ),
    ),
    Cause(
        "work-error",
        "Table 15 (l2) at private cells whose printed share, with the printed Table 14 m, implies an "
        "optimum o "
        "outside our bracket [D, P] by more than the stated 10^-3 (42 below D by 0.44-3.8 %, 3 above P)",
        _O_TEST,
        item="^table15$",
        claim=rf"^share of AG's gap closed by MG at \((?:{_OUT2})\)",
        finding="gm-o-outside-bracket",
        section=_SEC_T10,
        tried=(
            "o within 10^-3 of our l2 bracket [D, P], absolute: the o each printed share implies (with the "
            f"printed m) is outside in 45 of 49 private cells ({_O_TEST})",
            f"o within 10^-3 relative: outside in the same 45 ({_O_TEST})",
            "the l2 share with the thesis's m and our o: 0 of 45 within the printed digits "
            f"({_GRID}#diagnostic-which-of-m-and-o-moves-the-headline-share)",
        ),
    ),
    Cause(
        "work-error",
        "Table 15 (l2) at the 4 private cells where the implied o is inside our bracket: the share moves "
        "with "
        "m, whose printed sigma is not the minimum of (29) there (Table 14)",
        _SIG_TESTS,
        item="^table15$",
        claim=rf"^share of AG's gap closed by MG at \((?:{_at(O_INSIDE_L2)})\)",
        finding="gm-mg-sigma-not-minimal",
        section=_SEC_T10,
    ),
    # ---------------------------------------------------------------- Tables 9 and 18 (DP-PCD on UCI data)
    # Table 18: what the sd is taken over (demonstrated by a test) first, for every data set; the data
    # sets whose N or d differ from the thesis's say so in the same cause, so that substitute data never
    # hides it.
    Cause(
        "unexplained",
        "Table 18's ecoli in-sample A-G and Q-G standard deviations (2.11, 2.18) lie above every reading "
        "of the sd we measured (single runs 1.69, within one split at most 2.09; ours 1.66, 1.70)",
        f"{_SEC_PCD}",
        item="^table18$",
        claim=r"^ecoli in-sample (?:A-G|Q-G) ",
        section=_SEC_PCD,
    ),
    Cause(
        "underspecified",
        "Table 18's standard deviations: what the sd is taken over is not stated, and the readings differ by "
        "as much as the deviations (measured, 20 splits x 20 runs, on data sets whose N and d match): "
        "abalone out-of-sample single runs 1.16, split means 0.95, pooled within splits 0.72, within one "
        "split 0.34-1.34 (thesis 0.40-0.43, ours 1.47); ecoli out-of-sample PCD 3.62 / 2.59 / 2.65 / "
        "1.13-4.51 (thesis 1.70, ours 3.14); spambase out-of-sample pooled within splits 1.80 (thesis "
        "1.82-1.86, ours 2.51); every printed value of those data sets lies in the range of these readings, "
        f"no single reading gives all. {_T18_MATCHED} rows are on the data sets whose N and d match "
        f"(abalone, contraceptive, ecoli, spambase; 6 of them non-private PCD), {_T18_SUBSTITUTE} on 7 "
        "whose data differ from the thesis's as well (N or d: spect, dermatology, bank, cylinder-bands, "
        "breast-cancer, post-operative, annealing; the readings were not measured there)",
        "text: L2193 and L3012 state 500 splits but neither the simulations per split nor what the sd is "
        "over (the authors' Section 1 PCD.jl averages 100 simulations per split); ours: the sd of single "
        f"runs over 500 splits x 1 simulation; {_SD_TEST}",
        item="^table18$",
        claim=r"^(?!ecoli in-sample (?:A-G|Q-G) )",
        section=_SEC_PCD,
        tried=(
            "the sd of single runs over 500 splits x 1 simulation (ours, the rows' values): 0 of 73 within "
            f"the printed digits ({_SEC_PCD})",
            "the sd across splits of split means (20 splits x 20 runs): abalone out-of-sample 0.95, ecoli "
            "PCD "
            f"out-of-sample 2.59 (thesis 0.40-0.43, 1.70): not the printed values ({_SD_TEST})",
            "the sd pooled within splits (20 x 20): abalone 0.72, ecoli 2.65, spambase 1.80 (thesis "
            "0.40-0.43, "
            f"1.70, 1.82-1.86): spambase's out-of-sample values only ({_SD_TEST})",
            "the sd within one split (20 splits x 20 runs): abalone 0.34-1.34, ecoli 1.13-4.51; every "
            "printed "
            "value of abalone, contraceptive, ecoli and spambase lies in the range of these readings, no "
            f"single reading gives all ({_SD_TEST})",
        ),
    ),
    # Table 9 on the data sets whose mirror copy differs from the thesis's N or d: a side run on the
    # thesis-matched copies (dp_learning.datasets.MATCHED, 500 splits x 1, notebook section _SEC_PCD_SIDE)
    # shows how much of each gap is the data's (mean |gap| over the 8 error columns, ours -> matched copy).
    Cause(
        "substitute-data",
        "Table 9 on cylinder-bands, whose mirror copy (540 rows, d = 57) differs from the thesis's (539, "
        "63): the thesis-matched copy (the authors' erroneous row dropped, a missing category its own "
        "level, lower-cased strings: 539 rows, d = 63) reproduces the row, shown by a side run at the "
        "thesis's 500 splits: mean |gap| over the 8 error columns 5.48 -> 0.36 pp, 3 within their band, "
        "the other 5 within 0.71 pp",
        f"side run: {_SEC_PCD_SIDE}; the matched copy's dimensions: {_MATCHED_TEST}",
        item="^table09$",
        claim=r"^cylinder-bands ",
        section=_SEC_PCD,
        tried=(
            "the thesis-matched copy (539 rows, d = 63): mean |gap| 5.48 -> 0.36 pp, 3 of 8 error rows "
            f"within the band, 0 within the printed digits (500 splits x 1; {_SEC_PCD_SIDE})",
        ),
    ),
    Cause(
        "unexplained",
        "Table 9 on dermatology, whose thesis-matched copy (the 8 missing ages imputed: 366 rows, d = 98 as "
        "the thesis) leaves the gap as it is: ours 4.6-7.0 % against the printed 13.3-17.6 % (mean |gap| "
        "over the 8 error columns 9.96 pp with our copy, 9.86 with the matched one, 500 splits); not found",
        f"side run: {_SEC_PCD_SIDE}",
        item="^table09$",
        claim=r"^dermatology ",
        section=_SEC_PCD,
        tried=(
            "the thesis-matched copy (366 rows, d = 98): mean |gap| 9.96 -> 9.86 pp, 0 of 8 error rows "
            f"within the band or the printed digits (500 splits x 1; {_SEC_PCD_SIDE})",
        ),
    ),
    Cause(
        "substitute-data",
        "Table 9 on post-operative, whose mirror copy has 87 rows against the thesis's 86 (the authors' own "
        "Dataset Cooking_PCD.ipynb prints 87); the thesis-matched copy (COMFORT numeric: d = 14 as the "
        "thesis) does not move the gap (mean |gap| over the 8 error columns 6.59 -> 6.65 pp, 500 splits; "
        "in-sample ours 27.5-28.4 % vs 30.0-39.8 %), so the one row left is the only difference shown, not "
        "that it explains the gap",
        f"the thesis's 86-row file is not public; side run: {_SEC_PCD_SIDE}",
        item="^table09$",
        claim=r"^post-operative ",
        section=_SEC_PCD,
        tried=(
            "the thesis-matched copy (87 rows, d = 14): mean |gap| 6.59 -> 6.65 pp, 0 of 8 error rows within "
            f"the band or the printed digits (500 splits x 1; {_SEC_PCD_SIDE})",
        ),
    ),
    Cause(
        "substitute-data",
        "Table 9 on breast-cancer, annealing, spect and bank, whose mirror copies differ from the thesis's "
        "(N or d: breast-cancer d = 10 vs 26, annealing 40 vs 42, spect 267 vs 160 rows, bank d = 43 vs 44) "
        "and for which no documented reading reaches the thesis's dimensions",
        "the authors' *-cooked.csv files are not public; ours are the UCI/ARFF versions "
        "(safeguarded.dp_learning.datasets), N and d compared with the thesis's in the notes",
        item="^table09$",
        claim=r"^(?:breast-cancer|annealing|spect|bank) ",
        section=_SEC_PCD,
        tried=(
            "a reading of the mirror's files that reaches the thesis's N and d from the thesis, its data "
            "table, the authors' public code or the UCI documentation: none found for breast-cancer (d = 26: "
            "numeric grades give 10, one-hot grades 82), annealing (d = 42), spect (160 of 267 rows) or bank "
            f"(d = 44), so no matched rerun ({_SEC_PCD_SIDE})",
        ),
    ),
    Cause(
        "unexplained",
        "Table 9 on the data set whose N and d match the thesis (ecoli): errors differ by up to 2.5 pp; "
        "the thesis's out-of-sample errors are 2.20-2.34 pp below its in-sample ones, while over random "
        "splits ours average +0.76 pp (sd 2.9 pp per split, 100 splits x 10 runs: a mean over 500 random "
        "splits is +0.76 +- 0.13); one split gives <= -2 pp in all four columns in 11 of 100: consistent "
        "with few distinct splits, not shown",
        f"{_SEC_PCD}",
        item="^table09$",
        claim=r"^ecoli ",
        section=_SEC_PCD,
        tried=(
            "500 random splits x 1 simulation (the thesis's count; the rows' values): 0 of 8 within the "
            f"printed digits ({_SEC_PCD})",
            "100 splits x 10 runs: out-of-sample minus in-sample +0.76 +- 0.13 pp on average against the "
            f"thesis's -2.2 pp in all four columns ({_SEC_PCD})",
            "a single split: <= -2 pp in all four columns in 11 of 100 splits, so few distinct splits would "
            "give the printed pattern; not shown (the thesis's code for section 2 is not public; "
            f"{_SEC_PCD})",
        ),
    ),
    Cause(
        "unexplained",
        "Table 9 on the other data sets whose N and d match the thesis (abalone, adult, contraceptive, "
        "spambase), decided since their band no longer hides a value outside it (paper run, 500 splits): "
        "in-sample ours lie 0.1-0.6 pp from the printed values, out-of-sample 0.2-2.3 pp below them; the "
        "thesis's out-of-sample errors exceed its in-sample ones by 1.5 pp (abalone), 3.4 pp "
        "(contraceptive) and 0.6 pp (spambase), ours by at most 0.9 pp. Equal N and d do not make the "
        "files equal (the thesis's cleaned *-cooked.csv are not public) and the split's test share is "
        "not stated; neither is shown to be the cause",
        f"{_SEC_PCD}",
        item="^table09$",
        claim=r"^(abalone|adult|contraceptive|spambase) ",
        section=_SEC_PCD,
        tried=(
            "500 random splits x 1 simulation, the thesis's count (the rows' values): 0 of 28 within the "
            f"printed digits, in-sample 0.1-0.6 pp off, out-of-sample 0.2-2.3 pp below ({_SEC_PCD})",
            "the authors' section 1 PCD setting (DP-via-DRO PCD.jl / PCD_functions.jl, read: T = 100 "
            "iterations of ceil(d/4) coordinates, lambda = 1e-8, start U[-1, 1]^d, the K iterates averaged, "
            "an 80/20 split, de-meaned columns scaled to max |x| = 1): ours follows it, so it is no variant "
            f"left to try ({_SEC_PCD})",
        ),
    ),
]

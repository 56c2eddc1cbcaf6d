"""Why dp_noise's printed numbers deviate: the causes of its claims (protocol v2, ``docs/claims.md``).

Read by :mod:`safeguarded.judging` when ``make claims`` merges the notebooks' rows; the first matching
rule wins.  The cell lists below were read off the paper-scale run (``figures/dp_noise/tables1456_cells.csv``
and the claims); ``tests/test_claims_causes.py`` checks the ones a finding rests on against that run.

The thesis's stated accuracy (L871: every LP gap "strictly less than 1 %", O = (P + D)/2) is read as the
authors measure the gap.  L871 writes the gap as 100 (P - D)/D, but the authors' public scripts (DP-via-DRO,
``ML Algorithms Julia/grid_ell1_prep_{main,ub,lb}.jl``: ``sub[i] = (ub_achieved - lb_achieved)/max(1,
lb_achieved) #this is for our gaps``) divide by max{1, D}, and on uniform grids of ~2,000 cells the text's
measure cannot be below 1 % where D is small (the floor beta/(2D), notebook ``dp_noise_tables1456``).
Under the authors' measure, D <= opt <= P < D + 0.01 max{1, D} puts O within 0.005 max{1, opt} of the optimum
opt.  Per cell that bounds how far a printed value can be off:

* Table 4 = 100 (B_UB - O)/max{O, 1}: by 0.5 pp where O < 1, by 0.5 B_UB/O = 0.5 (1 + T4/100) pp where O > 1;
* Table 5 = 100 (O - B_LB)/max{O, 1}: by 0.5 pp where O < 1, by 0.5 (1 - T5/100) pp where O > 1;
* Table 1 = 100 (B_UB - B_LB)/max{O, 1}: not at all where O < 1, by 0.5 % of itself where O > 1.

(The text's measure would give 0.5 opt pp instead of 0.5 pp where O < 1; it is contradicted by the printed
tables themselves in 24 cells where the authors' measure is not, finding ``dp-noise-l871-gap-measure``.)
:data:`ACCURACY` declares exactly these bounds, cell by cell, as ``rtol = bound/|printed value|`` (O back-
solved from the printed Table 4 and the closed-form truncated Laplace, at the end of the printed rounding
that gives the widest bound; within 1 % of O = 1 the larger of the two regimes, times the largest compatible
optimum), plus half a unit of the printed digit (:data:`PRINTED_HALF_UNIT`): the bound holds for the
thesis's computed value, and the table prints it rounded to 0.01 pp.  (Where our LP bracket is below half a
digit the row's own tolerance is already half a digit, so there the rounding is counted twice, by at most
0.005 pp.)  Table 6 (l2) has no stated accuracy (the sentence at L871 is about the l1 experiment).
"""

from __future__ import annotations

import re

from safeguarded.judging import Accuracy, Cause, Finding
from safeguarded.validation import check_choice, check_positive

_T1456 = "notebooks/dp_noise_tables1456.ipynb"
_T2 = "notebooks/dp_noise_table02.ipynb"
_T3 = "notebooks/dp_noise_table03.ipynb"
_SEC_T1456 = f"{_T1456}#paper-vs-ours-the-deviation-groups-of-tables-1-4-5-and-6"
_SEC_T2 = f"{_T2}#paper-vs-ours-the-deviation-groups-of-table-2"
_SEC_T3 = f"{_T3}#paper-vs-ours-the-deviation-groups-of-table-3"
_SEC_T2_SIDE = f"{_T2}#side-experiment-the-thesis-matched-copies-and-the-authors-unseen-level-rule-not-claims"
_SEC_T3_SIDE = f"{_T3}#side-experiment-the-thesis-matched-copies-not-claims"
_SCALE_TEST = "tests/test_dp_noise_table02_variants.py::test_feature_scale_moves_abalone_and_spambase"
_DERM_TEST = (
    "tests/test_dp_noise_table02_variants.py::test_dermatology_printed_pattern_is_nb_jl_with_ages_as_categories"
)
_O_TEST = (
    "tests/test_claims_causes.py::test_dp_noise_table4_o_below_a_certified_lower_bound_beyond_the_stated_gap"
)
_O_TEST_UP = "tests/test_claims_causes.py::test_dp_noise_table4_o_above_a_private_noise_beyond_the_stated_gap"
_O_TEST_RUN = "tests/test_claims_causes.py::test_dp_noise_o_cells_outside_the_stated_gap_in_the_paper_run"
_O_TEST_BREAK = "tests/test_claims_causes.py::test_dp_noise_o_check_passes_a_table4_made_from_our_own_o"


def lowest_o(opt: float, measure: str = "authors") -> float:
    """The infimum of O = (P + D)/2 over brackets D <= opt <= P whose LP gap is below 1 %: measured as the
    authors' scripts do, (P - D)/max{1, D} (``measure="authors"``), or as L871 writes it, (P - D)/D
    (``"text"``).  O > opt - 0.005 where the authors' measure and opt <= 1.01, else O > (1 + 1/1.01)/2 opt."""
    opt, measure = _checked_gap_args(opt, measure)
    if measure == "authors" and opt <= 1.01:
        return opt - 0.005
    return (1 + 1 / 1.01) / 2 * opt


def highest_o(opt: float, measure: str = "authors") -> float:
    """The supremum of O = (P + D)/2 over brackets D <= opt <= P with an LP gap below 1 % (see
    :func:`lowest_o`): opt + 0.005 max{1, opt} (authors), 1.005 opt (text)."""
    opt, measure = _checked_gap_args(opt, measure)
    return opt + 0.005 * (max(1.0, opt) if measure == "authors" else opt)


def _checked_gap_args(opt, measure) -> tuple[float, str]:
    return check_positive("opt", opt, allow_zero=True), check_choice("measure", measure, ("authors", "text"))


#: Cells whose O, back-solved from the printed Table 4, lies below :func:`lowest_o` of our certified lower
#: bound D (paper run), under the text's measure (L871, 100 (P - D)/D < 1 %): 21 cells.
O_BELOW_D_TEXT = (
    (0.005, 0.5), (0.01, 0.5), (0.02, 0.5), (0.05, 0.5), (0.1, 0.5), (0.5, 0.05),
    (1.0, 0.2), (1.0, 0.25), (1.0, 0.3), (2.0, 0.1), (2.0, 0.2), (2.0, 0.25), (2.0, 0.3),
    (5.0, 0.005), (5.0, 0.01), (5.0, 0.02), (5.0, 0.05), (5.0, 0.1), (5.0, 0.2), (5.0, 0.25), (5.0, 0.3),
)  # fmt: skip
#: Cells whose back-solved O lies above :func:`highest_o` of the loss P of a privacy-checked noise (paper
#: run), under the text's measure: 7 cells.
O_ABOVE_P_TEXT = ((0.01, 0.75), (1.0, 0.5), (1.0, 0.75), (2.0, 0.5), (2.0, 0.75), (5.0, 0.5), (5.0, 0.75))
O_OUTSIDE_TEXT = O_BELOW_D_TEXT + O_ABOVE_P_TEXT
#: The same under the authors' measure ((P - D)/max{1, D} < 1 %, their scripts): 1 + 3 of the 28 cells.
O_BELOW_D = ((0.5, 0.05),)
O_ABOVE_P = ((0.01, 0.75), (2.0, 0.5), (2.0, 0.75))
O_OUTSIDE = O_BELOW_D + O_ABOVE_P

#: Table 1 cells that deviate with the Geng n of the authors' C++ loop and whose value under the n + 1 rule
#: fitted to the printed tables lies nearer the printed one (paper run): 69 cells, ours 0.64-64.7 pp higher.
_GENG_T1 = (
    (0.005, 0.01), (0.005, 0.02), (0.005, 0.05), (0.005, 0.1), (0.005, 0.2), (0.005, 0.25), (0.005, 0.3),
    (0.01, 0.01), (0.01, 0.05), (0.01, 0.1), (0.01, 0.2), (0.01, 0.25), (0.01, 0.3),
    (0.02, 0.01), (0.02, 0.02), (0.02, 0.1), (0.02, 0.25), (0.02, 0.3),
    (0.05, 0.005), (0.05, 0.01), (0.05, 0.02), (0.05, 0.1), (0.05, 0.25), (0.05, 0.3),
    (0.1, 0.005), (0.1, 0.01), (0.1, 0.02), (0.1, 0.25), (0.1, 0.3),
    (0.2, 0.005), (0.2, 0.01), (0.2, 0.02), (0.2, 0.05), (0.2, 0.1), (0.2, 0.25), (0.2, 0.3),
    (0.5, 0.005), (0.5, 0.01), (0.5, 0.02), (0.5, 0.05), (0.5, 0.1), (0.5, 0.2), (0.5, 0.25), (0.5, 0.3),
    (1.0, 0.005), (1.0, 0.01), (1.0, 0.02), (1.0, 0.05), (1.0, 0.1), (1.0, 0.2), (1.0, 0.25), (1.0, 0.3),
    (2.0, 0.005), (2.0, 0.01), (2.0, 0.02), (2.0, 0.05), (2.0, 0.1), (2.0, 0.2), (2.0, 0.25), (2.0, 0.3),
    (5.0, 0.005), (5.0, 0.01), (5.0, 0.02), (5.0, 0.05), (5.0, 0.1), (5.0, 0.2), (5.0, 0.25), (5.0, 0.3),
    (5.0, 0.5),
)  # fmt: skip
#: Table 5 cells that deviate with the authors' Geng n and whose n + 1 value lies nearer the printed one
#: (paper run): 68 cells, ours 0.83-64.9 pp higher.  Table 5 at (2, 0.5) is not among them (the loop's n is
#: nearer there, and the cell's O is outside its range, :data:`O_OUTSIDE`).
_GENG_T5 = (
    (0.005, 0.01), (0.005, 0.02), (0.005, 0.05), (0.005, 0.1), (0.005, 0.2), (0.005, 0.25), (0.005, 0.3),
    (0.01, 0.01), (0.01, 0.05), (0.01, 0.1), (0.01, 0.2), (0.01, 0.25), (0.01, 0.3),
    (0.02, 0.01), (0.02, 0.02), (0.02, 0.1), (0.02, 0.25), (0.02, 0.3),
    (0.05, 0.005), (0.05, 0.01), (0.05, 0.02), (0.05, 0.1), (0.05, 0.25), (0.05, 0.3),
    (0.1, 0.005), (0.1, 0.01), (0.1, 0.02), (0.1, 0.25), (0.1, 0.3),
    (0.2, 0.005), (0.2, 0.01), (0.2, 0.02), (0.2, 0.05), (0.2, 0.1), (0.2, 0.25), (0.2, 0.3),
    (0.5, 0.005), (0.5, 0.01), (0.5, 0.02), (0.5, 0.05), (0.5, 0.1), (0.5, 0.2), (0.5, 0.25), (0.5, 0.3),
    (1.0, 0.005), (1.0, 0.01), (1.0, 0.02), (1.0, 0.05), (1.0, 0.1), (1.0, 0.2), (1.0, 0.25), (1.0, 0.3),
    (2.0, 0.005), (2.0, 0.01), (2.0, 0.02), (2.0, 0.05), (2.0, 0.1), (2.0, 0.2), (2.0, 0.25), (2.0, 0.3),
    (5.0, 0.005), (5.0, 0.01), (5.0, 0.02), (5.0, 0.05), (5.0, 0.1), (5.0, 0.2), (5.0, 0.25), (5.0, 0.3),
)  # fmt: skip
#: Table 5's work-error cells: O outside its range and the Geng n not the nearer explanation.
_O_T5 = tuple(c for c in O_OUTSIDE if c not in _GENG_T5)


#: Table 2's notes where our data match the thesis's (N and the numeric/categorical/class counts).
_T2_MATCHED = r"n=(\d+), num/cat/C = (\d+/\d+/\d+) \(thesis \1, \2\)"
#: Table 2's rows with a cause of their own (abalone/spambase's scale, OPT's noise, adult's shared seeds).
_T2_NAMED = (
    r"(?:abalone|spambase) |(?:adult|contraceptive) (?:in|out-of)-sample \(OPT\) error"
    r"|adult (?:in|out-of)-sample (?:\(GN\)|OPT) error"
)


def _cells(table: int, cells) -> str:
    """The claims of Table ``table`` at the given (eps, delta) cells, as the notebook writes them."""
    alternatives = "|".join(re.escape(f"{e:g}, {d:g}") for e, d in cells)
    return rf"^Table {table} at \(eps, delta\) = \((?:{alternatives})\) \[%\]$"


FINDINGS = [
    Finding(
        id="dp-noise-o-outside-stated-gap",
        title=(
            "Tables 4/5: the printed O lies outside the range the LP gap the authors measure (< 1 % of "
            "max{1, D}, L871 and their scripts) allows in 4 of 100 cells"
        ),
        text=(
            "L871 states every LP gap below 1 % and that O = (P + D)/2 stands for the optimal loss opt; the "
            "authors' scripts measure the gap as (P - D)/max{1, D} (grid_ell1_prep_main.jl: 'this is for our "
            "gaps'). Then O > opt - 0.005 for opt <= 1.01 (else 0.99505 opt) and O < opt + 0.005 max{1, "
            "opt}, so for any certified lower bound D* <= opt and any privacy-checked noise of loss P* >= "
            "opt the printed O must lie between those bounds of D* and P*. The O back-solved from Table 4 (O "
            "= B_UB - T4/100 where O < 1, B_UB/(1 + T4/100) otherwise, at the end of the printed rounding "
            "most favourable to the thesis) lies below that range at (0.5, 0.05) (1.3447 against our D* = "
            "1.3521, 0.55 % below where 0.495 % is allowed) and above it at (0.01, 0.75), (2, 0.5) and (2, "
            "0.75) (0.2809, 0.2129, 0.1077 against our P* = 0.2497, 0.2004, 0.1007: 0.031, 0.013 and 0.0070 "
            "above where 0.005 is allowed), with D* and P* our certified bounds on ~2,000-cell grids. "
            "Measured as L871 writes it, 100 (P - D)/D, 24 more cells would be outside (finding "
            "dp-noise-l871-gap-measure)."
        ),
        evidence=f"{_O_TEST_UP}, {_O_TEST_RUN}, {_O_TEST_BREAK}",
        size="1 cell below a certified lower bound (by 0.05 % beyond the allowance), 3 above a private "
        "noise's loss (by 0.002-0.026 beyond it)",
        claims=("table04", "table05"),
    ),
    Finding(
        id="dp-noise-l871-gap-measure",
        title=(
            "L871 measures the LP gap as 100 (P - D)/D < 1 %; the authors' scripts divide by max{1, D}, and "
            "the printed Tables 4/5 contradict the text's measure in 28 cells"
        ),
        text=(
            "L871: the bounds' 'relative optimality gaps, measured as 100% (P - D)/D, are strictly less than "
            "1%'. The authors' grid_ell1_prep_{main,ub,lb}.jl compute the gap as (P - D)/max(1, D). Under "
            "the text's measure O lies in (0.99505 opt, 1.005 opt), and the O back-solved from the printed "
            "Table 4 is below 0.99505 D* in 21 cells (0.53-3.52 % below our certified D; 3.3-3.5 % at eps = "
            "5) and above 1.005 P* in 7 (1.4-12.5 % above our private P), 28 in all; under the scripts' "
            "measure 4 of them remain (finding dp-noise-o-outside-stated-gap). On uniform grids of ~2,000 "
            "cells the text's measure is not even reachable at eps = 5, where P - D >= beta/2 puts it above "
            "1 % (notebook dp_noise_tables1456). The claims judge Tables 1/4/5 with the accuracy of the "
            "authors' measure."
        ),
        evidence=f"{_O_TEST}, {_O_TEST_RUN}",
        size="28 of 100 cells under the text's measure, 4 under the authors'",
        claims=("table04", "table05"),
    ),
    Finding(
        id="dp-noise-table2-dermatology-unseen-levels",
        title=(
            "Table 2, dermatology: the printed out-of-sample errors of about 35 % (in-sample 0.49-1.68 %) "
            "are "
            "an artefact of the authors' NB.jl with the ages read as categories, not naive Bayes's error on "
            "the data the thesis's table describes"
        ),
        text=(
            "Table 2's dermatology row (L926) prints out-of-sample errors of 35.25-35.96 % for every method, "
            "the non-private NB included, against 0.49-1.68 % in-sample; L942 notes dermatology as the one "
            "data set without a significant p-value. The authors' NB.jl scores a category level that no "
            "training row of a class has as log 0 (the countmap lookup throws and the class gets -Inf; a row "
            "whose every class is excluded gets label 1). With the 61 integer ages read as categories, a "
            "test row whose age its class never had in training cannot get its class: naive Bayes so "
            "computed gives in-sample 0.44-1.32 % and out-of-sample 35.81-36.46 % (50 splits x 100 "
            "simulations; all 6 out-of-sample columns and in-sample NB and (OPT) within their band). On the "
            "data as the thesis's table describes them (366 rows, 2 numeric and 32 categorical features, "
            "Age numeric) naive Bayes errs 0.71 % in-sample and 2.0 % out-of-sample (private methods up to "
            "19.4 % and 21.8 %), and either factor alone (the ages as categories with floored counts, or "
            "the unseen-level rule with Age numeric) stays far below 35 %. So the printed row measures the "
            "artefact, not the classifiers on dermatology."
        ),
        evidence=f"{_DERM_TEST}, {_SEC_T2_SIDE}",
        size="14 printed cells (12 errors, 2 Imp); out-of-sample 35.25-35.96 % printed, 2.0-21.8 % by naive "
        "Bayes on the described data",
        claims=("table02",),
    ),
    Finding(
        id="dp-noise-table2-absent-imp",
        title=(
            "Table 2, absent: the printed Imp (2.60 %, 2.59 %) disagrees with the row's own errors "
            "(6.25 %, 7.47 %)"
        ),
        text=(
            "L942 defines Imp as 'the percentage of the gap between NB and the best method from the "
            "literature (which turns out to be TLN) that is closed by OPT', i.e. 100 (TLN - OPT)/(TLN - NB). "
            "The absent row (L934) prints TLN 28.24, OPT 28.01, NB 24.56 (in-sample) and 32.26, 32.03, 29.18 "
            "(out-of-sample): 6.25 % and 7.47 % (5.98-6.52 % and 7.14-7.79 % for any rounding of the printed "
            "errors), against the printed 2.60 % and 2.59 %. The other 24 Imp cells of Table 2 agree with "
            "their rows within the rounding. Absent is not available to us (claim row 'absent row "
            "reproduced', table02)."
        ),
        evidence="tests/test_work_consistency.py::test_dp_noise_table2_absent_imp_disagrees_with_its_row",
        size="2 printed cells: 2.60 vs 6.25 %, 2.59 vs 7.47 %",
        claims=("table02",),
    ),
    Finding(
        id="dp-noise-table3-spambase-imp-sign",
        title=(
            "Table 3, spambase: PCD errs more than TLN, so the gap closed is negative; the row prints "
            "+65.85 % and +41.07 %"
        ),
        text=(
            "Imp of Table 3 is 'the percentage of the gap between PCD and the best method from the "
            "literature that is closed by OPT' (L990), 100 (TLN - OPT)/(TLN - PCD) as in Table 2 (L942). On "
            "spambase (L971) the non-private PCD errs more than TLN: 39.26 vs 39.23 % in-sample and 39.61 vs "
            "39.57 % out-of-sample, with OPT 39.21 and 39.55 %. The share is then negative for any rounding "
            "of the printed errors (-150 to -25 %, about -67 %; -100 to -20 %, about -50 %); the row prints "
            "+65.85 % and +41.07 %, which 100 (TLN - OPT)/|TLN - PCD| gives. Adult's cells and abalone's "
            "out-of-sample cell have a denominator that can vanish within the rounding and are not judged; "
            "every other Imp cell agrees with its row. The claim rows 'spambase in-sample Imp (%)' and "
            "'spambase out-of-sample Imp (%)' (table03) are inconclusive on our run."
        ),
        evidence="tests/test_work_consistency.py::test_dp_noise_table3_spambase_imp_sign_contradicts_its_row",
        size="2 printed cells: +65.85 vs about -67 %, +41.07 vs about -50 %",
        claims=("table03",),
    ),
    Finding(
        id="dp-noise-l990-colon-cancer",
        title=(
            "L990's '(OPT) outperforms the non-private PCD on all data sets except post-operative' fails "
            "for colon-cancer in-sample"
        ),
        text=(
            "L990: 'on all datasets except for post-operative, our data dependent differentially private "
            "classifier (OPT) outperforms the non-private classifier PCD'. Table 3's colon-cancer row (L974) "
            "prints (OPT) 0.03 % against PCD 0.00 % in-sample; out-of-sample (30.41 % vs 30.67 %) and all "
            "other data sets agree with the sentence. The claim row '(OPT) in-sample error below the "
            "non-private PCD on every data set but post-operative (L990)' (table03) checks the statement on "
            "our 11 data sets (colon-cancer is not available to us)."
        ),
        evidence="tests/test_work_consistency.py::test_dp_noise_l990_opt_beats_pcd_fails_for_colon_cancer_in_sample",
        size="1 of 26 comparisons: 0.03 % vs 0.00 %",
        claims=("table03",),
    ),
    Finding(
        id="dp-noise-l871-midpoint",
        title="L871 defines the midpoint as O := (P - D)/2; the tables use (P + D)/2",
        text=(
            "L871 calls O 'the midpoint' of the bounds P and D but defines O := (P - D)/2, the bracket's "
            "half-width (below 0.005 D under the stated gap). The O the printed Table 4 implies lies within "
            "-5 % to +13 % of our (P + D)/2 in all 100 cells; this package uses O = (P + D)/2 "
            "(dp_noise.summaries). A typo of the definition, no printed number depends on it."
        ),
        evidence="tests/test_work_consistency.py::test_dp_noise_l871_midpoint_o_is_p_plus_d_over_2",
        size="a sign in one formula",
        claims=("table01", "table04", "table05"),
    ),
]

CAUSES = [
    # ---------------------------------------------------------------- Tables 1, 4, 5 (l1) and 6 (l2)
    Cause(
        "underspecified",
        "a `fitted` row (never counted): the Geng n + 1 rule chosen to match "
        "the printed tables, shown beside "
        "the authors' rule; it misses where neither rule nor our O (without "
        "the thesis's stated accuracy) does",
        "ours: n + 1 unless that bound exceeds O, else n (catalog section 5 A1; synthetic.table_metrics)",
        note=r"^fitted: ",
        section=_SEC_T1456,
    ),
    Cause(
        "underspecified",
        "the Geng bound's integer n: with the n of the authors' public C++ loop ours is 0.64-64.7 pp higher "
        "in 69 cells of Table 1; the n + 1 rule fitted to the printed tables (its `fitted` rows, judged "
        "without the thesis's stated accuracy) is reproduced in 47 of them and outside our LP band in 22; "
        "with the stated accuracy of L871 added it would lie inside in 68 ((0.5, 0.05) misses by 0.005 pp)",
        "authors-code: the Geng n of data_independent.cpp (largest n with sum_{k<n} a b^k <= 1/2); the text "
        "(footnote 3, L891) only calls the rounding 'non-monotonic'; the fitted n + 1 rule is shown beside "
        "as `fitted` claims",
        item="^table01$",
        claim=_cells(1, _GENG_T1),
        section=_SEC_T1456,
        tried=(
            "the Geng n of the authors' public C++ loop (data_independent.cpp, largest n with sum_{k<n} a "
            "b^k "
            "<= 1/2; the rows' own values): 0 of 69 within the printed digits, ours 0.64-64.7 pp higher "
            f"({_SEC_T1456})",
            "n + 1 unless that bound exceeds O (the rule fitted to the printed Tables 4/5, its `fitted` "
            "rows): "
            "47 of 69 within the printed digits, 22 outside our LP band (tests/test_claims_causes.py::"
            "test_dp_noise_geng_causes_state_the_reports_fitted_counts)",
            "the n + 1 rule with L871's stated accuracy (O within 0.005 max{1, opt}) added to the band: 68 "
            "of 69 "
            "inside it ((0.5, 0.05) misses by 0.005 pp), a band, not the printed digits "
            "(tests/test_claims_causes.py::test_dp_noise_geng_cells_are_where_n_plus_1_lies_nearer_the_printed_value)",
        ),
    ),
    Cause(
        "underspecified",
        "Table 1's max LP gap: our ~2,000-cell uniform grids have certified "
        "gaps up to 4.92 % (floor beta/(2D) "
        "above 1 % in 11 cells); the thesis's partitions pi are not stated",
        "ours: uniform grids of ~2,000 cells (supp. p.10's count), on which P - D >= beta/2 exactly",
        item="^table01$",
        claim=r"^relative LP gap",
        section=_SEC_T1456,
    ),
    Cause(
        "underspecified",
        "the Geng bound's integer n: with the authors' C++ loop ours is 0.83-64.9 pp higher in 68 cells of "
        "Table 5 (at (0.5, 0.05), 18.8 pp, though that cell's O is also outside its range, 0.63 pp with n + "
        "1); the fitted n + 1 rule's rows (judged without the thesis's stated accuracy) are reproduced in 4, "
        "inside a band too wide to tell in 1 and outside our LP band in 63; with the stated accuracy of L871 "
        "added 67 would lie inside",
        "authors-code: the Geng n of data_independent.cpp (largest n with sum_{k<n} a b^k <= 1/2); the text "
        "(footnote 3, L891) does not define n; the fitted rule is shown beside as `fitted` claims",
        item="^table05$",
        claim=_cells(5, _GENG_T5),
        section=_SEC_T1456,
        tried=(
            "the Geng n of the authors' public C++ loop (the rows' own values): 0 of 68 within the printed "
            f"digits, ours 0.83-64.9 pp higher ({_SEC_T1456})",
            "n + 1 unless that bound exceeds O (fitted to the printed Tables 4/5, its `fitted` rows): 0 of "
            "68 "
            "within the printed digits, 4 inside our LP band (tests/test_claims_causes.py::"
            "test_dp_noise_geng_causes_state_the_reports_fitted_counts)",
            "the n + 1 rule with L871's stated accuracy added to the band: 67 of 68 inside it, a band, not "
            "the "
            "printed digits (tests/test_claims_causes.py::"
            "test_dp_noise_geng_cells_are_where_n_plus_1_lies_nearer_the_printed_value)",
        ),
    ),
    Cause(
        "work-error",
        "the printed O (back-solved from Table 4) lies outside the range the authors' LP gap ((P - D)/"
        "max{1, D} < 1 %, L871 and their scripts) allows around our certified bounds: 4 cells of Table 4 "
        "(ours 0.75 pp lower to 3.17 pp higher) and 3 of Table 5 (0.75-3.17 pp; the fourth, (0.5, 0.05), "
        "carries the Geng cause)",
        f"{_O_TEST_UP}, {_O_TEST_RUN}, {_O_TEST_BREAK}",
        item="^table0[45]$",
        claim=rf"{_cells(4, O_OUTSIDE)}|{_cells(5, _O_T5)}",
        finding="dp-noise-o-outside-stated-gap",
        section=_SEC_T1456,
        tried=(
            "O at the end of the printed Table 4 rounding most favourable to the thesis (used): the 7 cells "
            f"stay outside the range, 0 of 7 within the printed digits ({_O_TEST_RUN})",
            "the gap measured as L871 writes it, 100 (P - D)/D < 1 %: 28 cells of Tables 4/5 outside, these "
            "7 "
            f"among them ({_O_TEST_RUN})",
            "the gap measured as the authors' scripts do, (P - D)/max{1, D} < 1 % (used): 4 + 3 cells "
            "outside, "
            f"every other cell inside ({_O_TEST_RUN}, {_O_TEST_BREAK})",
            "a privacy-checked noise on a coarse grid at (0.01, 0.75) and (2, 0.5) instead of our "
            "~2,000-cell "
            f"LPs: the printed O still above its loss plus the allowance ({_O_TEST_UP})",
        ),
    ),
    Cause(
        "underspecified",
        "Table 6 (l2) compares the thesis with an l2 Geng bound we constructed "
        "(no formula in the thesis, its "
        "repository or supplement): all 99 deviating cells test nothing the thesis fixed",
        "ours: the greedy staircase of Geng et al. with cost k^2 (synthetic.geng_lower_bound, loss='l2')",
        item="^table06$",
        section=_SEC_T1456,
    ),
    # ---------------------------------------------------------------- Table 2 (DP naive Bayes)
    Cause(
        "underspecified",
        "abalone and spambase: N and the feature counts match, but the features' scale of the thesis's "
        "cleaned files is not stated, and the repo's naive Bayes floors every class-conditional sd at 1 "
        "and rounds the sensitivities up, so every column (the non-private NB too) depends on it: on the "
        "UCI files (abalone's values divided by 200, spambase's percentages) the floor binds",
        "ours: the UCI files' scale; authors-code: NB.jl means_sds_of_df (max(std, 1)) and sensitivities.jl "
        "(ceil); experiment (learning.nb_variant_errors, 10 splits x 100 sims, in/out-of-sample): abalone "
        "x1 NB 28.94/29.11, TLN 40.27/40.26 vs x200 NB 26.70/26.00, TLN 28.28/27.67 (thesis NB "
        "26.46/26.86, TLN 31.36/31.66); spambase x1 NB 26.38/26.66, TLN 42.70/42.69 vs x10 NB 17.79/17.24, "
        "TLN 37.98/37.86 (thesis 18.09/18.26, 35.50/35.41); tests/test_dp_noise_table02_variants.py",
        item="^table02$",
        claim=r"^(abalone|spambase) ",
        section=_SEC_T2,
    ),
    Cause(
        "underspecified",
        "the data-dependent (OPT) noise of naive Bayes: the supplement (p.9) splits 'the function range into "
        "7 intervals ... non-uniformly' without the breakpoints, and the authors' code reads one optimised "
        "distribution per (sensitivity, range [F_lower, F_upper]) from files that are not published",
        "text: supp. p.9 gives no breakpoints; authors-code: main_data_dependent.jl/read_distributions.jl "
        "(Distributions/new/*_sens*lower*upper*.csv, ranges [0, N], [min, max], [0, max sd]); ours: the 7 "
        "intervals (-inf, 0), [0, 1), [1, 2), [2, 3), [3, 5), [5, 10), [10, inf) in sensitivities "
        "(learning.dd_noise_nb)",
        item="^table02$",
        claim=r"^(adult|contraceptive) (in|out-of)-sample \(OPT\) error",
        section=_SEC_T2,
    ),
    Cause(
        "underspecified",
        "adult (GN) and OPT: the thesis's means reuse the same 1,000 noise seeds in every split, so they "
        "average about 2,700 independent draws, not 100,000; that Monte-Carlo error (+-0.25-0.26 pp) covers "
        "our difference (0.21-0.30 pp; bands 0.51-0.54 pp), unlike TLN's (0.57-0.60 pp against 0.47 pp)",
        "authors-code: main.jl reseeds Random.seed!(sim), sim = 1..1,000, in every split job, and "
        "sensitivities.jl draws one noise per category key seen in training, so splits with the same key "
        "count share every draw (learning.authors_noise_streams: 2.66 independent streams on adult); ours "
        "draws independent noise per split; the spread of a shared draw (learning.shared_draw_spread, 5 "
        "splits x 1,000 sims): (GN) 13.48 pp, OPT 12.77 pp, TLN 11.71 pp; "
        "tests/test_dp_noise_table02_variants.py::test_shared_seeds_cover_adult_gn_and_opt_not_tln",
        item="^table02$",
        claim=r"^adult (in|out-of)-sample (\(GN\)|OPT) error",
        section=_SEC_T2,
    ),
    Cause(
        "unexplained",
        "adult and contraceptive, whose data match the thesis (N, feature counts, non-private NB 17.38 vs "
        "17.37, 49.17 vs 49.14): GN is 5.3 pp (adult) and 1.5-1.7 pp lower than printed, TLN 0.57-0.60 pp "
        "lower on adult, OPT 0.53-0.67 pp higher on contraceptive, hence Imp (10.0 vs 28.3, 4.6 vs 32.6); "
        "not found",
        f"{_SEC_T2} (the variants below, measured beside ours)",
        item="^table02$",
        claim=rf"^(?!{_T2_NAMED})",
        note=_T2_MATCHED,
        section=_SEC_T2,
        tried=(
            "the authors' published noise path (NB.jl/sensitivities.jl: only category counts seen in "
            "training "
            "noised and divided by the noisy class count, sds floored before the noise), 10 splits x 300 "
            "sims: adult GN 33.43 +- 0.44 (ours 32.87, thesis 38.82), TLN 21.26 (21.00, 21.80), "
            "contraceptive "
            f"GN 57.92 (57.66, 59.53): 0 of 13 rows within the printed digits ({_SEC_T2})",
            "OPT optimised for the l2 loss (the supplement's 'noise power') instead of l1 (L940): adult OPT "
            "20.74/20.79 vs 20.71/20.76, contraceptive 51.95/53.28 vs 51.94/53.27, 0 of 13 (tests/"
            "test_dp_noise_table02_variants.py::test_opt_loss_does_not_move_opt)",
            "the thesis's Monte-Carlo error from its shared seeds (about 2,700 independent draws on adult): "
            "covers neither GN, nor adult's TLN, nor contraceptive's OPT, 0 of 13 (tests/"
            "test_dp_noise_table02_variants.py::test_shared_seeds_cover_adult_gn_and_opt_not_tln)",
            "every Gaussian/Laplace noise scale x 1.4: adult GN 39.25/39.28 (printed 38.78/38.82) but (GN) "
            "and "
            f"TLN 27.47 and 25.23 (21.98, 21.73), 0 of 13 within the printed digits ({_SEC_T2})",
            "GN alone with delta split k ways (delta/d, delta/(|V_cat| + 1), delta/(d + 1), delta = 0.01 of "
            "PCD_functions.jl): GN's 4 rows inside their bands, 0 of 13 within the printed digits; no stated "
            "rule gives GN alone a larger sigma (tests/test_dp_noise_table02_variants.py::"
            "test_gn_sigma_factor_hypotheses_on_contraceptive)",
        ),
    ),
    # Table 2's data sets whose mirror copy differs from the thesis's data table: a side run on the
    # thesis-matched copies (dp_learning.datasets.MATCHED; notebook section _SEC_T2_SIDE, 50 splits x 100
    # sims) shows how much of each gap is the data's.  The mean |gap| over the 12 error columns: ours (the
    # rows' values) / matched copy / matched copy with NB.jl's unseen-level rule.
    Cause(
        "work-error",
        "dermatology: the printed errors (in-sample 0.49-1.68 %, out-of-sample 35.25-35.96 %) are those of "
        "the authors' NB.jl scoring a category level unseen in a class's training rows log 0, with the ages "
        "read as categories (side run: 0.44-1.32 % and 35.81-36.46 %, 8 of 12 error rows within their band, "
        "all 6 out-of-sample ones); naive Bayes on the thesis-matched copy (N 366, 2/32/6 as the data "
        "table) errs 0.71-19.4 % and 2.0-21.8 %: mean |gap| 16.05 pp with our copy, 16.18 with the matched "
        "one, 0.39 with the artefact",
        f"{_DERM_TEST}, {_SEC_T2_SIDE}",
        item="^table02$",
        claim=r"^dermatology ",
        note=rf"^(?!.*{_T2_MATCHED}).*mirror data",
        finding="dp-noise-table2-dermatology-unseen-levels",
        section=_SEC_T2,
        tried=(
            "the thesis-matched copy (8 missing ages imputed, family history and Age numeric: 366 rows, "
            "2/32/6) with our scoring: mean |gap| 16.05 -> 16.18 pp, 0 of 12 error rows within the band, 0 "
            f"within the printed digits (50 splits x 100 sims; {_SEC_T2_SIDE})",
            "the matched copy with NB.jl's unseen-level rule (log 0, a row whose every class is excluded "
            "gets the first row's class): 11.05 pp, 0 of 12 within the band, 0 within the digits "
            f"({_SEC_T2_SIDE})",
            "the ages as categories (61 levels) with our floored counts: out-of-sample below 10 % "
            f"({_DERM_TEST})",
            "the ages as categories with NB.jl's unseen-level rule: 0.39 pp, 8 of 12 within the band (all 6 "
            "out-of-sample; in-sample GN, (GN), TLN, OPT 0.23-0.36 pp low), 0 within the printed digits at "
            f"50 x 100 ({_SEC_T2_SIDE}, {_DERM_TEST})",
        ),
    ),
    Cause(
        "underspecified",
        "breast-cancer and cylinder-bands, whose dimensions the thesis-matched copies reach (683, 0/9/2 "
        "with the grades as categories; 539, 19/14/2 with the authors' erroneous row dropped and a missing "
        "category its own level): the matched copy closes most of the gap (mean |gap| over the 12 error "
        "columns 1.70 -> 0.52 pp and 5.03 -> 1.76 pp) and the authors' NB.jl rule for a category level "
        "unseen in a class's training rows (log 0; ours floors its count) most of the rest (0.24 and 0.65 "
        "pp, 10 and 7 of 12 error rows within their band); Imp stays off (2.3/4.8 vs 36.8/36.75, 1.7/3.2 vs "
        "6.35/6.40)",
        "authors-code: NB.jl (test_error: a missing countmap key throws and scores log(0)) and the authors' "
        "Dataset Cook notebooks for the data; ours floors every count at 1e-6 "
        f"(naive_bayes.noisy_statistics) and reads the mirror's files; side run: {_SEC_T2_SIDE}",
        item="^table02$",
        claim=r"^(?:breast-cancer|cylinder-bands) ",
        note=rf"^(?!.*{_T2_MATCHED}).*mirror data",
        section=_SEC_T2,
        tried=(
            "the thesis-matched copies with our scoring: mean |gap| 1.70 -> 0.52 pp (breast-cancer, 4 of 12 "
            "error rows within the band) and 5.03 -> 1.76 pp (cylinder-bands, 2 of 12), 0 within the "
            f"printed digits (50 splits x 100 sims; {_SEC_T2_SIDE})",
            "the matched copies with NB.jl's unseen-level rule: 0.24 pp (10 of 12 within the band) and 0.65 "
            f"pp (7 of 12), 0 within the printed digits at 50 x 100 ({_SEC_T2_SIDE})",
        ),
    ),
    Cause(
        "substitute-data",
        "post-operative: the thesis-matched copy (COMFORT numeric, two classes: 1/7/2 as the data table) "
        "has 87 rows, as the authors' own Dataset Cooking_PCD.ipynb prints, against the table's 86; it "
        "closes most of the gap (mean |gap| over the 12 error columns 4.28 -> 1.84 pp, 5 of 12 within the "
        "band; with NB.jl's unseen-level rule 1.51 pp, 9 of 12)",
        f"the thesis's 86-row file is not public; side run on the matched copy: {_SEC_T2_SIDE}",
        item="^table02$",
        claim=r"^post-operative ",
        note=rf"^(?!.*{_T2_MATCHED}).*mirror data",
        section=_SEC_T2,
        tried=(
            "the matched copy (87 rows, 1/7/2) with our scoring: mean |gap| 4.28 -> 1.84 pp, 5 of 12 error "
            f"rows within the band, 0 within the printed digits (50 splits x 100 sims; {_SEC_T2_SIDE})",
            "the matched copy with NB.jl's unseen-level rule: 1.51 pp, 9 of 12 within the band, 0 within the "
            f"printed digits ({_SEC_T2_SIDE})",
        ),
    ),
    # ECOLI-RULE
    Cause(
        "underspecified",
        "ecoli: the thesis-matched copy (lip and chg, the two-valued attributes, as categories: 336, 5/2/2 "
        "as the data table) leaves the gap (mean |gap| over the 12 error columns 20.86 -> 19.52 pp; 19.46 "
        "with NB.jl's unseen-level rule as well), but the features' scale does not: the UCI file's values "
        "lie in [0, 1], where NB.jl's floor of 1 on every class-conditional sd binds, so the non-private NB "
        "errs 38-39 % against the printed 3.97/4.52 %; the scale of the thesis's cleaned file is not stated",
        "ours: the UCI file's scale; authors-code: NB.jl means_sds_of_df (max(std, 1)); experiment "
        "(learning.nb_variant_errors on the matched copy, 10 splits x 100 sims, in/out-of-sample): x1 NB "
        "38.29/35.82, TLN 46.60/46.33; x10 NB 3.72/3.43, TLN 11.32/12.39; x100 NB 3.75/4.93, TLN "
        f"23.90/23.63 (thesis NB 3.97/4.52, TLN 27.00/27.44); {_SCALE_TEST}; side run: {_SEC_T2_SIDE}",
        item="^table02$",
        claim=r"^ecoli ",
        note=rf"^(?!.*{_T2_MATCHED}).*mirror data",
        section=_SEC_T2,
        tried=(
            "the thesis-matched copy (5/2/2): mean |gap| 20.86 -> 19.52 pp, 1 of 12 error rows within the "
            f"band, 0 within the printed digits (50 splits x 100 sims; {_SEC_T2_SIDE})",
            "the matched copy with NB.jl's unseen-level rule: 19.46 pp, 2 of 12 within the band, 0 within "
            f"the printed digits ({_SEC_T2_SIDE})",
            "the matched copy's features x10 and x100: the non-private NB 3.72/3.43 and 3.75/4.93 % (printed "
            "3.97/4.52) but no one scale gives the private columns (x10 TLN 11.32, x100 23.90; printed "
            f"27.00) ({_SCALE_TEST})",
        ),
    ),
    Cause(
        "substitute-data",
        "annealing, spect and bank: the mirror's version differs from the thesis's cleaned file (N or the "
        "numeric/categorical/class counts, stated in the note: annealing 6/12/5 vs 6/18/5, spect 267 vs "
        "160 rows, bank 7/9/2 vs 4/12/2) and no documented reading reaches the thesis's data table",
        "the authors' cleaned files are not in the offline mirror and their Dataset Cook notebooks cover "
        "post-operative and cylinder-bands only; ours are the UCI/ARFF versions "
        "(safeguarded.dp_learning.datasets), compared with the thesis's counts in the notebook",
        item="^table02$",
        claim=r"^(?:annealing|spect|bank) ",
        note=rf"^(?!.*{_T2_MATCHED}).*mirror data",
        section=_SEC_T2,
        tried=(
            "a reading of the mirror's files that reaches the thesis's counts from the thesis, its data "
            "table, the authors' public code or the UCI documentation: none found for annealing (which 18 "
            "of its 32 categorical columns), spect (160 of 267 rows; 228 distinct rows) or bank (which 3 of "
            "its 7 numeric columns are categories), so no matched rerun (dp_learning.datasets.MATCHED lists "
            f"the five sets that have one; {_SEC_T2_SIDE})",
        ),
    ),
    # -------------------------------------------------------- Table 3 (DP proximal coordinate descent)
    Cause(
        "unexplained",
        "Table 3 on the data sets whose N and d match the thesis (abalone, adult, contraceptive, ecoli): "
        "at 100 splits x 100 simulations (thesis 1,000) the levels are decided outside their bands (the "
        "band wider than the gap they show confirms nothing but refutes); equal N and d do not make the "
        "thesis's cleaned files ours, and no run shows what else differs: cause not found",
        f"{_SEC_T3} (N and d beside the thesis's)",
        item="^table03$",
        note=r"N=(\d+), d=(\d+) \(thesis \1, \2\)",
        section=_SEC_T3,
        tried=(
            "100 splits x 100 simulations (the authors' PCD.jl count nr_sim = 10^2; thesis 1,000; the rows' "
            f"values): the levels decided outside their bands, 0 of 35 within the printed digits ({_SEC_T3})",
            "the authors' PCD setting (DP-via-DRO PCD.jl / PCD_functions.jl, read: T = 100, ceil(d/4) "
            "coordinates per iteration, lambda = 1e-8, start U[-1, 1]^d, the inner iterates averaged, the "
            "last iterate's errors, an 80/20 split, de-meaned columns scaled to max |x| = 1): ours follows "
            f"it, so it is no variant left to try ({_SEC_T3})",
        ),
    ),
    # Table 3's data sets whose mirror copy differs from the thesis's N or d: a side run on the thesis-matched
    # copies (dp_learning.datasets.MATCHED, 30 splits x 30 sims, notebook section _SEC_T3_SIDE); mean |gap|
    # over the 12 error columns, ours -> matched copy.
    Cause(
        "substitute-data",
        "Table 3 on cylinder-bands, whose mirror copy (540 rows, d = 57) differs from the thesis's (539, "
        "63): "
        "the thesis-matched copy (the authors' erroneous row dropped, a missing category its own level: "
        "539 rows, d = 63) reproduces most of the row, shown by a side run (30 splits x 30 sims): mean |gap| "
        "over the 12 error columns 6.24 -> 0.74 pp, 8 within their band, in-sample GN 2.0 pp and (OPT) 1.6 "
        "pp off",
        f"side run: {_SEC_T3_SIDE}; the matched copy's dimensions: "
        "tests/test_dp_learning_matched.py::test_matched_loading_reaches_the_thesis_table",
        item="^table03$",
        claim=r"^cylinder-bands ",
        section=_SEC_T3,
        tried=(
            "the thesis-matched copy (539 rows, d = 63): mean |gap| 6.24 -> 0.74 pp, 8 of 12 error rows "
            f"within the band, 0 within the printed digits (30 splits x 30 sims; {_SEC_T3_SIDE})",
        ),
    ),
    Cause(
        "unexplained",
        "Table 3 on dermatology, whose thesis-matched copy (the 8 missing ages imputed: 366 rows, d = 98 as "
        "the thesis) leaves the gap as it is: ours 3.3-6.7 % against the printed 8.0-21.4 % (mean |gap| over "
        "the 12 error columns 10.17 pp with our copy, 10.13 with the matched one); not found",
        f"side run: {_SEC_T3_SIDE}",
        item="^table03$",
        claim=r"^dermatology ",
        section=_SEC_T3,
        tried=(
            "the thesis-matched copy (366 rows, d = 98): mean |gap| 10.17 -> 10.13 pp, 0 of 12 error rows "
            f"within the band or the printed digits (30 splits x 30 sims; {_SEC_T3_SIDE})",
        ),
    ),
    Cause(
        "substitute-data",
        "Table 3 on post-operative, whose copy has 87 rows against the thesis's 86 (the authors' own "
        "Dataset Cooking_PCD.ipynb prints 87); the thesis-matched copy (COMFORT numeric: d = 14 as the "
        "thesis) barely moves the gap (mean |gap| over the 12 error columns 6.51 -> 5.91 pp, 2 within the "
        "band; in-sample GN ours 27.2 % vs 40.23 %), so the one row left is the only difference shown, not "
        "that it explains the gap",
        f"the thesis's 86-row file is not public; side run: {_SEC_T3_SIDE}",
        item="^table03$",
        claim=r"^post-operative ",
        note=r"N=(\d+), d=(\d+) \(thesis (?!\1, \2\))",
        section=_SEC_T3,
        tried=(
            "the thesis-matched copy (87 rows, d = 14): mean |gap| 6.51 -> 5.91 pp, 2 of 12 error rows "
            "within "
            f"the band, 0 within the printed digits (30 splits x 30 sims; {_SEC_T3_SIDE})",
        ),
    ),
    Cause(
        "substitute-data",
        "Table 3 on breast-cancer, annealing, spect and bank, whose mirror copies differ from the thesis's "
        "(N or d after encoding: breast-cancer d = 10 vs 26, annealing 40 vs 42, spect 267 vs 160 rows, bank "
        "d = 43 vs 44, stated in the note) and for which no documented reading reaches the thesis's "
        "dimensions",
        "the authors' cleaned files are not in the offline mirror; ours are the UCI/ARFF versions "
        "(safeguarded.dp_learning.datasets), compared with the thesis's N and d in the notebook",
        item="^table03$",
        claim=r"^(?:breast-cancer|annealing|spect|bank) ",
        note=r"N=(\d+), d=(\d+) \(thesis (?!\1, \2\))",
        section=_SEC_T3,
        tried=(
            "a reading of the mirror's files that reaches the thesis's N and d from the thesis, its data "
            "table, the authors' public code or the UCI documentation: none found for breast-cancer (d = 26: "
            "numeric grades give 10, one-hot grades 82), annealing (d = 42), spect (160 of 267 rows) or bank "
            f"(d = 44), so no matched rerun ({_SEC_T3_SIDE})",
        ),
    ),
]


#: Half a unit of the last printed digit of Tables 1, 4 and 5 (they print percentages to 0.01).
PRINTED_HALF_UNIT = 0.005


def _table_accuracy() -> list[Accuracy]:
    """Per-cell :class:`Accuracy` of Tables 1, 4 and 5 from L871 (see the module docstring)."""
    from safeguarded.dp_noise import mechanisms, synthetic, thesis

    out = []
    rows = {item: list(values.values()) for item, values in thesis.TABLES.items()}
    for i, e in enumerate(synthetic.EPSILONS):
        for j, d in enumerate(synthetic.DELTAS):
            bounds = _cell_accuracy(
                mechanisms.TruncatedLaplace(e, d).amplitude(),
                *(float(rows[item][i][j]) for item in ("table01", "table04", "table05")),
            )
            for table, (bound, printed) in bounds.items():
                if bound > 0 and printed != 0:
                    out.append(
                        Accuracy(
                            (bound + PRINTED_HALF_UNIT) / abs(printed),
                            f"L871: gap < 1 % (of max{{1, D}}, as the authors' grid_ell1_prep_*.jl measure "
                            f"it) puts O within 0.005 max{{1, opt}} of the optimum, i.e. this cell within "
                            f"+-{bound:.3g} pp, printed to +-{PRINTED_HALF_UNIT:g} pp",
                            item=f"^table0{table}$",
                            claim=_cells(table, ((e, d),)),
                        )
                    )
    return out


def _cell_accuracy(b_ub: float, t1: float, t4: float, t5: float) -> dict[int, tuple[float, float]]:
    """{table: (bound in pp, printed value)} for one cell: how far the printed Tables 1, 4 and 5 can be from
    their values at the optimum when |O - opt| <= 0.005 max{1, opt} (L871 with the authors' gap measure);
    O back-solved from Table 4's ``t4`` and the truncated Laplace ``b_ub``, at the end of the printed rounding
    that widens the bound (for Table 5 the rounding of all three tables, which agree only to it:
    T1 = T4 + T5 +- 0.015)."""
    t4_low = t4 - 0.005
    o = b_ub - t4_low / 100 if b_ub - t4_low / 100 <= 1 else b_ub / (1 + t4_low / 100)
    opt = o + 0.005 if o + 0.005 <= 1 else o / 0.995  # the largest optimum compatible with O
    below = {1: 0.0, 4: 0.5, 5: 0.5}
    above = {
        1: 0.005 * (t1 + 0.005) / 0.995,
        4: 0.5 * (1 + (t4 + 0.005) / 100),
        5: 0.5 * max(0.0, 1 - (t5 - 0.015) / 100),
    }
    out = {}
    for table, printed in ((1, t1), (4, t4), (5, t5)):
        if opt < 0.99:
            bound = below[table]
        elif o > 1.01:
            bound = above[table]
        else:  # O and opt on either side of 1: each side's bound over its part of |O - opt| <= 0.005 opt
            bound = max(below[table], above[table]) * opt
        out[table] = (bound, printed)
    return out


ACCURACY = _table_accuracy()

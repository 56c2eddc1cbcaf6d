"""Why dp_noise's printed numbers deviate: the causes of its claims (protocol v2, ``docs/claims.md``).

Read by :mod:`safeguarded.judging` when ``make claims`` merges the notebooks' rows; the first matching
rule wins.  The cell lists below were read off the paper-scale run (``figures/dp_noise/tables1456_cells.csv``
and the claims); ``tests/test_claims_causes.py`` checks the ones a finding rests on against that run.

The thesis's stated accuracy (L871: every LP gap 100 (P - D)/D "strictly less than 1 %", O = (P + D)/2)
puts its O within 0.5 % of the optimum opt: D <= opt <= P < 1.01 D gives |O - opt| < 0.005 D <= 0.005 opt.
That is not 1 % of a printed percentage; per cell it bounds how far a printed value can be off:

* Table 4 = 100 (B_UB - O)/max{O, 1}: by 0.5 opt pp where O < 1, by 0.5 B_UB/O = 0.5 (1 + T4/100) pp
  where O > 1;
* Table 5 = 100 (O - B_LB)/max{O, 1}: by 0.5 opt pp where O < 1, by 0.5 (1 - T5/100) pp where O > 1;
* Table 1 = 100 (B_UB - B_LB)/max{O, 1}: not at all where O < 1, by 0.5 % of itself where O > 1.

:data:`ACCURACY` declares exactly these bounds, cell by cell, as ``rtol = bound/|printed value|`` (O back-
solved from the printed Table 4 and the closed-form truncated Laplace, at the end of the printed rounding
that gives the widest bound; within 1 % of O = 1 the larger of the two regimes), plus half a unit of
the printed digit (:data:`PRINTED_HALF_UNIT`): the bound holds for the thesis's computed value, and the
table prints it rounded to 0.01 pp.  (Where our LP bracket is below half a digit the row's own tolerance
is already half a digit, so there the rounding is counted twice, by at most 0.005 pp.)  Table 6 (l2) has
no stated accuracy (the sentence at L871 is about the l1 experiment).
"""

from __future__ import annotations

import re

from safeguarded.judging import Accuracy, Cause, Finding

_T1456 = "notebooks/dp_noise_tables1456.ipynb"
_T2 = "notebooks/dp_noise_table02.ipynb"
_T3 = "notebooks/dp_noise_table03.ipynb"
_SEC_T1456 = f"{_T1456}#paper-vs-ours-the-deviation-groups-of-tables-1-4-5-and-6"
_SEC_T2 = f"{_T2}#paper-vs-ours-the-deviation-groups-of-table-2"
_SEC_T3 = f"{_T3}#paper-vs-ours-the-deviation-groups-of-table-3"
_O_TEST = (
    "tests/test_claims_causes.py::test_dp_noise_table4_o_below_a_certified_lower_bound_beyond_the_stated_gap"
)
_O_TEST_UP = "tests/test_claims_causes.py::test_dp_noise_table4_o_above_a_private_noise_beyond_the_stated_gap"
_O_TEST_RUN = "tests/test_claims_causes.py::test_dp_noise_o_cells_outside_the_stated_gap_in_the_paper_run"

#: Cells whose O, back-solved from the printed Table 4, lies below 0.99505 x our certified lower bound D
#: (paper run): impossible if every LP gap was below 1 % (L871).
O_BELOW_D = (
    (0.005, 0.5), (0.01, 0.5), (0.02, 0.5), (0.05, 0.5), (0.1, 0.5), (0.5, 0.05),
    (1.0, 0.2), (1.0, 0.25), (1.0, 0.3), (2.0, 0.1), (2.0, 0.2), (2.0, 0.25), (2.0, 0.3),
    (5.0, 0.005), (5.0, 0.01), (5.0, 0.02), (5.0, 0.05), (5.0, 0.1), (5.0, 0.2), (5.0, 0.25), (5.0, 0.3),
)  # fmt: skip
#: Cells whose back-solved O lies above 1.005 x the loss P of a privacy-checked noise (paper run).
O_ABOVE_P = ((0.01, 0.75), (1.0, 0.5), (1.0, 0.75), (2.0, 0.5), (2.0, 0.75), (5.0, 0.5), (5.0, 0.75))
O_OUTSIDE = O_BELOW_D + O_ABOVE_P

#: Table 1 cells that deviate with the Geng n of the authors' C++ loop and are reproduced by the n + 1 rule
#: fitted to the printed tables (all of Table 1's deviations but (0.5, 0.05), see below).
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
#: Table 5 cells that deviate with the authors' Geng n, reproduced by the fitted n + 1 rule, O inside its
#: range.
_GENG_T5 = (
    (0.005, 0.01), (0.005, 0.02), (0.005, 0.05), (0.005, 0.1), (0.005, 0.2), (0.005, 0.25), (0.005, 0.3),
    (0.01, 0.01), (0.01, 0.05), (0.01, 0.1), (0.01, 0.2), (0.01, 0.25), (0.01, 0.3),
    (0.02, 0.01), (0.02, 0.02), (0.02, 0.1), (0.02, 0.25), (0.02, 0.3),
    (0.05, 0.005), (0.05, 0.01), (0.05, 0.02), (0.05, 0.1), (0.05, 0.25), (0.05, 0.3),
    (0.1, 0.005), (0.1, 0.01), (0.1, 0.02), (0.1, 0.25), (0.1, 0.3),
    (0.2, 0.005), (0.2, 0.01), (0.2, 0.02), (0.2, 0.05), (0.2, 0.1), (0.2, 0.25), (0.2, 0.3),
    (0.5, 0.005), (0.5, 0.01), (0.5, 0.02), (0.5, 0.1), (0.5, 0.2), (0.5, 0.25), (0.5, 0.3),
    (1.0, 0.005), (1.0, 0.01), (1.0, 0.02), (1.0, 0.05), (1.0, 0.1), (2.0, 0.005), (2.0, 0.01), (2.0, 0.02),
    (2.0, 0.05),
)  # fmt: skip


def _cells(table: int, cells) -> str:
    """The claims of Table ``table`` at the given (eps, delta) cells, as the notebook writes them."""
    alternatives = "|".join(re.escape(f"{e:g}, {d:g}") for e, d in cells)
    return rf"^Table {table} at \(eps, delta\) = \((?:{alternatives})\) \[%\]$"


FINDINGS = [
    Finding(
        id="dp-noise-o-outside-stated-gap",
        title=(
            "Tables 4/5: the printed O lies outside the range the stated LP gap (< 1 %, L871) allows "
            "in 28 of "
            "100 cells"
        ),
        text=(
            "L871 states that every LP gap 100 (P - D)/D is strictly below 1 % and "
            "that O = (P + D)/2 stands for "
            "the optimal loss opt. Then 0.99505 opt < O < 1.005 opt, so for any "
            "certified lower bound D* <= opt "
            "and any privacy-checked noise of loss P* >= opt the printed O must "
            "lie in [0.99505 D*, 1.005 P*]. "
            "The O back-solved from Table 4 (O = B_UB - T4/100 where O < 1, "
            "B_UB/(1 + T4/100) otherwise, at the "
            "end of the printed rounding most favourable to the thesis) lies "
            "below 0.99505 D* in 21 cells (by "
            "0.53-3.52 % below our D; 3.3-3.5 % at eps = 5) and above 1.005 P* in 7 cells with delta >= 0.5 "
            "(1.4-12.5 % above our P; 12.5 % at (0.01, 0.75)), with D* and P* our "
            "certified bounds on ~2,000-cell "
            "grids. At (1, 0.1), the cell the catalog checks, the printed O = 0.6858 is below our certified "
            "D = 0.6878 by only 0.28 %, which the stated accuracy allows: that "
            "cell is not part of the finding."
        ),
        evidence=f"{_O_TEST}, {_O_TEST_UP}, {_O_TEST_RUN}",
        size="21 cells below a certified lower bound (up to 3.5 %), 7 above a private noise's loss (up to "
        "12.5 %)",
        claims=("table04", "table05"),
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
        "the Geng bound's integer n: with the n of the authors' public C++ loop "
        "ours is 0.6-65 pp higher in 69 "
        "cells; the n + 1 rule fitted to the printed tables reproduces 68 of them within our LP band and the "
        "thesis's stated accuracy ((0.5, 0.05) to 0.12 pp)",
        "authors-code: the Geng n of data_independent.cpp (largest n with sum_{k<n} a b^k <= 1/2); the text "
        "(footnote 3, L891) only calls the rounding 'non-monotonic'; the "
        "fitted n + 1 rule is shown beside as "
        "`fitted` claims",
        item="^table01$",
        claim=_cells(1, _GENG_T1),
        section=_SEC_T1456,
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
        "work-error",
        "the printed O (back-solved from Table 4) lies outside [0.995 D, 1.005 P] of our certified bounds, "
        "which the thesis's stated gap < 1 % forbids: 28 cells of Table 4 (ours 0.75 pp lower to 3.2 pp "
        "higher) and the same 28 of Table 5 (where in 18 the Geng n differs as well)",
        f"{_O_TEST}, {_O_TEST_UP}, {_O_TEST_RUN}",
        item="^table0[45]$",
        claim=rf"{_cells(4, O_OUTSIDE)}|{_cells(5, O_OUTSIDE)}",
        finding="dp-noise-o-outside-stated-gap",
        section=_SEC_T1456,
    ),
    Cause(
        "underspecified",
        "the Geng bound's integer n: with the authors' C++ loop ours is 0.9-65 pp higher in 52 cells of "
        "Table 5; the fitted n + 1 rule reproduces all 52 within our LP band, "
        "the thesis's stated accuracy and its printed digits",
        "authors-code: the Geng n of data_independent.cpp (largest n with sum_{k<n} a b^k <= 1/2); the text "
        "(footnote 3, L891) does not define n; the fitted rule is shown beside as `fitted` claims",
        item="^table05$",
        claim=_cells(5, _GENG_T5),
        section=_SEC_T1456,
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
        "ruled out: the authors' published noise path, the OPT loss (l1/l2), the thesis's Monte-Carlo "
        "error from its shared seeds",
        f"{_SEC_T2} (the authors' NB.jl/sensitivities.jl noise path beside ours: adult GN 33.4 +- 0.4 vs "
        "ours 32.9 +- 0.4, thesis 38.82; OPT for l1/l2: adult 20.74/20.71, contraceptive 51.95/51.94; a GN "
        "noise 1.4x larger matches adult's GN (39.25) but no stated setting gives that factor)",
        item="^table02$",
        note=r"n=(\d+), num/cat/C = (\d+/\d+/\d+) \(thesis \1, \2\)",
        section=_SEC_T2,
    ),
    Cause(
        "substitute-data",
        "the mirror's version of the data set differs from the thesis's cleaned file (N or the numeric/"
        "categorical/class counts differ, stated in the note; e.g. Wisconsin features numeric here, "
        "categorical there)",
        "the authors' cleaned files are not in the offline mirror; ours are the UCI/ARFF versions "
        "(safeguarded.dp_learning.datasets), compared with the thesis's counts in the notebook",
        item="^table02$",
        note=r"mirror data",
        section=_SEC_T2,
    ),
    # -------------------------------------------------------- Table 3 (DP proximal coordinate descent)
    Cause(
        "unexplained",
        "data sets whose N and d match the thesis (abalone, adult, "
        "contraceptive, ecoli): 5 rows deviate, cause "
        "not found",
        f"{_SEC_T3} (N and d beside the thesis's)",
        item="^table03$",
        note=r"N=(\d+), d=(\d+) \(thesis \1, \2\)",
        section=_SEC_T3,
    ),
    Cause(
        "substitute-data",
        "the mirror's version of the data set differs from the thesis's (N or the number of features d after "
        "encoding differ, stated in the note)",
        "the authors' cleaned files are not in the offline mirror; ours are the UCI/ARFF versions "
        "(safeguarded.dp_learning.datasets), compared with the thesis's N and d in the notebook",
        item="^table03$",
        note=r"N=\d+, d=\d+ \(thesis",
        section=_SEC_T3,
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
                            f"L871: gap < 1 % puts O within 0.5 % of the optimum, i.e. this cell within "
                            f"+-{bound:.3g} pp, printed to +-{PRINTED_HALF_UNIT:g} pp",
                            item=f"^table0{table}$",
                            claim=_cells(table, ((e, d),)),
                        )
                    )
    return out


def _cell_accuracy(b_ub: float, t1: float, t4: float, t5: float) -> dict[int, tuple[float, float]]:
    """{table: (bound in pp, printed value)} for one cell: how far the printed Tables 1, 4 and 5 can be from
    their values at the optimum when |O - opt| <= 0.005 opt (L871); O back-solved from Table 4's ``t4``
    and the truncated Laplace ``b_ub``, at the end of the printed rounding that widens the bound (for Table 5
    the rounding of all three tables, which agree only to it: T1 = T4 + T5 +- 0.015)."""
    t4_low = t4 - 0.005
    o = b_ub - t4_low / 100 if b_ub - t4_low / 100 <= 1 else b_ub / (1 + t4_low / 100)
    opt = o / 0.995  # the largest optimum compatible with O
    below = {1: 0.0, 4: 0.5 * opt, 5: 0.5 * opt}
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
        else:
            bound = max(below[table], above[table])
        out[table] = (bound, printed)
    return out


ACCURACY = _table_accuracy()

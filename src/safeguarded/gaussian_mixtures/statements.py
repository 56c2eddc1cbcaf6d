"""The statement ledger of thesis §2 (Mixtures of Gaussians in approximate differential privacy).

It walks these line ranges of ``001_748385b54f8c598a.txt``:

* L1976-L1979: the introduction's summary of Section 1's numerical findings, which Figure 9 (caption L1979)
  illustrates; the section's only number outside its experiments;
* L2113-L2220: §2.4 "Numerical experiments" (Tables 7 and 8 and their summary statistics), §2.5 "The price
  of privacy in machine learning" (Table 9) and §2.6's conclusions;
* L2251, L2688-L2695, L2702 and L2737: the captions and text of Figures 10-13 (App. 2.A.9 and the figures in
  Apps. 2.A-2.B), whose statements the figures notebook checks;
* L2968-L2980: Table 10, which the conversion placed inside the proof of Theorem 6 (App. 2.B.5);
* L2984-L3119: App. 2.C "Omitted details in numerical experiments" (Tables 11-18), which §2.4 relies on
  ("Appendix 2.C.1 shows that the multi-Gaussian mechanism is near-optimal", L2167).

The proofs of Apps. 2.A-2.B state no numerical result beyond these figures.
"""

from __future__ import annotations

from safeguarded.statements import Ledger, Skip, Statement

SEED = "001_748385b54f8c598a.txt"

_GRID = (
    "computed by notebooks/gaussian_mixtures_grid_tables.ipynb ({what}) but not yet registered as a claim; "
    "registering needs its 1.5-2 h paper rerun, and that notebook is being changed by another session"
)
_PCD = (
    "computable from the per-split errors of notebooks/gaussian_mixtures_pcd_tables09_18.ipynb but not yet "
    "registered; registering needs its 64-min paper rerun, and that notebook is being changed by another "
    "session"
)
_UNAVAILABLE = (
    "the {name} data set is not available to us (dp_noise datasets.UNAVAILABLE: not in the data mirror), so "
    "its "
    "row is not run"
)
_TABLE12_COLOURS = (
    "; moreover the cell colours (blue: quasi-Gaussian, green: multi-Gaussian) that say which mechanism each "
    "value belongs to did not survive the conversion"
)

# the printed rows (after the delta label) of the tables we register line by line
_TABLE12 = {
    3015: "0.09%\t-0.01%\t-0.01%\t-0.05%\t-0.09%\t-0.38%",
    3016: "0.02%\t0.01%\t0.01%\t-0.04%\t-0.09%\t-0.43%",
    3017: "0.04%\t0.03%\t0.02%\t-0.03%\t-0.09%\t-0.26%",
    3018: "0.21 %\t$\\boldsymbol{0.20\\%}$\t0.19%\t0.10%\t0.02%\t-0.19%",
    3019: "$\\boldsymbol{0.42\\%}$\t0.41%\t0.40%\t0.30%\t0.21%\t-0.12%",
    3020: "-0.09%\t$\\boldsymbol{0.84\\%}$\t$\\boldsymbol{0.82\\%}$\t0.71%\t0.60%\t0.36%",
    3021: "17.33%\t17.07%\t16.75%\t14.28%\t12.79%\t11.66%",
    3022: "13.12%\t13.00%\t12.84%\t11.63%\t10.14%\t10.59%",
    3023: "16.65%\t16.58%\t16.49%\t15.75%\t14.83%\t8.17%",
    3024: "1.14%\t1.24%\t1.26%\t1.00%\t1.27%\t1.70%",
}
_TABLE16 = {
    3075: "4\t10\t10\t10\t9\t8 ★\t8 ★\t4 ★\t4 ★\t5",
    3076: "3\t1\t10\t9\t7\t8\t8\t9⋆\t9⋆\t5 ★",
    3077: "5\t2\t10\t8\t7\t8\t8\t9\t9\t5 ★",
    3078: "3\t10\t8\t6\t5\t8\t8\t9\t9\t5",
    3079: "4\t10\t7\t5\t4\t8\t9\t9\t9\t5",
    3080: "10\t8\t6\t4\t4\t8\t9\t9⋆\t9\t5",
    3081: "7\t5\t4\t3\t3\t8 ★\t9\t9\t9\t5",
    3082: "4 ★\t3∗\t2 ★\t2 ★\t2 ★\t1\t9\t9\t9\t5",
    3083: "3\t2\t2\t1\t1\t1\t9\t9\t9\t5",
    3084: "1 ∗\t1 ∗\t1 ★\t1 ★\t1\t1\t9\t9\t9\t5",
}
_TABLE17 = {
    3089: "0.01%\t-0.01%\t-0.01%\t-0.07%\t-0.14%\t-0.64%",
    3090: "0.05%\t0.03%\t0.02%\t-0.06%\t-0.14%\t-0.70%",
    3091: "0.10%\t0.08%\t0.06%\t-0.03%\t-0.12%\t-0.53%",
    3092: "0.49%\t0.47%\t0.45%\t0.31%\t0.18%\t-0.33%",
    3093: "0.99%\t0.97%\t0.95%\t0.78%\t$\\boldsymbol{0.62\\%}$\t-0.22%",
    3094: "-0.15%\t1.95%\t1.93%\t1.74%\t1.54%\t1.74%",
    3095: "41.91%\t41.53%\t41.06%\t37.29%\t32.64%\t31.23%",
    3096: "35.74%\t35.55%\t35.30%\t33.38%\t30.96%\t27.20%",
    3097: "40.69%\t40.58%\t40.44%\t$\\boldsymbol{39.32\\%}$\t37.91%\t$\\boldsymbol{26.97\\%}$",
    3098: "14.45%\t14.36%\t14.26%\t13.42%\t12.38%\t4.91%",
}
_SMALL_DELTAS = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.25)


def _rows(table: int, item: str, printed: dict[int, str], what: str, extra: str = "") -> list[Statement]:
    return [
        Statement(
            line,
            f"Table {table}, row delta = {delta:g}: {what}",
            item,
            not_run=_GRID.format(what=f"Table {table}") + extra,
            paper=value,
        )
        for (line, value), delta in zip(printed.items(), _SMALL_DELTAS, strict=True)
    ]


STATEMENTS = [
    # ---- introduction (Section 1's findings, Figure 9) ---------------------------------------------------
    Statement(
        1976,
        "Section 1's benchmarks' suboptimalities reach up to 700 % in low-privacy regimes",
        "fig09",
        not_run="a summary of the other work (thesis §1) that names neither the loss nor the gap formula; §1 "
        "itself states 'more than 850 %' at (5, 0.75) for the l2-loss with O in the denominator (L1936), a "
        "statement of dp_noise's ledger",
        paper="700%",
    ),
    Statement(
        1976,
        "optimal noise peaks at every Delta-length interval with a density ratio between peaks ~ e^eps",
        "fig09",
        kind="ratio",
        claims=r"peaks at every Delta with density ratio",
    ),
    # ---- §2.4.1: Table 7 -----------------------------------------------------------------------------------
    Statement(
        (2148, 2157),
        "Table 7: improvement of the quasi-Gaussian over the analytic Gaussian, l1, 10 x 10 grid",
        "table07",
        claims=r"^Table 7 at \(eps, delta\)",
    ),
    Statement(
        2161,
        "the quasi-Gaussian improves on the analytic Gaussian in 54 of 100 cells",
        "table07",
        claims=r"^QG: number of cells \(of 100\) improving on AG",
    ),
    Statement(
        2161,
        "quasi-Gaussian improvement: mean 12.42 % (sd 19.52), median 1.68 %",
        "table07",
        claims=r"^QG: (mean|sd|median) improvement",
    ),
    Statement(
        2161,
        "with max{1, a} in the denominator: mean 4.44 %, median 1.47 %",
        "table07",
        claims=r"^QG \(max\{1, a\} denominator\): (mean|median) improvement",
    ),
    Statement(
        2161,
        "with max{1, a} in the denominator: sd 8.30 of the quasi-Gaussian improvement",
        "table07",
        not_run=_GRID.format(
            what="the 100 Table 7 cells with the max{1, a} denominator, whose mean and median are registered"
        ),
        paper="8.30",
    ),
    # ---- §2.4.2: Table 8 -----------------------------------------------------------------------------------
    Statement(
        2165,
        "the multi-Gaussian (best K in 1..10, eta = 0.01) improves on the analytic Gaussian in 90 of 100 "
        "cells",
        "table08",
        claims=r"^MG: number of cells \(of 100\) improving on AG",
    ),
    Statement(
        2165,
        "multi-Gaussian improvement: mean 47.88 % (sd 36.81), median 51.48 %",
        "table08",
        claims=r"^MG: (mean|sd|median) improvement",
    ),
    Statement(
        2165,
        "with max{1, a} in the denominator: mean 28.36 %, median 27.63 %",
        "table08",
        claims=r"^MG \(max\{1, a\} denominator\): (mean|median) improvement",
    ),
    Statement(
        2165,
        "with max{1, a} in the denominator: sd 21.77 of the multi-Gaussian improvement",
        "table08",
        not_run=_GRID.format(
            what="the 100 Table 8 cells with the max{1, a} denominator, whose mean and median are registered"
        ),
        paper="21.77",
    ),
    Statement(
        (2170, 2179),
        "Table 8: improvement of the multi-Gaussian over the analytic Gaussian, l1, 10 x 10 grid",
        "table08",
        claims=r"^Table 8 at \(eps, delta\)",
    ),
    Statement(
        2183,
        "in high privacy (e.g. (1e-4, 1e-4)-DP) the quasi-Gaussian may beat both the analytic Gaussian "
        "and the multi-Gaussian",
        "table12",
        kind="ordering",
        claims=r"QG beats MG for all K",
    ),
    # ---- §2.5: Table 9 -------------------------------------------------------------------------------------
    Statement(
        2193,
        "at (1, 1e-3) the multi-Gaussian's best K is 9",
        "table11",
        claims=r"^best K at \(eps, delta\) = \(1, 0\.001\)$",
    ),
    Statement(
        2193,
        "at (1, 1e-3) the multi-Gaussian significantly outperforms the analytic Gaussian",
        "table08",
        kind="ordering",
        claims=r"^Table 8 at \(eps, delta\) = \(1, 0\.001\)",
    ),
    Statement(
        2193,
        "at (1, 1e-3) the multi-Gaussian is near-optimal",
        "table10",
        claims=r"^share of AG's gap closed by MG at \(1, 0\.001\)",
    ),
    Statement(
        2193,
        "at (1, 1e-3) the quasi-Gaussian is close to and slightly worse than the analytic Gaussian",
        "table07",
        kind="ordering",
        claims=r"^Table 7 at \(eps, delta\) = \(1, 0\.001\)",
    ),
    Statement(
        2193,
        "the multi-Gaussian classifier has the best errors in 11 of 14 cases",
        "table09",
        kind="ordering",
        claims=r"^M-G has the lowest in-sample error on 11 of 14",
    ),
    Statement(
        2193,
        "the quasi-Gaussian classifier has the smallest errors in 3 of 14 cases",
        "table09",
        kind="ordering",
        claims=r"^Q-G has the lowest in-sample error on 3 of 14",
    ),
    Statement(
        2193,
        "the second-best mechanism alternates between the quasi-Gaussian and the analytic Gaussian",
        "table09",
        kind="ordering",
        not_run=_PCD,
        paper="second-best approach alternates",
    ),
    Statement(
        2193,
        "the 3 cases where the quasi-Gaussian wins are degenerate (PCD worse than its DP counterparts, "
        "or in-sample errors better than out-of-sample)",
        "table09",
        kind="ordering",
        not_run=_PCD + "; two of the thesis's data sets (absent, colon-cancer) are not available to us",
        paper="3 out of 14",
    ),
    Statement(
        (2201, 2212),
        "Table 9: in- and out-of-sample errors (A-G, Q-G, M-G, PCD) of 12 data sets",
        "table09",
        claims=r"^\S+ (in-sample|out-of-sample) (A-G|Q-G|M-G|PCD) error \(%\)$",
    ),
    Statement(
        (2201, 2212),
        "Table 9: the multi-Gaussian against the analytic Gaussian per data set (printed: M-G below A-G in "
        "10 of "
        "the 12 rows we run; adult ties, bank has M-G 0.01 pp above A-G in and out of sample)",
        "table09",
        kind="ordering",
        claims=r"(in-sample|out-of-sample): M-G error [<=>] A-G error$",
    ),
    Statement(2213, "Table 9: the absent data set's row", "table09", claims=r"^absent row reproduced"),
    Statement(
        2214, "Table 9: the colon-cancer data set's row", "table09", claims=r"^colon-cancer row reproduced"
    ),
    # ---- Figures 11 and 12 (App. 2.A.9) --------------------------------------------------------------------
    Statement(
        2690,
        "at (1, 0.1), h1 + h2 increases on (0, sqrt(2(eps - log delta)) Delta/eps), is nonnegative beyond "
        "and "
        "hits 0 at sigma_1",
        "fig11",
        kind="ordering",
        claims=r"^h1\+h2 is increasing on .* at \(1, 0\.1\), crossing 0 once",
    ),
    Statement(
        2690,
        "at (1, 0.25), e^eps + 2 >= 1/delta and h1 + h2 is nonnegative, so sigma_1 = 0",
        "fig11",
        claims=r"^h1\+h2 >= 0 for every sigma at \(1, 0\.25\)",
    ),
    Statement(
        2695,
        "Lemma 21: at sigma = 0.2 the maximiser lies in (0, x1) and the minimiser in (Delta/2, x2)",
        "fig12",
        claims=r"^at sigma = 0\.2 the minimiser is interior",
    ),
    Statement(
        2695,
        "f_q(x_max)/f_q(x_min) - e^eps decreases in sigma (Lemma 22)",
        "fig12",
        kind="ordering",
        claims=r"is decreasing in sigma \(Lemma 22\)",
    ),
    # ---- Table 10 and App. 2.C.1 ---------------------------------------------------------------------------
    Statement(
        (2969, 2978),
        "Table 10: share of the analytic Gaussian's optimality gap closed by the multi-Gaussian, "
        "l1, 10 x 10 grid",
        "table10",
        claims=r"^share of AG's gap closed by MG at \(",
    ),
    Statement(
        2988,
        "the Section 1 upper and lower bounds agree to a tolerance of 1e-3",
        "table10",
        claims=r"^LP bounds agree before o is taken",
    ),
    Statement(
        2988,
        "share of the optimality gap closed: mean 67.67 % (sd 34.78), median 85.47 %",
        "table10",
        claims=r"^share of AG's optimality gap closed by MG over the grid: (mean|sd|median)",
    ),
    Statement(
        2988,
        "the multi-Gaussian is closer to the lower bounds in low-privacy regimes",
        "table10",
        kind="ordering",
        claims=r"^MG is closer to the LP lower bound in low-privacy regimes",
    ),
    # ---- App. 2.C.2: Tables 11 and 12 ----------------------------------------------------------------------
    Statement(
        (2991, 3000),
        "Table 11: the best K in 1..10 for the l1-loss, 10 x 10 grid",
        "table11",
        claims=r"^best K at \(eps, delta\)",
    ),
    Statement(
        (2991, 3000),
        "Table 11's stars: the cells where the quasi-Gaussian beats the multi-Gaussian with K = 1",
        "table11",
        kind="ordering",
        not_run=_GRID.format(
            what="the star of each cell, column best_k_label of figures/gaussian_mixtures/table11.csv"
        )
        + "; the 'best K at' rows compare the K only",
        paper="★",
    ),
    Statement(
        3006,
        "every K in 1..10 is the best K in some cell of Table 11",
        "table11",
        not_run=_GRID.format(
            what="the best K of the 100 cells, each a 'best K at' row; no row states the set of K chosen"
        ),
        paper="all values within the grid are being chosen",
    ),
    Statement(
        (3008, 3024),
        "for smaller eps and delta the quasi-Gaussian beats the multi-Gaussian for all K "
        "(Table 12's revised grid)",
        "table12",
        kind="ordering",
        claims=r"QG beats MG for all K",
    ),
    *_rows(
        12,
        "table12",
        _TABLE12,
        "improvement over the analytic Gaussian, l1, eps in {1e-4, 5e-4, 1e-3, 5e-3, 1e-2, 5e-2}",
        _TABLE12_COLOURS,
    ),
    # ---- App. 2.C.3: Tables 13-18 --------------------------------------------------------------------------
    Statement(
        (3029, 3038),
        "Table 13: improvement of the quasi-Gaussian over the analytic Gaussian, l2, 10 x 10 grid",
        "table13",
        claims=r"^Table 13 at \(eps, delta\)",
    ),
    Statement(
        (3047, 3056),
        "Table 14: improvement of the multi-Gaussian over the analytic Gaussian, l2, 10 x 10 grid",
        "table14",
        claims=r"^Table 14 at \(eps, delta\)",
    ),
    Statement(
        (3061, 3070),
        "Table 15: share of the analytic Gaussian's optimality gap closed by the multi-Gaussian, "
        "l2, 10 x 10 grid",
        "table15",
        claims=r"^share of AG's gap closed by MG at \(",
    ),
    *_rows(
        16,
        "table16",
        _TABLE16,
        "the best K in 1..10 for the l2-loss (star: the quasi-Gaussian beats the multi-Gaussian with K = 1)",
    ),
    *_rows(
        17,
        "table17",
        _TABLE17,
        "improvement over the analytic Gaussian, l2, eps in {1e-4, 5e-4, 1e-3, 5e-3, 1e-2, 5e-2}",
        _TABLE12_COLOURS,
    ),
    Statement(
        (3104, 3115),
        "Table 18: standard deviations of the in- and out-of-sample errors (A-G, Q-G, M-G, PCD) "
        "of 12 data sets",
        "table18",
        claims=r"^\S+ (in-sample|out-of-sample) (A-G|Q-G|M-G|PCD) standard deviation",
    ),
    Statement(
        3116,
        "Table 18: the absent data set's standard deviations",
        "table18",
        not_run=_UNAVAILABLE.format(name="absent"),
        paper="2.57%\t2.59%\t2.49%\t2.54%\t4.14%\t4.15%\t3.97%\t3.95%",
    ),
    Statement(
        3117,
        "Table 18: the colon-cancer data set's standard deviations",
        "table18",
        not_run=_UNAVAILABLE.format(name="colon-cancer"),
        paper="4.50%\t4.58%\t4.69%\t0.09%\t12.93%\t13.39%\t11.04%\t11.88%",
    ),
]

SKIPS = [
    Skip(1976, "citation year (Selvi et al. 2025)"),
    Skip(1979, "Figure 9's caption: the privacy setting (1, 0.1), recorded in the fig09 rows"),
    Skip(2113, "section heading 2.4"),
    Skip(2115, "cross-references (Algorithms 4 and 6, sections 2.2 and 2.3)"),
    Skip(
        (2118, 2139),
        "Algorithm 7 (its steps, equation (29), the grid step beta) and the choice Delta = 1: the "
        "method, implemented in gaussian_mixtures.multi_gaussian",
    ),
    Skip(
        2141,
        "software, hardware and wall-clock limits (Julia, Xeon 2.66 GHz, 16 GB, 1-hour and 24-hour limits): "
        "the setting of runs whose times the thesis does not report",
    ),
    Skip(2143, "section heading 2.4.1"),
    Skip(
        2145,
        "equation number (25), a table reference and the improvement formula 100 % (q - a)/a (implemented in "
        "gaussian_mixtures.grid.improvement)",
    ),
    Skip(2147, "column header of Table 7: the eps grid"),
    Skip(2159, "Table 7's caption; the colours did not survive the conversion"),
    Skip(2161, "the improvement formula with max{1, a}"),
    Skip(2163, "section heading 2.4.2"),
    Skip(
        2165,
        "the construction (K = 0 a Gaussian, 2K + 1 Gaussians), the settings K in {1, ..., 10} and eta = "
        "0.01 "
        "(the grid notebook's runs) and the improvement formulas",
    ),
    Skip(2167, "cross-reference to Appendix 2.C.1 (its statement is at L2988)"),
    Skip(2169, "column header of Table 8: the eps grid"),
    Skip(2181, "Table 8's caption; the colours did not survive the conversion"),
    Skip(2183, "cross-reference to Appendix 2.C.2"),
    Skip(2185, "section heading 2.5"),
    Skip(2187, "citation (Selvi et al. 2025, §5.3)"),
    Skip(
        2189,
        "settings: T = 100, P = ceil(d/4), lambda = 1e-8 (recorded in the table09 rows' runs); citation "
        "years",
    ),
    Skip(
        2191,
        "settings: sensitivity 2 (asserted in "
        "tests/test_dp_learning.py::test_gradient_sum_sensitivity_is_two), "
        "(eps, delta) = (1, 1e-3); citation years",
    ),
    Skip(
        2193,
        "settings: 500 splits 80/20 %, 13 UCI data sets and colon-cancer (recorded in the table09 rows' "
        "runs); "
        "licences and citation years",
    ),
    Skip(2195, "section heading 2.6"),
    Skip((2199, 2200), "Table 9's header"),
    Skip(
        (2201, 2214),
        "columns N and d: the data sets' dimensions, which describe the data; ours are asserted in "
        "tests/test_dp_learning.py (EXPECTED_SHAPES)",
    ),
    Skip(2216, "Table 9's caption; the bold and italic marks did not survive the conversion"),
    Skip(2220, "citation year; future work"),
    Skip(
        2251,
        "Figure 10's caption: the density's settings (eps = 1, sigma in {0.25, 1}), drawn from the formula "
        "in "
        "notebooks/gaussian_mixtures_figs09_13.ipynb",
    ),
    Skip(2688, "section heading 2.A.9"),
    Skip(
        2690,
        "Figure 11's settings (Delta = 1, (1, 0.1) and (1, 0.25)), equation and lemma numbers (the bracket "
        "of "
        "Lemma 20 is part of the statement at L2690)",
    ),
    Skip(2693, "Figure 11's caption: its settings"),
    Skip(2695, "Figure 12's settings (Delta = 1, eps = 1, sigma = 0.2) and lemma numbers"),
    Skip(2702, "Figure 12's caption: its settings and equation number"),
    Skip(
        2737,
        "Figure 13's caption: the density's settings (eps = 1, sigma = 0.25, K in {1, 3}), drawn from the "
        "formula in notebooks/gaussian_mixtures_figs09_13.ipynb",
    ),
    Skip(2968, "column header of Table 10: the eps grid"),
    Skip(2980, "Table 10's caption"),
    Skip(2984, "section heading 2.C"),
    Skip(2986, "section heading 2.C.1"),
    Skip(
        2988,
        "citation year and the gap formulas 100 % (a - o)/o and 100 % (a - m)/(a - o) (implemented in "
        "gaussian_mixtures.optimum)",
    ),
    Skip(2990, "column header of Table 11: the eps grid"),
    Skip(3002, "Table 11's caption: K in [10] and the star's meaning (K = 1)"),
    Skip(3004, "section heading 2.C.2"),
    Skip(3006, "K in {1, ..., 10}, 100 combinations, K = 1: the grid's settings"),
    Skip(
        3008,
        "section numbers and the revised eps grid of Table 12. Note: the text lists its last value as 0.005 "
        "(a repeat), the table's header (L3014) as 0.05",
    ),
    Skip(3010, "section heading 2.C.3"),
    Skip(
        3012,
        "cross-references: Tables 13-17 are the l2 counterparts of Tables 7, 8, 10, 11 and 12 (Table 9 has "
        "none), Table 18 the standard deviations of Table 9",
    ),
    Skip(3014, "column header of Table 12: the revised eps grid"),
    Skip(3026, "Table 12's caption; the colours did not survive the conversion"),
    Skip(3028, "column header of Table 13: the eps grid"),
    Skip(3040, "Table 13's caption"),
    Skip(3042, "section heading 2.C.4"),
    Skip(3046, "column header of Table 14: the eps grid"),
    Skip(3058, "Table 14's caption"),
    Skip(3060, "column header of Table 15: the eps grid"),
    Skip(3072, "Table 15's caption"),
    Skip(3074, "column header of Table 16: the eps grid"),
    Skip(3086, "Table 16's caption: K in [10] and the star's meaning (K = 1)"),
    Skip(3088, "column header of Table 17: the revised eps grid"),
    Skip(3100, "Table 17's caption"),
    Skip(3102, "Table 18's header (a '1' from the conversion)"),
    Skip(
        (3104, 3117),
        "columns N and d: the data sets' dimensions; ours are asserted in tests/test_dp_learning.py "
        "(EXPECTED_SHAPES)",
    ),
    Skip(3119, "Table 18's caption"),
]

LEDGER = Ledger(
    seed=SEED,
    sections=(
        (1976, 1979),
        (2113, 2220),
        (2251, 2251),
        (2688, 2695),
        (2702, 2702),
        (2737, 2737),
        (2968, 2980),
        (2984, 3119),
    ),
    statements=STATEMENTS,
    skips=SKIPS,
)

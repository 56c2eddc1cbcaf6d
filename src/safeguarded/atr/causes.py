"""Why atr's printed numbers deviate: the causes of its claims (protocol v2, ``docs/claims.md``).

Read by :mod:`safeguarded.judging` when ``make claims`` merges the notebooks' rows; the first matching
rule wins.
"""

from safeguarded.judging import Cause, Finding

_TABLES = "notebooks/atr_tables_1_2_4.ipynb"
_MARY_TEST = "tests/test_claims_causes.py::test_atr_mary_printed_values_follow_from_the_rate_0_01333"

FINDINGS = [
    Finding(
        id="atr-theorem1",
        title="Theorem 1 as printed misses the Lemma-5 floor (erratum)",
        text=(
            "Theorem 1's closed form for the optimal privacy level of a group can lie below the group's "
            "floor beta_min of Lemma 5; the printed value is then infeasible (no fidelity-respecting "
            "announcement reaches it). On the paper's own example (female group, delta = 0.5) the printed "
            "formula gives 0.48 while the LP optimum, and Lemma 5's witness D~ = 1/2, give 0.6; on random "
            "groups the printed value is below the LP optimum in more than 100 cases, always at beta_min. "
            "Algorithm 1 with the floor (max of the printed value and beta_min) agrees with LP bisection."
        ),
        evidence=(
            "tests/test_atr.py::test_erratum_counterexample_female_delta_05, "
            "tests/test_atr.py::test_printed_theorem1_misses_the_lemma5_floor, "
            f"{_TABLES}#erratum-theorem-1-as-printed-misses-the-lemma-5-floor"
        ),
        size="0.48 printed vs 0.6 optimal on the paper's example",
        claims=("table04",),
    ),
    Finding(
        id="atr-mary",
        title="§3.3: Mary's clipped rule d12 is not divided by the rate it is defined with",
        text=(
            "After clipping d13 = 1, §3.3's formula gives d12 = (0.0133 - 0.012)/0.057 = 0.0228 (0.0234 "
            "with the exact rate 2/150, 0.0233 with the 0.01333 behind its unclipped d12, d13); the paper "
            "prints 0.0013, the numerator alone (0.01333 - 0.012). The conclusion (the rules are recovered, "
            "about 0 and 1) is unaffected."
        ),
        evidence=(
            f"{_TABLES}#33-mary-inverts-the-fairness-report (claim 'Mary's d12 after clipping d13 = 1'); "
            f"{_MARY_TEST}"
        ),
        size="0.0013 printed vs 0.0228",
    ),
]

CAUSES = [
    Cause(
        "work-error",
        "§3.3 prints the numerator of Mary's clipped d12 (0.0013) instead of the ratio (0.0228)",
        f"{_TABLES}#33-mary-inverts-the-fairness-report, {_MARY_TEST}",
        item="Sec. 3.3",
        claim="after clipping",
        finding="atr-mary",
        tried=(
            "the ratio of §3.3's formula with each reading of the female rate: 0.0228 (0.0133 as printed in "
            "(1)), 0.0234 (2/150), 0.0233 (0.01333): none is the printed 0.0013; the numerator alone, "
            "0.01333 - 0.012 = 0.0013, is (" + _MARY_TEST + ")",
        ),
    ),
    Cause(
        "underspecified",
        "§3.3's d12, d13 (0.0088, 1.0692) are what its 2x2 system (determinant 5.2e-4) gives with the female "
        "approval rate 0.01333 (2/150 to four significant figures: 0.00877, 1.06919); with the 0.0133 "
        "printed in (1), which ours uses, 0.0067 and 1.0763, with 2/150 exactly 0.0090 and 1.0684, with "
        "0.013333 0.0090 and 1.0685 (found by trying these roundings after seeing the printed values)",
        "text: (1) and Table 2 print the rate as 0.0133 and 1.33 %, which ours uses; the rate behind the "
        f"printed d12, d13 is not stated ({_MARY_TEST})",
        item="Sec. 3.3",
        claim="as printed",
        tried=(
            "the female approval rate in §3.3's 2x2 system, one reading at a time: 0.0133 (printed in (1), "
            "ours) gives 0.0067 / 1.0763, 2/150 exactly 0.0090 / 1.0684, 0.013333 0.0090 / 1.0685, 0.01333 "
            "0.00877 / 1.06919: only 0.01333 reproduces both printed values (2 of 2), a reading found after "
            "seeing them (" + _MARY_TEST + ")",
        ),
    ),
    Cause(
        "underspecified",
        "the paper truncates where it could round (13/150 = 0.08667 printed 0.0866)",
        "text: the rounding rule of the printed values is not stated",
        item="table02",
        tried=(
            "rounding instead of truncation: 13/150 = 0.08667 rounds to 0.0867, not the printed 0.0866; "
            "truncation gives it (the notebook's Table 2 rows)",
        ),
    ),
    Cause(
        "underspecified",
        "the attack's classifier is a substitute (L2 logistic regression) for the paper's 147-85 network, "
        "whose training is not specified; accuracy 86.8 vs 89.5 %, QII values follow the model",
        "ours: L2 logistic regression with 5-fold stratified CV; "
        "App. B does not state the network's training",
        item="App. B",
        note="substitute classifier",
    ),
    Cause(
        "unexplained",
        "P(U_A9 = f): the complete data give 304/653 = 0.4655; the paper's 158/350 = 0.4514 has no "
        "identified source",
        "notebooks/atr_credit_tables_5_6.ipynb#paper-vs-ours",
        item="App. B",
        claim="P\\(U_A9 = f\\)",
        tried=(
            "the complete data (653 rows): 304/653 = 0.4655; the attack's draws W1 (the notebook's run): "
            "0.4910; neither is the printed 158/350 = 0.4514, and no subset of 350 rows is named "
            "(notebooks/atr_credit_tables_5_6.ipynb#paper-vs-ours)",
        ),
    ),
]

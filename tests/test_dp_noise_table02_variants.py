"""The Table 2 deviation experiments (:func:`safeguarded.dp_noise.learning.nb_variant_errors`).

They back the causes of ``safeguarded.dp_noise.causes`` for Table 2: the features' scale moves every column
of abalone and spambase (the repo's sd floor of 1 and its rounded-up sensitivities), and the OPT loss
(l1 of the text vs l2 of the supplement) does not move OPT at (1, 0.1).
"""

import pytest

from safeguarded.dp_noise.learning import nb_variant_errors


def test_feature_scale_moves_abalone_and_spambase(data_mirror):
    """With the UCI files' scale the sd floor of 1 (NB.jl) binds: the non-private NB of abalone and
    spambase is several points worse than on the same data rescaled, where the floor is inactive, and
    abalone's noisy columns move with the scale too."""
    aba1 = nb_variant_errors("abalone", scale=1.0, methods=("NB", "TLN"), splits=3, n_sims=20)
    aba200 = nb_variant_errors("abalone", scale=200.0, methods=("NB", "TLN"), splits=3, n_sims=20)
    assert aba1["NB"][0] - aba200["NB"][0] > 1.5
    assert aba1["TLN"][0] - aba200["TLN"][0] > 5.0
    spam1 = nb_variant_errors("spambase", scale=1.0, methods=("NB",), splits=3, n_sims=1)
    spam10 = nb_variant_errors("spambase", scale=10.0, methods=("NB",), splits=3, n_sims=1)
    assert spam1["NB"][0] - spam10["NB"][0] > 5.0
    # ecoli (the thesis-matched copy, 5/2/2): its [0, 1] features leave the non-private NB near the majority
    # rate under the floor (printed 3.97 %), rescaled it falls to the printed level
    eco1 = nb_variant_errors("ecoli", scale=1.0, methods=("NB",), splits=3, n_sims=1, loading="matched")
    eco10 = nb_variant_errors("ecoli", scale=10.0, methods=("NB",), splits=3, n_sims=1, loading="matched")
    assert eco1["NB"][0] > 30.0 and eco10["NB"][0] < 6.0


def test_opt_loss_does_not_move_opt(data_mirror):
    """OPT for l1 (L940) and for l2 (supp. p.9) give the same errors on contraceptive within 0.3 pp, so the
    loss is not why OPT deviates."""
    l1 = nb_variant_errors("contraceptive", opt_loss="l1", methods=("OPT",), splits=3, n_sims=50, opt_k=20)
    l2 = nb_variant_errors("contraceptive", opt_loss="l2", methods=("OPT",), splits=3, n_sims=50, opt_k=20)
    assert abs(l1["OPT"][0] - l2["OPT"][0]) < 0.3
    assert abs(l1["OPT"][1] - l2["OPT"][1]) < 0.3


@pytest.mark.parametrize(
    "kwargs",
    [{"methods": ("NB", "(OPT)")}, {"methods": "NB"}, {"scale": 0.0}, {"noise_factor": -1.0},
     {"opt_loss": "l3"}, {"splits": 1}],
)  # fmt: skip
def test_nb_variant_errors_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        nb_variant_errors("abalone", **kwargs)


def _table02_claims():
    import pandas as pd

    from safeguarded.paths import REPO_ROOT

    table = pd.read_csv(REPO_ROOT / "figures" / "dp_noise" / "claims" / "dp_noise_table02.csv", dtype=str)
    return table.set_index("claim")


def test_shared_seeds_cover_adult_gn_and_opt_not_tln(data_mirror):
    """main.jl reuses the seeds 1..1,000 in every split: the thesis's adult means average ~2,700 independent
    draws (``authors_noise_streams``), so they carry a Monte-Carlo error sd/sqrt(1,000 m) with sd the spread
    of a draw shared by the splits (``shared_draw_spread``).  Added to our standard error, that band holds
    the printed (GN) and OPT of adult and not TLN (the causes registry rests on exactly this split)."""
    import numpy as np

    from safeguarded.dp_noise.learning import authors_noise_streams, shared_draw_spread

    m = authors_noise_streams("adult")
    assert 2.0 < m < 4.0  # the splits' key counts take two or three common values, never 100 distinct ones
    spread = shared_draw_spread("adult", methods=("(GN)", "TLN", "OPT"), splits=3, n_sims=500)
    claims = _table02_claims()
    inside = {}
    for method, sds in spread.items():
        for part, sd in zip(("in-sample", "out-of-sample"), sds, strict=True):
            row = claims.loc[f"adult {part} {method} error (%)"]
            se_ours = (float(row["tolerance"]) - 0.005) / 2  # k = 2 standard errors + half a printed unit
            band = 2 * np.hypot(se_ours, sd / np.sqrt(1000 * m)) + 0.005
            inside[method, part] = abs(float(row["paper_value"]) - float(row["reproduced_value"])) <= band
    assert all(inside[m, p] for m in ("(GN)", "OPT") for p in ("in-sample", "out-of-sample")), inside
    assert not any(inside["TLN", p] for p in ("in-sample", "out-of-sample")), inside


def test_gn_sigma_factor_hypotheses_on_contraceptive(data_mirror):
    """The printed GN of contraceptive (the data match the thesis) needs a GN-only noise factor between 1 and
    √2: with the band of the shared-seeds test (our 2 standard errors and the thesis's Monte-Carlo error from
    its one shared noise stream, m = 1.04), GN at factor 1 is below the printed values, at √2 (an ℓ2
    sensitivity √2 of replace-one count vectors) above them, and at δ split over the d = 9 features
    (σ × 1.367) inside.  No stated rule gives such a factor; the notebook's Paper vs. ours lists these."""
    import numpy as np

    from safeguarded.dp_noise.learning import authors_noise_streams, shared_draw_spread

    claims = _table02_claims()
    printed = np.array(
        [
            float(claims.loc[f"contraceptive {p} GN error (%)", "paper_value"])
            for p in ("in-sample", "out-of-sample")
        ]
    )
    m = authors_noise_streams("contraceptive")
    delta_over_d = np.sqrt(np.log(1.25 * 9 / 0.1) / np.log(1.25 / 0.1))
    position = {}
    for name, factor in (("x1", 1.0), ("delta/d", delta_over_d), ("sqrt2", np.sqrt(2.0))):
        runs = nb_variant_errors("contraceptive", noise_factor=factor, methods=("GN",), splits=40, n_sims=500)
        r = runs["GN"]
        sd = np.array(shared_draw_spread("contraceptive", methods=("GN",), splits=40, n_sims=1000,
                                         noise_factor=factor)["GN"])  # fmt: skip
        band = 2 * np.hypot(np.array([r[2], r[5]]), sd / np.sqrt(1000 * m)) + 0.005
        diff = np.array(r[:2]) - printed
        position[name] = np.where(diff > band, "above", np.where(diff < -band, "below", "inside")).tolist()
    assert position == {
        "x1": ["below", "below"],
        "delta/d": ["inside", "inside"],
        "sqrt2": ["above", "above"],
    }, position


def test_dermatology_printed_pattern_is_nb_jl_with_ages_as_categories(data_mirror):
    """Table 2's dermatology row prints in-sample NB 0.49 % but out-of-sample 35.25 % (every method about
    35 %). Naive Bayes with the ages read as categories and the authors' NB.jl rule for a level that no
    training row of a class has (the lookup throws, the class scores log 0) gives that pattern: a test row
    whose age its class never had in training cannot get its class.  Either factor alone does not: our
    floored counts with the same categories, or the rule on the thesis-matched copy (Age numeric), stay far
    below 35 % out of sample; so the check fails if the printed pattern came from naive Bayes on the data
    the thesis's table describes (finding dp-noise-table2-dermatology-unseen-levels)."""
    both = nb_variant_errors("dermatology", methods=("NB",), splits=10, n_sims=1, loading="age-category",
                             unseen="exclude")["NB"]
    assert both[0] < 1.5 and both[1] > 30.0  # printed 0.49 / 35.25
    ages_only = nb_variant_errors("dermatology", methods=("NB",), splits=10, n_sims=1,
                                  loading="age-category")["NB"]
    rule_only = nb_variant_errors("dermatology", methods=("NB",), splits=10, n_sims=1, loading="matched",
                                  unseen="exclude")["NB"]
    matched = nb_variant_errors("dermatology", methods=("NB",), splits=10, n_sims=1, loading="matched")["NB"]
    assert ages_only[1] < 10.0 and rule_only[1] < 20.0 and matched[1] < 5.0

"""The cause registries of the works (claims protocol v2) and the checks their work-errors and findings name.

Each work's tests live in their own functions (several registries are written at the same time).
"""

from __future__ import annotations

import numpy as np
import pytest

from safeguarded import judging
from safeguarded.paths import REPO_ROOT, WORKS

# --------------------------------------------------------------------------------------------------
# wasserstein_mixed and robust_lr_aux (thesis §3-§4)

_S34 = ("wasserstein_mixed", "robust_lr_aux")


def test_s34_registry_rules_match_the_rows_they_are_meant_for():
    """Each rule is reached by the rows it was written for, and the first-match order does not shadow one."""
    import pandas as pd

    cases = {
        "wasserstein_mixed": [
            ("fig14", "mean |c| of the extra atom, eps = 0.85", "underspecified"),
            ("table20", "suboptimality of piece[25] exceeds 0.1% on some instance", "scale"),
            ("table24", "fire half Nom", "underspecified"),
            ("table25", "imports full r-MixF(K)", "underspecified"),
            ("table21", "primary-tumor full r-MixF(K)", "scale"),
            ("table22", "credit-approval full MixF(K)", "unexplained"),
            ("table23", "cylinder-bands half MixF(K)", "unexplained"),
            ("table23", "cylinder-bands half ConF(K)", "scale"),
            ("table23", "lymphography half MixF(K)", "scale"),
            ("table23", "spect full r-Nom", "scale"),
        ],
        "robust_lr_aux": [
            ("table30", "ecoli, alpha=0.2: ARO error (%)", "work-error"),  # the rows its test checks
            ("table27", "ecoli, alpha=0.05: ERM error (%)", "work-error"),
            ("table30", "ecoli, alpha=0.2: ERM error (%)", "unexplained"),  # not checked by that test
            ("table30", "ecoli, alpha=0.05: DRO+ARO+Aux std. dev. of the error (%)", "unexplained"),
            ("table30", "ecoli, alpha=0.2: ARO+Aux error (%)", "work-error"),  # the cross-validated check
            ("table30", "ecoli, alpha=0.05: ERM std. dev. of the error (%)", "work-error"),
            ("table30", "ecoli, alpha=0.05: ARO std. dev. of the error (%)", "unexplained"),
            ("table27", "reversed split, ecoli, alpha = 0.05: ARO+Aux error (%)", "work-error"),
            ("table27", "reversed split, ecoli, alpha = 0.05: ARO error (%)", "work-error"),
            ("table27", "reversed split, ecoli, alpha = 0.05: DRO+ARO+Aux error (%)", "unexplained"),
            ("table31", "spect, alpha=0.0: DRO+ARO error (%)", "substitute-data"),
            ("table28", "l2: ARO error (%)", "substitute-data"),
            ("table29", "spect: N_hat", "substitute-data"),
            ("table29", "breast-cancer: n", "underspecified"),
            ("table33", "alpha=0.5: mean cross-validated eps/eps_hat", "scale"),
        ],
    }
    for work, rows in cases.items():
        causes, _, _ = judging.registry(work)
        for item, claim, expected in rows:
            row = pd.Series({"item": item, "claim": claim, "note": ""})
            hit = judging._attribute(row, causes)
            assert hit is not None and hit.cause == expected, (work, item, claim, hit)
    # a row no rule was written for stays without a cause (make claims then refuses it)
    causes, _, _ = judging.registry("robust_lr_aux")
    row = pd.Series({"item": "table31", "claim": "ecoli, alpha=0.0: ERM error (%)", "note": ""})
    assert judging._attribute(row, causes) is None


def test_s34_every_printed_deviation_has_a_valid_cause():
    from safeguarded import claims

    # the repository's committed claims (the tests' FIGURES is an empty temporary folder)
    table = judging.judge(claims.collect(REPO_ROOT / "figures"))
    table = table[table["work"].isin(_S34)]
    assert len(table) > 900  # both works' fragments were read
    assert judging.validate_causes(table) == []


def test_wasserstein_mixed_student_half_rows_are_identical():
    """Finding 'student-rows-copied': L3578 (Table 25) and L3589 (Table 26) print the same eight half-size
    errors for student with two different losses, while the full-size errors differ. Were the tables
    right, at least one of the eight half-size cells would differ and this test would fail."""
    from safeguarded.wasserstein_mixed.thesis_values import TABLES

    t25, t26 = TABLES[25]["student"], TABLES[26]["student"]
    half25, half26 = [c[2] for c in t25], [c[2] for c in t26]
    full25, full26 = [c[0] for c in t25], [c[0] for c in t26]
    assert len(half25) == 8 and half25 == half26
    assert sum(a != b for a, b in zip(full25, full26, strict=True)) == 7
    text = REPO_ROOT.parent / "shared" / "seeds" / "001_748385b54f8c598a.txt"
    if text.is_file():  # the stored values are the thesis's lines
        lines = text.read_text().splitlines()
        for line_no, cells in ((3578, t25), (3589, t26)):
            assert lines[line_no - 1].startswith("student") and all(c[2] in lines[line_no - 1] for c in cells)


def test_wasserstein_mixed_fig14_extra_atom_is_outside_the_bounded_support():
    """Finding 'fig14-bounded-unbounded': the extra atom (±c, ±1) of L3402 has |c| >= 1.5, outside
    conv({-1, +1}) = [-1, 1], the support of the bounded model (L3421-3425); the unbounded model places it."""
    from safeguarded.wasserstein_mixed import worst_case as W

    rng = np.random.default_rng(3)
    found = []
    for _ in range(60):
        z, y = W.stylised_sample(rng)
        _, atoms = W.unbounded_worst_case(z, y, 0.85)
        extra = atoms[(atoms[:, 2] > 1e-9) & ~np.isin(atoms[:, 0], (-1.0, 1.0))]
        found += list(np.abs(extra[:, 0]))
        assert extra[:, 2].sum() <= 0.1 + 1e-9
    assert found and min(found) >= 1.5 - 1e-9 > 1.0


def test_wasserstein_mixed_lymphography_hinge_gap_is_the_solution_the_solver_returns(
    data_mirror, monkeypatch
):
    """Cause 'underspecified' of Table 22's lymphography Nom full / half and MixF(1) half rows. Every
    training part of lymphography is linearly separable, so the hinge Nom LP has a whole face of zero-loss
    solutions and the test error depends on which one the solver reports. HiGHS (simplex, the notebook's
    path) returns a vertex with 7-34 of the 43 coefficients on the |beta| <= 100 box; an interior-point
    solver (Clarabel here; MOSEK's interior-point solution, which JuMP reports first, in the authors'
    code) returns a point inside the face (|beta| < 33). Same LP, same optimal value (0 to 3e-9), 100
    splits: Nom full 24.86 % (vertex) against 18.00 % (interior) and the printed 19.14 %, half 28.71
    against 22.93 and 20.28 %. MixF(1) half picks eps = 0 by CV on most splits, so it is the same LP there:
    on the notebook's 10 splits 27.86 % (vertex) against 21.43 % and the printed 20.91 %. Were the gap
    not the solver's choice of optimal solution, the interior point's error would stay at the vertex's
    and the band assertions below would fail. Band: k = 2 on the difference between our mean over n
    splits and the thesis's over 100, both with our per-split standard deviation."""
    import pandas as pd

    import safeguarded.wasserstein_mixed.experiments as E
    from safeguarded.experiments import rng_for
    from safeguarded.wasserstein_mixed.instances import load_uci
    from safeguarded.wasserstein_mixed.losses import make_loss
    from safeguarded.wasserstein_mixed.models import ConicCutModel, HighsCutModel, Spec, cutting_plane

    data, hinge = load_uci("lymphography"), make_loss("hinge")
    grids = dict(eps_grid=E.EPS_GRID_TABLES, alpha_grid=(0.0, 1e-3, 1e-1), folds=3)  # the notebook's

    def band(errors) -> float:
        return 2 * float(np.std(errors, ddof=1)) * np.sqrt(1 / len(errors) + 1 / 100)

    for size, printed in (("full", 19.14), ("half", 20.28)):  # Table 22, Nom (L3535)
        vertex, interior = [], []
        for split in range(100):  # the thesis's 100 splits; uci_cell's split (seed 0)
            idx = rng_for(0, split, 0 if size == "full" else 1).permutation(data.N)
            idx = idx if size == "full" else idx[: data.N // 2]
            n_test = int(np.floor(0.2 * idx.size))
            test, train = data.subset(np.sort(idx[:n_test])), data.subset(np.sort(idx[n_test:]))
            spec = Spec(train, hinge, nominal=True)
            v = cutting_plane(spec, 0.0, None, HighsCutModel(spec))
            c = cutting_plane(spec, 0.0, None, ConicCutModel(spec))
            # one LP, two optimal points: the values agree to 1e-6, 10x the cutting plane's tolerance (1e-7)
            # and far above Clarabel's (1e-8); both are 0, a separable training part
            assert v.status == c.status == "optimal" and abs(v.objective - c.objective) <= 1e-6
            assert max(v.objective, c.objective) <= 1e-6
            assert np.sum(np.abs(v.beta) >= spec.bound - 1e-6) >= 5  # a vertex: many coefficients on the box
            assert np.max(np.abs(c.beta)) < spec.bound / 2  # inside the face: none near it
            vertex.append(100 * E.metric(v.beta, test))
            interior.append(100 * E.metric(c.beta, test))
            if split < 10:  # the vertex is the notebook's Nom cell
                cell = E.uci_cell("lymphography", "hinge", size, split, methods=("Nom",), **grids)[0]
                assert 100 * cell["test_metric"] == pytest.approx(vertex[-1])
        vertex, interior = np.array(vertex), np.array(interior)
        assert abs(interior.mean() - printed) <= band(interior), (size, interior.mean())
        assert vertex.mean() - printed > band(vertex), (size, vertex.mean())
        gain = vertex - interior
        assert gain.mean() > 2 * gain.std(ddof=1) / np.sqrt(len(gain)), size

    # MixF(1) half (printed 20.91, L3535), the notebook's 10 splits: CV picks eps = 0 on most of them
    vertex_cells = [E.uci_cell("lymphography", "hinge", "half", k, methods=("MixF(1)",), **grids)[0]
                    for k in range(10)]
    monkeypatch.setattr(E, "make_model", lambda spec, time_limit=None: ConicCutModel(spec, time_limit))
    interior_cells = [E.uci_cell("lymphography", "hinge", "half", k, methods=("MixF(1)",), **grids)[0]
                      for k in range(10)]
    assert sum(r["eps"] == 0 for r in vertex_cells) >= 7
    vertex = np.array([100 * r["test_metric"] for r in vertex_cells])
    interior = np.array([100 * r["test_metric"] for r in interior_cells])
    assert abs(interior.mean() - 20.91) <= band(interior) and vertex.mean() - 20.91 > band(vertex)

    # the registry's rule covers exactly these rows; logistic (Table 21, already interior point) is our splits
    causes, _, _ = judging.registry("wasserstein_mixed")
    for item, claim, expected in (("table22", "lymphography full Nom", "underspecified"),
                                  ("table22", "lymphography half Nom", "underspecified"),
                                  ("table22", "lymphography half MixF(1)", "underspecified"),
                                  ("table22", "lymphography full MixF(1)", "unexplained"),
                                  ("table21", "lymphography full Nom", "scale")):
        hit = judging._attribute(pd.Series({"item": item, "claim": claim, "note": ""}), causes)
        assert hit is not None and hit.cause == expected, (item, claim, hit)


def _on_grid(printed: str, denominator: int) -> bool:
    """Whether a two-decimal percentage is k / denominator (rounded to two decimals) for some integer k."""
    value = float(printed)
    return abs(100.0 * round(value / 100.0 * denominator) / denominator - value) <= 0.005 + 1e-9


def _test_rows(n: int, size: str, rule: str) -> int:
    """A split's test rows: ``part`` 20 % of the data (of a random half at half size: the text, ours),
    ``rest`` at half size every row not trained on (80 % of a half)."""
    if size == "full":
        return int(np.floor(0.2 * n))
    h = n // 2
    return int(np.floor(0.2 * h)) if rule == "part" else n - (h - int(np.floor(0.2 * h)))


def test_wasserstein_mixed_printed_errors_are_means_of_twenty_splits():
    """Finding 'tables21-23-twenty-splits'. A printed error of Tables 21-23 is the mean over S splits of
    (test errors) / (test rows), so it lies on the grid k / (S n_test). L3504 says 100 splits of 80/20, of
    the data and of a random half. The printed values say 20 splits (the authors' public code:
    ``max_split = 20``, ``Codes/main_hpc.jl``), with floor(0.2 N) test rows at full size and, at half size,
    every row not trained on (N - 0.4 N): on those grids 21-24 of each set's 24 values lie (3 losses x 8
    methods), where chance (the grid's share of two-decimal values) would put 1-9. Were the text right, the
    values would lie on the 20-split grid by chance only and the hit counts would fail; shifting the test
    size by one row (a wrong premise) drops the hits by more than half."""
    from scipy.stats import binom

    from safeguarded.wasserstein_mixed.thesis_values import TABLES, THESIS_DIMENSIONS

    def hits(d: str, size: str, splits: int, rule: str, shift: int = 0) -> tuple[int, float]:
        denominator = splits * (_test_rows(THESIS_DIMENSIONS[d][0], size, rule) + shift)
        col = 0 if size == "full" else 2
        values = [row[col] for t in (21, 22, 23) for row in TABLES[t][d]]
        assert len(values) == 24
        return sum(_on_grid(v, denominator) for v in values), min(1.0, denominator / 1e4)

    on_true, on_shifted = [], []
    for d in ("balance-scale", "breast-cancer", "credit-approval", "cylinder-bands", "lymphography",
              "primary-tumor", "spect", "tic-tac-toe"):
        for size in ("full", "half"):
            k, chance = hits(d, size, 20, "rest")
            if chance < 0.5:  # a grid fine enough to tell (the larger sets' half-size grids are not)
                assert k >= 21 and binom.sf(k - 1, 24, chance) < 1e-6, (d, size, k, chance)
                shifted = [hits(d, size, 20, "rest", shift)[0] for shift in (-1, 1)]  # a row more or fewer
                assert max(shifted) < k, (d, size, k, shifted)
                on_true.append(k)
                on_shifted += shifted
            else:
                assert k >= 21, (d, size, k)
            if size == "half":  # the text's (and our) half-size test part, 20 % of the half: chance level
                k_part, chance_part = hits(d, size, 20, "part")
                assert k_part <= 24 * chance_part + 3 * np.sqrt(24 * chance_part) + 1, (d, k_part)
    assert len(on_true) == 12 and sum(on_shifted) < 0.5 * 2 * sum(on_true)  # a wrong test size: half or less
    # cylinder-bands: 107 test rows, floor(0.2 x 539), the thesis's N; ours has 540 rows (108)
    assert hits("cylinder-bands", "full", 20, "rest")[0] == 24
    assert hits("cylinder-bands", "full", 20, "rest", 1)[0] == 0


def test_wasserstein_mixed_common_offsets_are_split_sampling():
    """Cause 'scale' of the primary-tumor full, credit-approval full and cylinder-bands half rows of
    Tables 21-23. Every cell of a set and size shares its splits (the thesis's 20, finding
    'tables21-23-twenty-splits', as our 10), so one draw of splits on either side shifts all 24 cells
    (8 methods x 3 losses) alike. Here the 24 gaps ours - printed are such a common offset (their mean
    exceeds 1.5x their spread), the offset lies within 2 standard errors of the difference of a 10-split
    and a 20-split mean (per-split sd: the cells' median, from the notebook's band; at half size moved to
    the thesis's test part of every unused row), and each deviating row the rule covers lies within its
    own band of the offset and its loss's Nom on 100 splits within the band that adds the thesis's
    20-split error; the rows left 'unexplained' (Table 22's credit-approval rows: hinge Nom stays outside;
    Table 23's cylinder-bands half MixF(K): beyond its band of the offset) fail one of the two. Were the
    gaps not one shared offset, or the offset larger than the splits' error, these assertions would fail."""
    import math

    import pandas as pd

    from safeguarded.wasserstein_mixed.thesis_values import THESIS_DIMENSIONS

    fragment = REPO_ROOT / "figures" / "wasserstein_mixed" / "claims" / "wasserstein_mixed_tables21_26.csv"
    frag = pd.read_csv(fragment, dtype={"paper_value": str})
    frag = frag[frag["item"].isin(["table21", "table22", "table23"]) & (frag["reference"] == "printed")]
    frag = frag[frag["reproduced_value"].notna()].copy()
    frag["gap"] = frag["reproduced_value"].astype(float) - frag["paper_value"].astype(float)
    half = frag["paper_value"].map(lambda v: 0.5 * 10.0 ** -len(v.split(".")[1]))
    frag["tol"] = frag["tolerance"].astype(float)
    frag["sd"] = (frag["tol"] - half) / 2 * math.sqrt(10)  # the notebook's 10 splits
    n_ours = {"primary-tumor": 339, "credit-approval": 690, "cylinder-bands": 540}  # our files' rows
    causes, _, _ = judging.registry("wasserstein_mixed")
    # each loss's Nom on 100 splits (the benchmark's nom part, the notebook's protocol) against the printed
    # Nom, in the band that adds the thesis's 20-split error: the offset must be the splits' for that loss
    noms = pd.read_csv(REPO_ROOT / "benchmarks" / "results" / "wasserstein_mixed_protocol.csv")
    noms = noms[noms["protocol"] == "ours"].set_index(["dataset", "loss", "size"])
    loss_of = {"table21": "logistic", "table22": "hinge", "table23": "smooth_hinge"}
    covered = 0
    for d, size in (("primary-tumor", "full"), ("credit-approval", "full"), ("cylinder-bands", "half")):
        g = frag[frag["claim"].str.startswith(f"{d} {size} ")]
        assert len(g) == 24
        offset, spread, sd = g["gap"].mean(), g["gap"].std(ddof=1), g["sd"].median()
        assert abs(offset) > 1.5 * spread, (d, offset, spread)  # one shared shift, not 24 separate gaps
        sd_thesis = sd
        if size == "half":  # the thesis tests on every row not trained on, we on 20 % of the half
            n_o, n_t = _test_rows(n_ours[d], size, "part"), _test_rows(THESIS_DIMENSIONS[d][0], size, "rest")
            p = g["reproduced_value"].astype(float).mean() / 100
            binom = 1e4 * p * (1 - p)
            sd_thesis = math.sqrt(max(sd**2 - binom * (1 / n_o - 1 / n_t), binom / n_t))
        z = offset / math.hypot(sd / math.sqrt(10), sd_thesis / math.sqrt(20))
        assert abs(z) <= 2, (d, size, z)
        nom_ok = {}
        for item, loss in loss_of.items():
            n = noms.loc[(d, loss, size)]
            printed = float(g[(g["item"] == item) & (g["claim"] == f"{d} {size} Nom")]["paper_value"].iloc[0])
            band = 2 * math.hypot(n["se"], n["sd per split"] / math.sqrt(20)) + 0.005
            nom_ok[item] = int(n["splits"]) == 100 and abs(n["mean"] - printed) <= band
        for _, r in g[g["gap"].abs() > g["tol"]].iterrows():  # the rows that deviate
            inside = abs(r["gap"] - offset) <= r["tol"] and nom_ok[r["item"]]
            hit = judging._attribute(pd.Series({"item": r["item"], "claim": r["claim"], "note": ""}), causes)
            assert hit is not None and hit.cause == ("scale" if inside else "unexplained"), (r["claim"], hit)
            covered += inside
    assert covered == 30


def test_wasserstein_mixed_lymphography_logistic_nom_is_our_ten_splits():
    """Cause 'scale' of Table 21's lymphography full Nom: the notebook's 10 splits (23.45 %) lie outside
    the row's band, 100 splits of the same cell (the benchmark's ``nom`` part, uci_cell's splits) inside
    the band that adds the thesis's 20-split error (finding 'tables21-23-twenty-splits'). Were the gap not
    our splits' sampling, the 100-split mean would stay outside."""
    import math

    import pandas as pd

    noms = pd.read_csv(REPO_ROOT / "benchmarks" / "results" / "wasserstein_mixed_protocol.csv")
    row = noms[(noms["dataset"] == "lymphography") & (noms["loss"] == "logistic") & (noms["size"] == "full")]
    assert len(row) == 1 and int(row["splits"].iloc[0]) == 100
    mean, sd = float(row["mean"].iloc[0]), float(row["sd per split"].iloc[0])
    band = 2 * sd * math.sqrt(1 / 100 + 1 / 20) + 0.005
    assert abs(mean - 17.24) <= band  # 100 splits: inside
    assert abs(23.45 - 17.24) > 2 * sd * math.sqrt(1 / 10 + 1 / 20) + 0.005  # the 10 splits: outside
    causes, _, _ = judging.registry("wasserstein_mixed")
    row = pd.Series({"item": "table21", "claim": "lymphography full Nom", "note": ""})
    hit = judging._attribute(row, causes)
    assert hit is not None and hit.cause == "scale"


def _ecoli_errors(frame, standardise: bool, sims: int = 20, reversed_split: bool = False) -> dict:
    """ERM / ARO test errors (%) on ecoli splits; ``reversed_split``: 45 % training (App. 4.D.1, L4860)."""
    from safeguarded.robust_lr_aux import data, models
    from safeguarded.robust_lr_aux.losses import attacked_error

    enc = data.Encoder.fit(frame)
    if not standardise:  # ecoli's features on their UCI [0, 1] scale (the constant column kept)
        enc.means, enc.stds = np.zeros_like(enc.means), np.ones_like(enc.stds)
    n_tr, n_gen, n_te = data.uci_split_sizes(len(frame))
    n_tr = n_gen if reversed_split else n_tr
    out = {key: [] for key in ("ERM 0", "ERM 0.05", "ARO 0.05", "ARO 0.2")}
    for sim in range(sims):
        perm = np.random.default_rng(2000 + sim).permutation(len(frame))
        X, y = enc.transform(frame.iloc[perm[n_te : n_te + n_tr]])
        Xt, yt = enc.transform(frame.iloc[perm[:n_te]])
        erm = models.build_erm(X, y, beta_bound=100.0).fit(solver="CLARABEL")
        aro = models.build_aro(X, y, beta_bound=100.0)
        out["ERM 0"].append(100 * attacked_error(erm.beta, Xt, yt, 0.0))
        out["ERM 0.05"].append(100 * attacked_error(erm.beta, Xt, yt, 0.05))
        for alpha in (0.05, 0.2):
            beta = aro.fit(solver="CLARABEL", alpha=alpha).beta
            out[f"ARO {alpha:g}"].append(100 * attacked_error(beta, Xt, yt, alpha))
    return {key: float(np.mean(v)) for key, v in out.items()}


def test_robust_lr_aux_ecoli_errors_need_unstandardised_features(data_mirror):
    """Finding 'ecoli-not-standardised'. Table 30 prints ecoli errors ERM 6.74 % (alpha = 0), 16.30 %
    (alpha = 0.05) and ARO 42.67 % (alpha = 0.2). With the features z-scored as L4796 states, the attacked
    errors are a fraction of those (were the thesis right, they would match and this test would fail);
    with ecoli's features left on their [0, 1] scale they match. Without an attack the scale does not
    matter and both agree with the thesis."""
    from safeguarded.robust_lr_aux import data

    frame = data.raw_uci_frame("ecoli")
    z = _ecoli_errors(frame, standardise=True)
    raw = _ecoli_errors(frame, standardise=False)
    for errors in (z, raw):
        assert abs(errors["ERM 0"] - 6.74) < 2.5  # same data and task: alpha = 0 reproduces
    assert z["ERM 0.05"] < 11.0 and z["ARO 0.2"] < 20.0  # the stated preprocessing: far below 16.30 / 42.67
    assert raw["ERM 0.05"] > 13.0 and abs(raw["ARO 0.2"] - 42.67) < 4.0  # unstandardised: the printed regime


def test_robust_lr_aux_reversed_split_ecoli_errors_need_unstandardised_features(data_mirror):
    """Finding 'ecoli-not-standardised', on the reversed split of App. 4.D.1 (45 % training, L4860): the
    thesis prints ERM 14.59 % and ARO 11.41 % at alpha = 0.05 (L4870). With the features z-scored as L4796
    states the attacked errors are about a third of those; on ecoli's [0, 1] scale they are in the printed
    regime (measured: 4.9 / 4.1 % against 15.8 / 9.7 %)."""
    from safeguarded.robust_lr_aux import data

    frame = data.raw_uci_frame("ecoli")
    z = _ecoli_errors(frame, standardise=True, reversed_split=True)
    raw = _ecoli_errors(frame, standardise=False, reversed_split=True)
    assert z["ERM 0.05"] < 8.0 and z["ARO 0.05"] < 7.0  # the stated preprocessing: far below 14.59 / 11.41
    assert abs(raw["ERM 0.05"] - 14.59) < 3.0 and abs(raw["ARO 0.05"] - 11.41) < 3.0  # the printed regime


#: Tables 27 / 30 and L4870 (reversed split): the printed ecoli rows the unstandardised check covers
_ECOLI_COVERED = {  # (split, alpha, method, statistic): printed
    ("original", 0.05, "ARO", "mean"): 14.67, ("original", 0.05, "ARO+Aux", "mean"): 13.26,
    ("original", 0.05, "DRO+ARO", "mean"): 11.11, ("original", 0.2, "ARO+Aux", "mean"): 41.85,
    ("original", 0.2, "DRO+ARO", "mean"): 39.70, ("original", 0.05, "ERM", "sd"): 4.42,
    ("original", 0.2, "ARO+Aux", "sd"): 2.95, ("reversed", 0.05, "ARO+Aux", "mean"): 9.04,
}


def _ecoli_cv_errors(split: str, alpha: float, methods, sims: int = 10) -> dict:
    """Test errors (%) per method on ecoli with the features left on their UCI [0, 1] scale: the notebook's
    simulations (``data.uci_simulation``'s permutation and copula draw of ``rng_for(sim)``; ``split =
    "reversed"``: App. 4.D.1's 45 % training), each method cross-validated as ``cv.run_methods`` does (the
    notebook's grids, folds and random streams)."""
    from safeguarded.experiments import rng_for
    from safeguarded.robust_lr_aux import cv, data
    from safeguarded.robust_lr_aux.losses import attacked_error

    grids = cv.Grids(eps=(1e-3, 1e-2, 1e-1, 1.0), eps_hat=(1.0, 10.0), weights=cv.THESIS_WEIGHTS,
                     kappas=("1",), folds=3, eps_inter=(1e-2, 1e-1))
    frame = data.raw_uci_frame("ecoli")
    enc = data.Encoder.fit(frame)
    enc.means, enc.stds = np.zeros_like(enc.means), np.ones_like(enc.stds)
    n_tr, n_gen, n_te = data.uci_split_sizes(len(frame))
    if split == "reversed":
        n_tr, n_gen = n_gen, n_tr
    out = {m: [] for m in methods}
    for sim in range(sims):
        rng = rng_for(sim)
        perm = rng.permutation(len(frame))
        synth = data.GaussianCopula(frame.iloc[perm[n_te + n_tr :]]).sample(rng, n_gen)
        X, y = enc.transform(frame.iloc[perm[n_te : n_te + n_tr]])
        Xa, ya = enc.transform(synth)
        Xt, yt = enc.transform(frame.iloc[perm[:n_te]])
        for method in methods:
            m = cv.METHODS.index(method)
            fit = cv.cross_validate(method, X, y, Xa, ya, alpha=alpha, p=2, grids=grids,
                                    rng=rng_for(sim, 1000 + m), beta_bound=100.0)
            out[method].append(100 * attacked_error(fit["beta"], Xt, yt, alpha, 2))
    return {m: np.array(v) for m, v in out.items()}


def test_robust_lr_aux_ecoli_cross_validated_errors_need_unstandardised_features(data_mirror):
    """Finding 'ecoli-not-standardised', for the rows of the cross-validated methods: with ecoli's features
    on their UCI [0, 1] scale (the notebook's simulations otherwise unchanged) ARO, ARO+Aux and DRO+ARO err
    11.8-12.5 % at alpha = 0.05 and 41.6-41.7 % at alpha = 0.2, against the printed 11.11-14.67 and
    39.70-41.85 % and the notebook's z-scored 5.2-6.1 and 8.5 % (figures/robust_lr_aux/table30.csv); on the
    reversed split ARO+Aux errs 9.78 % (printed 9.04, z-scored 4.22). For each covered row the unstandardised
    value is at least twice as near the printed one as the z-scored value is, and within 3.5 pp (a mean) or
    its band (a standard deviation: 2 sd / sqrt(2 (n - 1))). Were the printed errors those of z-scored
    features, as L4796 states, the z-scored values would be the nearer."""
    import pandas as pd

    from safeguarded.paths import REPO_ROOT

    t30 = pd.read_csv(REPO_ROOT / "figures" / "robust_lr_aux" / "table30.csv").set_index(["dataset", "alpha"])
    rev = pd.read_csv(REPO_ROOT / "figures" / "robust_lr_aux" / "reversed_split.csv")
    rev = rev[(rev["dataset"] == "ecoli") & (rev["alpha"] == 0.05)]
    rev = rev.set_index("method")["ours, reversed-split"]

    def z_scored(split, alpha, method, stat):
        if split == "reversed":
            return float(rev[method].split("±")[0])
        return float(t30.loc[("ecoli", alpha), method if stat == "mean" else f"{method} sd"])

    runs = {("original", 0.05): _ecoli_cv_errors("original", 0.05, ("ERM", "ARO", "ARO+Aux", "DRO+ARO")),
            ("original", 0.2): _ecoli_cv_errors("original", 0.2, ("ARO+Aux", "DRO+ARO")),
            ("reversed", 0.05): _ecoli_cv_errors("reversed", 0.05, ("ARO+Aux",))}
    for (split, alpha, method, stat), printed in _ECOLI_COVERED.items():
        e = runs[(split, alpha)][method]
        ours = e.mean() if stat == "mean" else e.std(ddof=1)
        z = z_scored(split, alpha, method, stat)
        assert 2 * abs(ours - printed) <= abs(z - printed), (split, alpha, method, stat, ours, z, printed)
        reach = 3.5 if stat == "mean" else 2 * ours / np.sqrt(2 * (len(e) - 1)) + 0.005
        assert abs(ours - printed) <= reach, (split, alpha, method, stat, ours, printed)


def _dro_aro_test_set_and_cv_errors(dataset: str, alphas, sims: int = 10) -> dict:
    """Per alpha, DRO+ARO's attacked test errors (%) on the Tables 27/30/31 notebook's simulations: with the
    radius and kappa chosen per simulation on the test set from the thesis's grid (11 radii x kappa in {1,
    sqrt n, n}, L4267), and cross-validated as the notebook does (4 radii, kappa 1, 3 folds, its stream)."""
    from safeguarded.experiments import rng_for
    from safeguarded.robust_lr_aux import cv, data, models
    from safeguarded.robust_lr_aux.losses import attacked_error

    grids = cv.Grids(eps=(1e-3, 1e-2, 1e-1, 1.0), eps_hat=(1.0, 10.0), weights=cv.THESIS_WEIGHTS,
                     kappas=("1",), folds=3, eps_inter=(1e-2, 1e-1))
    out = {alpha: ([], []) for alpha in alphas}
    for seed in range(sims):
        d = data.uci_simulation(dataset, rng_for(seed))
        X, y, Xt, yt = d["X"], d["y"], d["X_test"], d["y_test"]
        model = models.build_dr_aro(X, y, beta_bound=100.0)
        for alpha in alphas:
            errors = [100 * attacked_error(model.fit(alpha=alpha, eps=e, kappa=k).beta, Xt, yt, alpha)
                      for k in cv.kappa_values(("1", "sqrt_n", "n"), X.shape[1]) for e in cv.THESIS_RADII]
            fit = cv.cross_validate("DRO+ARO", X, y, d["X_aux"], d["y_aux"], alpha=alpha, grids=grids,
                                    rng=rng_for(seed, 1003), beta_bound=100.0)  # run_methods' DRO+ARO stream
            out[alpha][0].append(min(errors))
            out[alpha][1].append(100 * attacked_error(fit["beta"], Xt, yt, alpha))
    return out


def _inside_mean_band(values, printed: float, printed_sd: float | None) -> bool:
    """The claims' band of a printed mean (printed_mc): 2 standard errors of the difference + half a unit."""
    import math

    ours_se = float(np.std(values, ddof=1)) / math.sqrt(len(values))
    se = math.hypot(ours_se, (printed_sd or 0.0) / math.sqrt(10))
    return abs(float(np.mean(values)) - printed) <= 2 * se + 0.005


def _inside_sd_band(values, printed_sd: float) -> bool:
    """The claims' band of a printed sd: 2 x sd / sqrt(2 (n - 1)) + half a unit."""
    s = float(np.std(values, ddof=1))
    return abs(s - printed_sd) <= 2 * s / np.sqrt(2 * (len(values) - 1)) + 0.005


def test_robust_lr_aux_audiology_dro_aro_errors_need_the_radius_chosen_on_the_test_set(data_mirror):
    """Finding 'radius-chosen-on-test-set'. Table 30 prints audiology's DRO+ARO at alpha = 0.2 as 20.00 %
    (sd 3.01). On the notebook's 10 simulations, DRO+ARO cross-validated as the notebook does (4 radii, kappa
    1, 3 folds) errs 26.26 % (sd 7.04): outside the claims' band of both values. Fitted at every point of
    the thesis's grid (11 radii x kappa in {1, sqrt n, n}, L4267) and taking, per simulation, the point with
    the smallest attacked *test* error, it errs 20.2 % (sd 3.0): inside both bands. Were the printed values
    the cross-validated errors the text states (5-fold on the thesis's grid errs more still, 34.18 %), the
    test-set choice would lie far below them and the first assertions would fail."""
    oracle, crossval = _dro_aro_test_set_and_cv_errors("audiology", (0.2,))[0.2]
    for values, expected in ((oracle, True), (crossval, False)):
        assert _inside_mean_band(values, 20.00, 3.01) == expected, (np.mean(values), expected)
        assert _inside_sd_band(values, 3.01) == expected, (np.std(values, ddof=1), expected)
    assert np.mean(crossval) - np.mean(oracle) > 4.0  # the choice on the test set, not noise, closes the gap


def test_robust_lr_aux_prim_tumor_dro_aro_errors_need_the_radius_chosen_on_the_test_set(data_mirror):
    """Finding 'radius-chosen-on-test-set' on prim-tumor: Tables 31 / 27 print DRO+ARO's mean error 15.07 %
    (alpha = 0) and 16.18 % (alpha = 0.05, sd 3.83), Table 30 its sd 3.34 at alpha = 0.2. Cross-validated as
    the notebook does, ours are 18.38 %, 22.87 % and sd 6.89, each outside its band; with the radius and
    kappa chosen per simulation on the test set from the thesis's grid 14.78 %, 17.06 % and sd 2.76, each
    inside. Were the printed values cross-validated errors, the test-set choice would lie below them."""
    runs = _dro_aro_test_set_and_cv_errors("prim-tumor", (0.0, 0.05, 0.2))
    for values, expected in ((runs[0.0][0], True), (runs[0.0][1], False)):
        assert _inside_mean_band(values, 15.07, None) == expected, (0.0, np.mean(values), expected)
    for values, expected in ((runs[0.05][0], True), (runs[0.05][1], False)):
        assert _inside_mean_band(values, 16.18, 3.83) == expected, (0.05, np.mean(values), expected)
    for values, expected in ((runs[0.2][0], True), (runs[0.2][1], False)):
        assert _inside_sd_band(values, 3.34) == expected, (0.2, np.std(values, ddof=1), expected)


def _uci_splits(n_rows: int, sims: int = 10):
    """(simulation, training rows, test rows) of the Tables 27/30/31 notebook's splits (uci_simulation's
    permutation of rng_for(seed), seeds 0..sims-1)."""
    from safeguarded.experiments import rng_for
    from safeguarded.robust_lr_aux import data

    n_tr, _, n_te = data.uci_split_sizes(n_rows)
    for sim in range(sims):
        perm = rng_for(sim).permutation(n_rows)
        yield sim, perm[n_te : n_te + n_tr], perm[:n_te]


def _split_erm_errors(design: np.ndarray, labels: np.ndarray, sims: int = 10,
                      alphas=(0.0,)) -> dict[float, np.ndarray]:
    """ERM's test error (%) under l2 attacks of strength ``alphas`` on the Tables 27/30/31 notebook's splits
    (:func:`_uci_splits`)."""
    from safeguarded.robust_lr_aux import models
    from safeguarded.robust_lr_aux.losses import attacked_error

    errors = {a: [] for a in alphas}
    for _, tr, te in _uci_splits(len(labels), sims):
        erm = models.build_erm(design[tr], labels[tr], beta_bound=100.0).fit(solver="CLARABEL")
        for a in alphas:
            errors[a].append(100 * attacked_error(erm.beta, design[te], labels[te], a))
    return {a: np.array(e) for a, e in errors.items()}


def test_robust_lr_aux_dermatology_gap_is_not_the_encoding(data_mirror):
    """Cause 'dermatology' (unexplained) rules the encoding out by experiment. Table 31 prints ERM at
    alpha = 0 as 16.04 % on dermatology (N 53, Table 29's n 99); ours errs 0.9 % with 130 columns. Four
    other codings of the 34 features, among them the 98 columns of the thesis's §1 (reference level
    dropped, L965), on the notebook's 10 splits, all stay far below 16.04 %: the coding moves ERM by at
    most a few points, not by 15."""
    import pandas as pd

    from safeguarded.robust_lr_aux import data

    frame = data.raw_uci_frame("dermatology")
    labels = frame["__label__"].to_numpy(float)
    feats = frame.drop(columns="__label__")
    nominal = [c for c in feats if not pd.api.types.is_numeric_dtype(feats[c])]

    def with_constant(z: pd.DataFrame, standardise: list) -> np.ndarray:
        z = z.astype(float)
        z[standardise] = (z[standardise] - z[standardise].mean()) / z[standardise].std(ddof=0)
        return np.hstack([z.to_numpy(), np.ones((len(z), 1))])

    dropped = pd.get_dummies(feats, columns=nominal, drop_first=True, dtype=float)
    full = pd.get_dummies(feats, columns=nominal, dtype=float)
    codings = {
        "ours": data.Encoder.fit(frame).transform(frame)[0],
        "reference dropped, 0/1": with_constant(dropped, ["Age"]),
        "reference dropped, standardised": with_constant(dropped, list(dropped.columns)),
        "full one-hot, standardised": with_constant(full, list(full.columns)),
        "scores as numbers": with_constant(feats.apply(pd.to_numeric), list(feats.columns)),
    }
    assert codings["ours"].shape[1] == 130 and codings["reference dropped, 0/1"].shape[1] == 98
    errors = {name: float(np.mean(_split_erm_errors(X, labels)[0.0])) for name, X in codings.items()}
    assert errors["ours"] < 2.0  # the notebook's Table 31 cell (0.9 %)
    assert all(e < 16.04 / 2 for e in errors.values()), errors  # no coding reaches the printed regime
    assert max(errors.values()) - min(errors.values()) > 2.0  # ...though the coding does move the error


def test_robust_lr_aux_dermatology_gap_is_not_the_label(data_mirror):
    """Cause 'dermatology' (unexplained) rules the label out by experiment too. L4796 makes the most
    frequent class (1, psoriasis) the positive one, as ours does (ERM 0.9 % at alpha = 0). Were another
    class against the rest the thesis's label, its ERM error would reach the printed 16.04 %; on the
    notebook's 10 splits with our encoding none does: the hardest, classes 2 and 4, err 8.1 and 8.6 %,
    and every class's mean plus two standard errors stays below 16.04 %."""
    from safeguarded.data.uci_tables import read_table
    from safeguarded.robust_lr_aux import data

    frame = data.raw_uci_frame("dermatology")
    table = read_table(data.UCI_DATASETS["dermatology"])
    classes = table.frame[table.target].astype(str).to_numpy()
    assert len(classes) == len(frame) == 358
    design = data.Encoder.fit(frame).transform(frame)[0]  # the encoding does not depend on the label
    upper = {}
    for label in sorted(set(classes)):
        errors = _split_erm_errors(design, np.where(classes == label, 1.0, -1.0))[0.0]
        upper[label] = float(errors.mean() + 2 * errors.std(ddof=1) / np.sqrt(len(errors)))
    majority = max(set(classes), key=list(classes).count)
    assert upper[majority] < 2.0 and max(upper.values()) < 16.04 and max(upper.values()) > 5.0, upper



def test_robust_lr_aux_annealing_gap_is_not_the_encoding(data_mirror):
    """Cause 'annealing' (unexplained) rules our encoding out by experiment. Table 31 prints ERM at alpha = 0
    as 10.61 % on annealing (Table 29's n 41); ours errs 4.9 % with 64 columns ('?' its own level, as the
    ARFF file gives it). Three codings nearer Table 29's n (the features more than 90 % '?' dropped; '?' as
    missing, with reference-dropped or full dummies), on the notebook's 10 splits, all stay below 10.61 % at
    alpha = 0, although the coding moves the attacked error a lot (alpha = 0.05: 7.5-22.9 %)."""
    import pandas as pd

    from safeguarded.robust_lr_aux import data

    frame = data.raw_uci_frame("annealing")
    labels = frame["__label__"].to_numpy(float)
    feats = frame.drop(columns="__label__")
    numeric = [c for c in feats if pd.api.types.is_numeric_dtype(feats[c])]
    nominal = [c for c in feats if c not in numeric]

    def with_constant(z: pd.DataFrame) -> np.ndarray:
        z = z.astype(float)
        z[numeric] = (z[numeric] - z[numeric].mean()) / z[numeric].std(ddof=0)
        z = z.loc[:, z.std() > 0]
        return np.hstack([z.to_numpy(), np.ones((len(z), 1))])

    mostly_present = [c for c in nominal if (feats[c] == "?").mean() <= 0.9]
    unknown = feats.assign(**{c: feats[c].replace("?", np.nan) for c in nominal})
    codings = {
        "ours": data.Encoder.fit(frame).transform(frame)[0],
        "features > 90 % '?' dropped": with_constant(pd.get_dummies(
            feats[numeric + mostly_present], columns=mostly_present, drop_first=True, dtype=float)),
        "'?' missing, reference dropped": with_constant(
            pd.get_dummies(unknown, columns=nominal, drop_first=True, dtype=float)),
        "'?' missing, full dummies": with_constant(pd.get_dummies(unknown, columns=nominal, dtype=float)),
    }
    assert codings["ours"].shape[1] == 64 and all(30 <= X.shape[1] <= 55 for X in list(codings.values())[1:])
    clean = {k: _split_erm_errors(X, labels, alphas=(0.0, 0.05)) for k, X in codings.items()}
    assert abs(clean["ours"][0.0].mean() - 4.92) < 0.01  # the notebook's Table 31 ERM cell
    assert all(e[0.0].mean() < 10.61 - 2.5 for e in clean.values()), clean  # none reaches the printed 10.61 %
    attacked = [e[0.05].mean() for e in clean.values()]
    assert max(attacked) - min(attacked) > 10.0  # ...though the coding does move the attacked error


# --------------------------------------------------------------------------------------------------
# dp_noise and gaussian_mixtures (thesis §1-§2)

_S12 = ("dp_noise", "gaussian_mixtures")


def test_s12_every_printed_deviation_has_a_valid_cause():
    from safeguarded import claims

    # the repository's committed claims (the tests' FIGURES is an empty temporary folder)
    table = judging.judge(claims.collect(REPO_ROOT / "figures"))
    table = table[table["work"].isin(_S12)]
    assert len(table) > 2000  # both works' paper-scale fragments were read
    assert judging.validate_causes(table) == []
    counted = judging._counted(table)
    # every printed deviation of the two works is attributed, and each group is reached by some row
    dev = counted[counted["verdict"] == "deviates"]
    assert (dev["cause"] != "").all()
    for work in _S12:
        causes, _, _ = judging.registry(work)
        used = set(table[table["work"] == work]["why"])
        assert {c.why for c in causes} <= used, {c.why for c in causes} - used


def test_s12_registry_rules_match_the_rows_they_are_meant_for():
    import pandas as pd

    cases = {
        "dp_noise": [
            ("table01", "Table 1 at (eps, delta) = (1, 0.1) [%]", "", "underspecified"),
            (
                "table01",
                "Table 1 at (eps, delta) = (1, 0.1) [%] (fitted n rule)",
                "fitted: x",
                "underspecified",
            ),
            ("table04", "Table 4 at (eps, delta) = (0.5, 0.05) [%]", "", "work-error"),
            ("table05", "Table 5 at (eps, delta) = (0.01, 0.75) [%]", "", "work-error"),
            ("table05", "Table 5 at (eps, delta) = (2, 0.5) [%]", "", "work-error"),
            ("table05", "Table 5 at (eps, delta) = (0.5, 0.05) [%]", "", "underspecified"),  # the Geng n
            ("table05", "Table 5 at (eps, delta) = (5, 0.005) [%]", "", "underspecified"),
            ("table05", "Table 5 at (eps, delta) = (0.005, 0.01) [%]", "", "underspecified"),
            ("table05", "Table 5 at (eps, delta) = (2, 0.05) [%]", "", "underspecified"),
            ("table06", "Table 6 at (eps, delta) = (1, 0.1) [%]", "", "underspecified"),
            (
                "table02",
                "adult in-sample GN error (%)",
                "mirror data, n=45222, num/cat/C = 5/8/2 (thesis 45222, 5/8/2)",
                "unexplained",
            ),
            (
                "table02",
                "adult in-sample OPT error (%)",
                "mirror data, n=45222, num/cat/C = 5/8/2 (thesis 45222, 5/8/2)",
                "underspecified",
            ),
            (
                "table02",
                "contraceptive out-of-sample (OPT) error (%)",
                "mirror data, n=1473, num/cat/C = 2/7/3 (thesis 1473, 2/7/3)",
                "underspecified",
            ),
            (
                "table02",
                "adult in-sample TLN error (%)",
                "mirror data, n=45222, num/cat/C = 5/8/2 (thesis 45222, 5/8/2)",
                "unexplained",
            ),
            (
                "table02",
                "abalone in-sample NB error (%)",
                "mirror data, n=4177, num/cat/C = 7/1/2 (thesis 4177, 7/1/2)",
                "underspecified",
            ),
            (
                "table02",
                "bank in-sample GN error (%)",
                "mirror data, n=45211, num/cat/C = 7/9/2 (thesis 45211, 4/12/2)",
                "substitute-data",
            ),
            (
                "table02",
                "dermatology out-of-sample NB error (%)",
                "mirror data, n=358, num/cat/C = 1/33/6 (thesis 366, 2/32/6)",
                "work-error",  # NB.jl's unseen-level rule with the ages as categories
            ),
            (
                "table02",
                "breast-cancer in-sample GN error (%)",
                "mirror data, n=683, num/cat/C = 9/0/2 (thesis 683, 0/9/2)",
                "underspecified",  # matched copy and NB.jl's unseen-level rule
            ),
            (
                "table02",
                "post-operative in-sample GN error (%)",
                "mirror data, n=87, num/cat/C = 0/8/3 (thesis 86, 1/7/2)",
                "substitute-data",  # N still 87 vs 86
            ),
            (
                "table03",
                "spect in-sample PCD error (%)",
                "N=267, d=23 (thesis 160, 23); labels",
                "substitute-data",
            ),
            ("table03", "ecoli in-sample GN error (%)", "N=336, d=8 (thesis 336, 8); labels", "unexplained"),
        ],
        "gaussian_mixtures": [
            ("table08", "Table 8 at (eps, delta) = (2, 0.25) [%]", "", "work-error"),
            ("table08", "Table 8 at (eps, delta) = (1, 0.001) [%]", "", "work-error"),
            ("table08", "Table 8 at (eps, delta) = (1, 0.005) [%]", "", "work-error"),
            ("table08", "MG: mean improvement [%]", "", "work-error"),
            ("table11", "best K at (eps, delta) = (10, 0.0001)", "", "work-error"),
            ("table11", "best K at (eps, delta) = (0.1, 0.005)", "", "work-error"),
            ("table11", "best K at (eps, delta) = (0.1, 0.02)", "", "unexplained"),
            ("table10", "share of AG's gap closed by MG at (0.75, 0.0005) [%]", "", "work-error"),
            ("table10", "share of AG's gap closed by MG at (0.75, 0.001) [%]", "", "work-error"),
            ("table15", "share of AG's gap closed by MG at (0.25, 0.001) [%]", "", "work-error"),
            ("table18", "dermatology in-sample PCD standard deviation (%)", "", "underspecified"),  # sd over
            ("table09", "dermatology in-sample PCD error (%)", "", "unexplained"),  # matched copy: gap stays
            ("table09", "cylinder-bands in-sample PCD error (%)", "", "substitute-data"),  # shown by a rerun
            ("table09", "spect in-sample PCD error (%)", "", "substitute-data"),
            ("table18", "ecoli in-sample PCD standard deviation (%)", "", "underspecified"),
            ("table18", "ecoli in-sample A-G standard deviation (%)", "", "unexplained"),
            ("table09", "ecoli in-sample A-G error (%)", "", "unexplained"),
        ],
    }
    for work, rows in cases.items():
        causes, _, _ = judging.registry(work)
        for item, claim, note, expected in rows:
            row = pd.Series({"item": item, "claim": claim, "note": note})
            hit = judging._attribute(row, causes)
            assert hit is not None and hit.cause == expected, (work, item, claim, hit)


#: Every work's registry keeps its rules disjoint on the printed deviations (docs/claims.md §7: the first
#: match wins, so an overlap would let the order pick the cause).
_DISJOINT = WORKS


def _overlaps(causes, rows) -> dict:
    """{claim: the reasons of the rules that match it} for the ``rows`` matching no rule or more than one."""
    hits = {row["claim"]: [c.why[:60] for c in causes if c.matches(row)] for _, row in rows.iterrows()}
    return {claim: whys for claim, whys in hits.items() if len(whys) != 1}


@pytest.mark.parametrize("work", _DISJOINT)
def test_no_rule_order_decides_a_cause(work):
    """Rule order in a cause registry must not hide a cause: every printed deviation of the committed report
    matches exactly one rule of its work's registry (so the first match is the only one)."""
    from safeguarded import claims

    report = claims.read_report(REPO_ROOT / "figures")
    rows = report[
        (report["work"] == work)
        & (report["reference"] == "printed")
        & (report["verdict"] == "deviates")
        & (report["scale"] != "smoke")
    ]
    causes, _, _ = judging.registry(work)
    assert not _overlaps(causes, rows)


def test_an_overlap_of_rules_is_detected():
    """The premise of test_no_rule_order_decides_a_cause broken: a catch-all rule put before
    gaussian_mixtures' rules matches a Table 18 row together with the rule that decides it, and wins."""
    import pandas as pd

    causes, _, _ = judging.registry("gaussian_mixtures")
    catch_all = judging.Cause("unexplained", "every row", "notebooks/x.ipynb#y", item="^table18$")
    claim = "dermatology in-sample PCD standard deviation (%)"
    rows = pd.DataFrame([{"item": "table18", "claim": claim, "note": ""}])
    assert not _overlaps(causes, rows)
    assert len(_overlaps([catch_all, *causes], rows)[claim]) == 2
    assert judging._attribute(rows.iloc[0], [catch_all, *causes]) is catch_all


def test_gaussian_mixtures_table18_sd_cause_states_its_rows():
    """The Table 18 sd cause names how many of its rows are on data sets whose N and d match the thesis's
    and how many on the others; both counts are the committed report's."""
    from safeguarded import claims
    from safeguarded.gaussian_mixtures import causes

    report = claims.read_report(REPO_ROOT / "figures")
    rows = report[report["work"] == "gaussian_mixtures"]
    rows = rows[rows["why"].str.startswith("Table 18's standard")]
    matched = rows["claim"].str.split(" ").str[0].isin(causes._MATCHED_PCD)
    assert (rows["verdict"] == "deviates").all()
    assert (int(matched.sum()), int((~matched).sum())) == (causes._T18_MATCHED, causes._T18_SUBSTITUTE)
    assert f"{causes._T18_MATCHED} rows" in rows["why"].iloc[0]


def _thesis_o(b_ub: float, t4: float) -> float:
    """The O a printed Table 4 value t4 = 100 (B_UB - O)/max{O, 1} implies."""
    o = b_ub - t4 / 100
    return o if o <= 1 else b_ub / (1 + t4 / 100)


def _printed_cell(table: str, epsilon: float, delta: float) -> float:
    from safeguarded.dp_noise import synthetic, thesis

    rows = list(thesis.TABLES[table].values())
    return float(rows[list(synthetic.EPSILONS).index(epsilon)][list(synthetic.DELTAS).index(delta)])


def _outside(cells, t4_of, measure: str) -> tuple[set, set]:
    """The cells whose O, back-solved from ``t4_of(eps, delta)`` at the end of the printed rounding most
    favourable to the work, lies below the lowest O an LP gap below 1 % allows around our certified D, or
    above the highest around our private P (``causes.lowest_o``/``highest_o`` under ``measure``)."""
    from safeguarded.dp_noise import causes

    below, above = set(), set()
    for r in cells.itertuples():
        t4 = t4_of(r.epsilon, r.delta)
        if _thesis_o(r.tlap, t4 - 0.005) < causes.lowest_o(r.D, measure):
            below.add((r.epsilon, r.delta))
        if _thesis_o(r.tlap, t4 + 0.005) > causes.highest_o(r.P, measure):
            above.add((r.epsilon, r.delta))
    return below, above


def _paper_run_cells():
    import pandas as pd

    cells = pd.read_csv(REPO_ROOT / "figures" / "dp_noise" / "tables1456_cells.csv")
    cells = cells[cells.loss == "l1"]
    assert len(cells) == 100 and (cells.P >= cells.D).all()
    return cells


def test_dp_noise_gap_measures_bound_o():
    """lowest_o/highest_o are the extremes of O = (P + D)/2 over brackets D <= opt <= P with a gap below 1 %
    (brute force over D and P), for the authors' measure (P - D)/max{1, D} and the text's (P - D)/D."""
    from safeguarded.dp_noise import causes

    gap = {"authors": lambda p, d: (p - d) / max(1.0, d), "text": lambda p, d: (p - d) / d}
    for measure, of in gap.items():
        for opt in (0.05, 0.5, 0.99, 1.0, 1.005, 1.01, 1.02, 3.0):
            reach = 0.012 * max(1.0, opt)
            ds, ps = np.linspace(opt - reach, opt, 301), np.linspace(opt, opt + reach, 301)
            os_ = [(p + d) / 2 for d in ds for p in ps if of(p, d) < 0.01]
            assert causes.lowest_o(opt, measure) <= min(os_) + 1e-12
            assert causes.lowest_o(opt, measure) >= min(os_) - 2e-4 * max(1, opt)  # attained up to the grid
            assert causes.highest_o(opt, measure) >= max(os_) - 1e-12
            assert causes.highest_o(opt, measure) <= max(os_) + 2e-4 * max(1, opt)
    assert causes.lowest_o(0.5, "authors") < causes.lowest_o(0.5, "text")  # the authors' measure is weaker


def test_dp_noise_table4_o_below_a_certified_lower_bound_beyond_the_stated_gap():
    """Finding 'dp-noise-l871-gap-measure' (below, the text's measure). At (eps, delta) = (5, 0.005) Table 4
    prints 12.25 %, i.e. O <= 0.07742 (the rounding end most favourable to the thesis). A certified lower
    bound D on a small symmetric grid (support +-0.62, beta = 1/130; valid for every (eps, delta)-DP noise,
    the outermost cells read as rays) is 0.0780: were the gap 100 (P - D)/D below 1 % as L871 writes it,
    O >= 0.99505 opt >= 0.99505 D and this test would fail. Under the authors' measure (P - D)/max{1, D}
    the cell is no contradiction (O may be 0.005 below opt), which this test checks too."""
    from safeguarded.dp_noise import bounds, causes, mechanisms

    eps, delta = 5.0, 0.005
    b_ub = mechanisms.TruncatedLaplace(eps, delta).amplitude()
    o_max = _thesis_o(b_ub, _printed_cell("table04", eps, delta) - 0.005)
    lower = bounds.lower_bound(eps, delta, bounds.symmetric_partition(80, 130), "l1", method="ipm").value
    assert lower <= b_ub  # a lower bound below a private mechanism's loss
    assert o_max < causes.lowest_o(lower, "text"), (o_max, lower)
    assert (lower - o_max) / lower > 0.006  # 0.7 % below a bound that is itself looser than the paper run's
    assert o_max > causes.lowest_o(lower, "authors")


@pytest.mark.parametrize(("eps", "delta", "work"), [(0.01, 0.75, 3000), (2.0, 0.5, 10000)])
def test_dp_noise_table4_o_above_a_private_noise_beyond_the_stated_gap(eps, delta, work):
    """Finding 'dp-noise-o-outside-stated-gap' (above). At (0.01, 0.75) Table 4 prints 5.26 %, i.e.
    O >= 0.2809, at (2, 0.5) 13.05 %, O >= 0.2129; the LP upper bound on a coarse grid is the loss of an
    (eps, delta)-DP noise (its masses pass the exact privacy check) and costs 0.263 and 0.205: were the gap
    below 1 % even as the authors measure it ((P - D)/max{1, D}), O <= opt + 0.005 <= 0.268 and 0.210, and
    this test would fail."""
    from safeguarded.dp_noise import bounds, causes, mechanisms, synthetic

    b_ub = mechanisms.TruncatedLaplace(eps, delta).amplitude()
    o_min = _thesis_o(b_ub, _printed_cell("table04", eps, delta) + 0.005)
    upper = bounds.upper_bound(eps, delta, synthetic.grid_for(eps, delta, work=work), "l1", method="compact")
    assert upper.max_shortfall <= 1e-9  # a private noise
    assert o_min > causes.highest_o(upper.value, "authors"), (o_min, upper.value)


def test_dp_noise_o_cells_outside_the_stated_gap_in_the_paper_run():
    """The cells the registry marks as 'O outside the stated gap' are exactly those whose back-solved O lies
    below the lowest or above the highest O a gap below 1 % allows around our certified D and privacy-checked
    P in the paper run (~2,000-cell grids, figures/dp_noise/tables1456_cells.csv): 4 cells under the
    authors' measure (P - D)/max{1, D} (the work-error), 28 under L871's 100 (P - D)/D; (1, 0.1) is in
    neither."""
    from safeguarded.dp_noise import causes

    cells = _paper_run_cells()
    printed = lambda e, d: _printed_cell("table04", e, d)  # noqa: E731
    below, above = _outside(cells, printed, "authors")
    assert below == set(causes.O_BELOW_D) and above == set(causes.O_ABOVE_P)
    below_text, above_text = _outside(cells, printed, "text")
    assert below_text == set(causes.O_BELOW_D_TEXT) and above_text == set(causes.O_ABOVE_P_TEXT)
    assert len(causes.O_OUTSIDE) == 4 and len(causes.O_OUTSIDE_TEXT) == 28
    assert set(causes.O_OUTSIDE) <= set(causes.O_OUTSIDE_TEXT)
    assert (1.0, 0.1) not in set(causes.O_OUTSIDE_TEXT)


def test_dp_noise_o_check_passes_a_table4_made_from_our_own_o():
    """The premise broken: a Table 4 printed from an O inside our bracket (here our own O = (P + D)/2, rounded
    to 0.01 pp as the thesis prints) has no cell outside the range, under either measure; the check that
    finds the work-error cells therefore fails when the work's O is consistent with its stated gap."""
    cells = _paper_run_cells()
    table4 = {(r.epsilon, r.delta): r.table4 for r in cells.itertuples()}
    ours = lambda e, d: round(float(table4[(e, d)]), 2)  # noqa: E731
    for measure in ("authors", "text"):
        assert _outside(cells, ours, measure) == (set(), set())


def test_dp_noise_geng_cells_are_where_n_plus_1_lies_nearer_the_printed_value():
    """The Geng-n cells of Tables 1 and 5 (causes._GENG_T1, _GENG_T5) are exactly the cells whose row deviates
    in the committed report and where the n + 1 rule's value (paper run) lies nearer the printed one than the
    loop's; Table 5's work-error cells are the O cells outside them, so no rule hides the other."""
    from safeguarded import claims
    from safeguarded.dp_noise import causes

    report = claims.read_report(REPO_ROOT / "figures")
    verdict = dict(zip(report["claim"], report["verdict"], strict=False))
    cells = _paper_run_cells()
    nearer = {1: set(), 5: set()}
    for r in cells.itertuples():
        for table in (1, 5):
            printed = _printed_cell(f"table0{table}", r.epsilon, r.delta)
            loop, fitted = getattr(r, f"table{table}"), getattr(r, f"table{table}_fitted")
            claim = f"Table {table} at (eps, delta) = ({r.epsilon:g}, {r.delta:g}) [%]"
            if verdict[claim] == "deviates" and abs(fitted - printed) < abs(loop - printed):
                nearer[table].add((r.epsilon, r.delta))
    assert nearer[1] == set(causes._GENG_T1) and len(nearer[1]) == 69
    assert nearer[5] == set(causes._GENG_T5) and len(nearer[5]) == 68
    assert set(causes._O_T5) == set(causes.O_OUTSIDE) - {(0.5, 0.05)}


def test_dp_noise_geng_causes_state_the_reports_fitted_counts():
    """The Geng causes' texts state the verdicts the report gives the fitted n + 1 rows of their cells (never
    counted), and how many of them the stated accuracy of L871 would cover."""
    import re

    import pandas as pd

    from safeguarded import claims
    from safeguarded.dp_noise import causes

    report = claims.read_report(REPO_ROOT / "figures")
    report = report[report["work"] == "dp_noise"].set_index("claim")
    for table, cells in ((1, causes._GENG_T1), (5, causes._GENG_T5)):
        pattern = causes._cells(table, cells)
        (cause,) = [c for c in causes.CAUSES if c.item == f"^table0{table}$" and c.claim == pattern]
        counts = {"reproduced": 0, "inside": 0, "outside": 0, "accuracy": 0}
        for e, d in cells:
            claim = f"Table {table} at (eps, delta) = ({e:g}, {d:g}) [%]"
            row = report.loc[f"{claim} (fitted n rule)"]
            miss = abs(float(row["reproduced_value"]) - float(row["paper_value"]))
            inside = miss <= float(row["tolerance"])
            key = "reproduced" if row["verdict"] == "reproduced" else ("inside" if inside else "outside")
            counts[key] += 1
            key = pd.Series({"item": f"table0{table}", "claim": claim})
            rtol = sum(a.rtol for a in causes.ACCURACY if a.matches(key))  # none where the bound is 0
            paper = abs(float(row["paper_value"]))
            counts["accuracy"] += miss <= float(row["tolerance"]) + rtol * paper
        words = re.sub(r"\s+", " ", cause.why)
        assert f"in {len(cells)} cells" in words
        assert f"reproduced in {counts['reproduced']}" in words, (table, counts)
        assert f"outside our LP band in {counts['outside']}" in words, (table, counts)
        assert (f"inside a band too wide to tell in {counts['inside']}" in words) == bool(counts["inside"])
        assert re.search(rf"added,? (it would lie inside in )?{counts['accuracy']}\b", words), (table, counts)


def test_dp_noise_accuracy_bounds_hold_by_brute_force():
    """The per-cell Accuracy of Tables 1/4/5 bounds how far each printed value moves when O is replaced by any
    optimum compatible with the authors' gap (|O - opt| <= 0.005 max{1, opt}, L871 and grid_ell1_prep_*.jl),
    brute force over opt."""
    from safeguarded.dp_noise import causes, mechanisms, synthetic

    def values(b_ub, lb, o):
        den = max(o, 1.0)
        return {1: 100 * (b_ub - lb) / den, 4: 100 * (b_ub - o) / den, 5: 100 * (o - lb) / den}

    for eps in synthetic.EPSILONS:
        for delta in synthetic.DELTAS:
            b_ub = mechanisms.TruncatedLaplace(eps, delta).amplitude()
            t1, t4, t5 = (_printed_cell(t, eps, delta) for t in ("table01", "table04", "table05"))
            bounds = causes._cell_accuracy(b_ub, t1, t4, t5)
            o = _thesis_o(b_ub, t4)
            lb = b_ub - t1 / 100 * max(o, 1.0)
            base = values(b_ub, lb, o)
            for opt in np.linspace(min(o - 0.005, o / 1.005), max(o + 0.005, o / 0.995), 81):
                if abs(o - opt) > 0.005 * max(1.0, opt):
                    continue
                for table, value in values(b_ub, lb, opt).items():
                    assert abs(value - base[table]) <= bounds[table][0] + 1e-9, (eps, delta, table)
    # one Accuracy per (table, cell) with a non-zero bound, matched by its own claim only
    accuracy = causes.ACCURACY
    cells = [(e, d) for e in synthetic.EPSILONS for d in synthetic.DELTAS]
    claims = [f"Table 4 at (eps, delta) = ({e:g}, {d:g}) [%]" for e, d in cells]
    import pandas as pd

    for claim in claims:
        row = pd.Series({"item": "table04", "claim": claim})
        assert sum(a.matches(row) for a in accuracy) == 1, claim
    fitted = "Table 1 at (eps, delta) = (0.005, 0.005) [%] (fitted n rule)"
    fitted = pd.Series({"item": "table01", "claim": fitted})
    assert not any(a.matches(fitted) for a in accuracy)  # the fitted rows are never re-judged
    at = pd.Series({"item": "table04", "claim": "Table 4 at (eps, delta) = (1, 0.1) [%]"})
    (rule,) = [a for a in accuracy if a.matches(at)]
    # 0.5 pp at O = 0.6859 < 1 (0.005 max{1, opt}), plus half a unit of the printed digit
    assert rule.rtol * 5.10 == pytest.approx(0.5 + 0.005, rel=1e-9)
    assert "max{1, D}" in rule.location and "L871" in rule.location


def test_gaussian_mixtures_registered_nonprivate_cells_are_the_audits():
    """The registry's non-private cells of Table 8 are exactly the multi-Gaussian cells that the paper-scale
    audit (figures/gaussian_mixtures/audit_tables07_08.csv) finds not (eps, delta)-DP."""
    import pandas as pd

    from safeguarded.gaussian_mixtures import causes
    from safeguarded.paths import REPO_ROOT

    audit = pd.read_csv(REPO_ROOT / "figures" / "gaussian_mixtures" / "audit_tables07_08.csv")
    mg = audit[audit.mechanism == "MG"]
    assert len(mg) == 100
    failing = {(float(r.epsilon), float(r.delta)) for r in mg.itertuples() if not r.dp}
    assert failing == set(causes.NONPRIVATE)
    assert (mg[~mg.dp].delta_actual > mg[~mg.dp].delta).all()


def test_gaussian_mixtures_registered_l2_nonprivate_cells_are_the_audits():
    """Finding 'gm-mg-l2-nonprivate'. The registry's non-private cells of Table 14 (NONPRIVATE_L2) are exactly
    the cells whose claim "thesis's l2 MG sigma ... is (eps, delta)-DP" fails in the paper-scale run of the
    audit notebook (its committed claims fragment, section 'Reading the l2 audit'); every cell has a claim."""
    import re

    import pandas as pd

    from safeguarded.gaussian_mixtures import causes
    from safeguarded.paths import REPO_ROOT

    fragment = (
        REPO_ROOT / "figures" / "gaussian_mixtures" / "claims" / "gaussian_mixtures_audit_tables07_08.csv"
    )
    table = pd.read_csv(fragment)
    l2 = table[(table.item == "table14") & table.claim.str.startswith("thesis's l2 MG sigma at")]
    assert len(l2) == 100 and (l2.scale == "paper").all()
    assert set(l2.verdict) <= {"qualitative-ok", "qualitative-fails"}
    cells = [tuple(map(float, re.search(r"= \(([^,]+), ([^)]+)\)", c).groups())) for c in l2.claim]
    assert set(cells) == {(e, d) for e in causes.EPSILONS for d in causes.DELTAS}
    failing = {c for c, v in zip(cells, l2.verdict, strict=True) if v == "qualitative-fails"}
    assert failing == set(causes.NONPRIVATE_L2)


def test_gaussian_mixtures_table14_l2_mixture_not_private_at_2_1e4():
    """Finding 'gm-mg-l2-nonprivate', one cell fast: at (2, 1e-4) Table 14 prints 87.07 % (L3047) with K = 8
    (Table 16, L3075); the multi-Gaussian whose E X^2 that entry implies (read as 87.065 %, the end favourable
    to privacy) has delta(eps) of about 0.55, 5,000 times delta, by the audit's independent quadrature; the
    cell (2, 0.25), 15.03 % with K = 1 (L3056, L3084), passes the same check (the check can pass)."""
    from safeguarded.gaussian_mixtures import audit

    sigma = audit.implied_sigma("MG", 87.065, 2.0, 1e-4, 8, norm="l2")
    assert audit.audit_cell(2.0, 1e-4, "MG", sigma, 8)["delta_actual"] > 0.5
    sigma = audit.implied_sigma("MG", 15.025, 2.0, 0.25, 1, norm="l2")
    assert audit.audit_cell(2.0, 0.25, "MG", sigma, 1)["delta_actual"] <= 0.25 * (1 + 1e-6)


def test_robust_lr_aux_contraceptive_erm_attacked_error_depends_on_the_minimiser(data_mirror):
    """Cause 'contraceptive ERM' (underspecified). The encoded contraceptive design (nominal features one-hot
    with every level, plus a constant) has rank 18 of 22, so ERM's minimiser is not unique: adding a null
    direction of the design changes no score βᵀx (training or test rows, which share the dependency) but
    changes ‖β‖₂ and with it the attacked error. Clarabel and SCS reach the same ERM objective on the
    notebook's splits, the same error without an attack, and different errors under attack; Clarabel and
    ECOS fail on simulations 0 and 1, which SCS solves with a large ‖β‖. SCS's minimiser over all 10
    simulations lands on the printed ERM errors (44.14 / 66.19 % at alpha = 0.05 / 0.2)."""
    from safeguarded.robust_lr_aux import data, models
    from safeguarded.robust_lr_aux.losses import attacked_error
    from safeguarded.solvers import SolverError

    frame = data.raw_uci_frame("contraceptive")
    X, y = data.Encoder.fit(frame).transform(frame)
    assert np.linalg.matrix_rank(X) == X.shape[1] - 4 == 18
    errors = {"CLARABEL": [], "SCS": []}
    for sim, tr, te in _uci_splits(len(y)):
        fits = {}
        for solver in errors:
            try:
                fits[solver] = models.build_erm(X[tr], y[tr], beta_bound=100.0).fit(solver=solver)
            except SolverError:
                assert solver == "CLARABEL" and sim in (0, 1)  # the notebook's two recorded failures
                continue
            beta = fits[solver].beta
            errors[solver].append([100 * attacked_error(beta, X[te], y[te], a) for a in (0, 0.05, 0.2)])
        if len(fits) == 2:
            assert fits["SCS"].objective == pytest.approx(fits["CLARABEL"].objective, abs=1e-5)
            assert errors["SCS"][-1][0] == pytest.approx(errors["CLARABEL"][-1][0])  # no attack: same error
    clarabel, scs = np.array(errors["CLARABEL"]), np.array(errors["SCS"])
    assert len(clarabel) == 8 and len(scs) == 10
    assert scs[2:, 2].mean() - clarabel[:, 2].mean() > 4.0  # same simulations, same objective: 7 pp apart
    assert abs(scs[:, 1].mean() - 44.14) < 3.0 and abs(scs[:, 2].mean() - 66.19) < 3.0


# --------------------------------------------------------------------------------------------------
# atr and routing (the papers)


def _mary(rate: float):
    """Mary's good branch of (1)-(5) (d12 = d22 - 0.5) with the census shares of Table 1 and female rate."""
    from safeguarded.atr.attacks import invert_fairness_report
    from safeguarded.atr.table import table1

    census = table1()["census"].to_numpy().reshape(2, 3)
    return invert_fairness_report(census, [rate, 0.1], [0, 0.5, 0]).set_index("branch").loc["d12 = d22 - b"]


def test_atr_mary_printed_values_follow_from_the_rate_0_01333():
    """atr's §3.3 cause: the printed d12 = 0.0088 and d13 = 1.0692 (L160) are what the 2x2 system gives with
    the female approval rate 0.01333 (2/150 to four significant figures), to their printed digits; neither
    the 0.0133 printed in (1) (ours) nor the exact 2/150 ('unrounded rates', the cause this replaces: 0.0090,
    1.0684) nor 0.013333 gives them. The clipped 0.0013 is 0.01333 - 0.012, the numerator of the same rate."""
    printed = (0.0088, 1.0692)

    def matches(rate):
        good = _mary(rate)
        return abs(good.d12 - printed[0]) <= 5e-5 and abs(good.d13 - printed[1]) <= 5e-5

    assert matches(0.01333)
    for rate in (0.013, 0.0133, 0.013333, 2 / 150):  # the premise broken: any other rounding misses
        assert not matches(rate), rate
    assert round(_mary(2 / 150).d13, 4) == 1.0684 and round(_mary(0.0133).d13, 4) == 1.0763
    assert round(0.01333 - 0.012, 4) == 0.0013 and round(_mary(0.01333).d12_clipped, 4) == 0.0233
    # finding 'atr-mary': whatever the rate, (1) with d13 = 1 gives d12 = 0.023 +- 0.001, not 0.0013
    for rate in (0.0133, 0.01333, 2 / 150):
        assert abs(_mary(rate).d12_clipped - 0.0013) > 0.02


def test_routing_table1_price_of_privacy_is_far_above_the_printed(data_mirror):
    """Finding 'routing-table1'. On Sioux Falls, Algorithm 1 (N = 50 days, alpha = 1e4, beta from the data,
    C = beta, T = 60, the notebook's seed 0) and the Gaussian mechanism calibrated as stated at the cell with
    the least noise of Table 1, (eps, delta) = (0.5, 0.5), sigma = 0.045: two noise draws raise the cost
    F_hat(x_alg, mean) over F_hat(x_N, mean) by more than 50 %, 10,000 times the printed 0.00205 % (L499).
    Were the printed price of privacy Algorithm 1's, this would fail. The premise broken: with the noise
    10,000 times smaller than stated the same measure stays below 1 %: the check is not met by any noise."""
    from safeguarded.experiments import rng_for
    from safeguarded.routing import costs, dp_sgd
    from safeguarded.routing import experiments as rexp

    n_days, alpha = 50, rexp.PAPER["alpha"]
    net, q, days, beta, res, _ = rexp._run_alg1("paper", n_days, 2.0, 1.0, alpha, "data", 0.1, 0.1, 0)
    mean, c = days.mean(axis=0), net.free_flow
    cost_n = costs.travel_cost(res.x_N, mean, q, c)
    s = dp_sgd.sensitivity_bound(beta, alpha, beta, n_days, 1.0 / rexp.PAPER["T"])
    sigma = dp_sgd.gaussian_sigma(s, 0.5, 0.5)
    assert s == pytest.approx(1 / 60) and sigma == pytest.approx(0.0451, abs=1e-4)

    def increase(scale: float) -> list[float]:
        xs = [dp_sgd.privatize(res.x_N, scale, net, rng_for(0, 3, 2, 1, r)) for r in range(2)]
        return [100 * (costs.travel_cost(x, mean, q, c) / cost_n - 1) for x in xs]

    assert min(increase(sigma)) > 50 > 10_000 * 0.00205
    assert max(increase(sigma * 1e-4)) < 1


def test_routing_printed_beta_is_the_sec34_bound_not_the_eigenvalue(data_mirror):
    """Finding 'routing-beta'. On Sioux Falls (TNTP, q = c/cap) lambda_max(B^T Q B) = 9.94e5, 21 times below
    the printed beta = 2.08e7 (L472), and the veh/h -> per-minute conversion moves it the other way (60 times
    smaller still); the Sec. 3.4 bound n^2 max q lambda_max^2 + alpha/2 is within 7 % of the printed value.
    Were the printed beta the eigenvalue, the first assertion would fail (the eigenvalue itself is checked
    against explicit matrices in tests/test_routing.py)."""
    from safeguarded.routing import experiments as rexp

    rows = {r["convention"]: r["beta"] for r in rexp.beta_units_table(rexp.load_instance("paper"))}
    eigen = rows["lambda_max(B^T Q B), as given"]
    assert eigen == pytest.approx(9.94e5, rel=1e-3) and 2.08e7 / eigen > 20
    assert rows["lambda_max(B^T Q B), veh/h -> per minute"] < eigen
    bound = rows["Sec. 3.4 bound n^2 max q lambda_max^2 + alpha/2, as given"]
    assert bound == pytest.approx(2.08e7, rel=0.07)


# --------------------------------------------------------------------------------------------------
# convex_max (thesis §5)


def test_convex_max_table41_lower_bound_depends_on_the_tied_maximiser(data_mirror):
    """Cause 'Table 41 lower bounds' (underspecified, authors-code). Each scenario of Algorithm 12 (129) is a
    maximiser of a linear function over the product of the blocks' simplices; at our decision rule V of
    (124) hundreds of blocks tie. Taking the last tied maximiser instead of the first (ours) changes the
    lower bound of P3 from 1,069.33 to 1,057.56 and of P12 from 3,348.99 (the printed value) to 3,333.38:
    the printed digits of a lower bound depend on a choice the thesis does not state. Both are valid bounds
    (objectives at feasible points, below Theorem 21's UB). Were the LB a function of the instance and V
    alone, the two rules would agree."""
    from safeguarded.convex_max import load_instance
    from safeguarded.convex_max.functions import block_argmax
    from safeguarded.convex_max.polyhedron import scenario_lower_bound, summax_scenarios, summax_upper_bound
    from safeguarded.convex_max.thesis import TABLE41, sig5_tolerance

    for name, first_lb, last_lb in (("P3", 1069.334, 1057.561), ("P12", 3348.994, 3333.383)):
        inst = load_instance("table41", name)
        ub = summax_upper_bound(inst)
        V = ub.V
        X2 = inst.A - V.T @ inst.D
        objectives = ([V.T @ inst.d + inst.b] + [X2[:, i] for i in range(inst.n)]
                      + [-V[i] for i in range(inst.q)])
        tied = sum(int(((c.reshape(inst.K, inst.J) >= c.reshape(inst.K, inst.J).max(axis=1, keepdims=True)
                         - 1e-9).sum(axis=1) > 1).sum()) for c in objectives)
        first = scenario_lower_bound(inst, summax_scenarios(inst, ub)).value
        last_tied = [block_argmax(c, inst.J, inst.K, tie="last") for c in objectives]
        last = scenario_lower_bound(inst, last_tied).value
        assert tied > 100
        assert first == pytest.approx(first_lb, abs=1e-2) and last == pytest.approx(last_lb, abs=1e-2)
        assert max(first, last) <= ub.value + 1e-6
        assert abs(first - last) > 100 * sig5_tolerance(TABLE41[name]["lower"])  # far beyond the digits

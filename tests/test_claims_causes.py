"""The cause registries of the works (claims protocol v2) and the checks their work-errors and findings name.

Each work's tests live in their own functions (several registries are written at the same time).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from safeguarded import judging
from safeguarded.paths import REPO_ROOT

_TEST = re.compile(r"tests/([\w./-]+\.py)::(\w+)")
_SECTION = re.compile(r"notebooks/([\w.-]+\.ipynb)#([\w.-]+)")


def _slug(heading: str) -> str:
    text = re.sub(r"[^\w\s-]", "", heading.strip().lstrip("#").strip().lower())
    return re.sub(r"[\s-]+", "-", text).strip("-")


def _unresolved(text: str) -> list[str]:
    """The test ids and notebook sections named in ``text`` that do not exist."""
    missing = []
    for path, name in _TEST.findall(text):
        file = REPO_ROOT / "tests" / path
        if not file.is_file() or not re.search(rf"^def {name}\(", file.read_text(), re.M):
            missing.append(f"tests/{path}::{name}")
    for notebook, section in _SECTION.findall(text):
        file = REPO_ROOT / "notebooks" / notebook
        cells = json.loads(file.read_text())["cells"] if file.is_file() else []
        heads = {
            _slug(line)
            for c in cells
            if c["cell_type"] == "markdown"
            for line in "".join(c["source"]).splitlines()
            if line.startswith("#")
        }
        if section not in heads:
            missing.append(f"notebooks/{notebook}#{section}")
    return missing


# --------------------------------------------------------------------------------------------------
# wasserstein_mixed and robust_lr_aux (thesis §3-§4)

_S34 = ("wasserstein_mixed", "robust_lr_aux")


@pytest.mark.parametrize("work", _S34)
def test_s34_registry_is_valid_and_names_existing_checks(work):
    causes, findings, _ = judging.registry(work)
    assert causes, f"{work} has no cause registry"
    ids = {f.id for f in findings}
    for cause in causes:
        assert cause.cause in judging.CAUSES
        assert not judging._evidence_problem(cause.cause, cause.evidence), cause.why
        # a guess is 'unexplained', never a cause
        assert "likely" not in cause.why and "probably" not in cause.why, cause.why
        for pattern in (cause.item, cause.claim, cause.note):
            re.compile(pattern)
        assert cause.section and not _unresolved(cause.section), (cause.why, cause.section)
        if cause.cause == "work-error":
            assert _TEST.search(cause.evidence) or _SECTION.search(cause.evidence), cause.why
            assert cause.finding in ids, cause.why
        assert not _unresolved(cause.evidence), (cause.why, _unresolved(cause.evidence))
    for finding in findings:
        assert _TEST.search(finding.evidence) or _SECTION.search(finding.evidence), finding.id
        assert not _unresolved(finding.evidence), finding.id


def test_s34_registry_rules_match_the_rows_they_are_meant_for():
    """Each rule is reached by the rows it was written for, and the first-match order does not shadow one."""
    import pandas as pd

    cases = {
        "wasserstein_mixed": [
            ("fig14", "mean |c| of the extra atom, eps = 0.85", "underspecified"),
            ("table20", "suboptimality of piece[25] exceeds 0.1% on some instance", "scale"),
            ("table24", "fire half Nom", "substitute-data"),
            ("table25", "imports full r-MixF(K)", "substitute-data"),
            ("table21", "primary-tumor full r-MixF(K)", "unexplained"),
            ("table23", "lymphography half MixF(K)", "scale"),
            ("table23", "spect full r-Nom", "scale"),
        ],
        "robust_lr_aux": [
            ("table30", "ecoli, alpha=0.2: ERM error (%)", "work-error"),
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

    table = judging.judge(claims.collect())
    table = table[table["work"].isin(_S34)]
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


def _ecoli_errors(frame, standardise: bool, sims: int = 20) -> dict:
    from safeguarded.robust_lr_aux import data, models
    from safeguarded.robust_lr_aux.losses import attacked_error

    enc = data.Encoder.fit(frame)
    if not standardise:  # ecoli's features on their UCI [0, 1] scale (the constant column kept)
        enc.means, enc.stds = np.zeros_like(enc.means), np.ones_like(enc.stds)
    n_tr, _, n_te = data.uci_split_sizes(len(frame))
    out = {key: [] for key in ("ERM 0", "ERM 0.05", "ARO 0.2")}
    for sim in range(sims):
        perm = np.random.default_rng(2000 + sim).permutation(len(frame))
        X, y = enc.transform(frame.iloc[perm[n_te : n_te + n_tr]])
        Xt, yt = enc.transform(frame.iloc[perm[:n_te]])
        erm = models.build_erm(X, y, beta_bound=100.0).fit(solver="CLARABEL")
        aro = models.build_aro(X, y, beta_bound=100.0).fit(solver="CLARABEL", alpha=0.2)
        out["ERM 0"].append(100 * attacked_error(erm.beta, Xt, yt, 0.0))
        out["ERM 0.05"].append(100 * attacked_error(erm.beta, Xt, yt, 0.05))
        out["ARO 0.2"].append(100 * attacked_error(aro.beta, Xt, yt, 0.2))
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

"""The site generator's pieces (the built site itself is checked in a browser by test_site_browser.py)."""

from __future__ import annotations

import json

import pytest

from safeguarded import site


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"paper_value": "67.44", "reproduced_value": "67.4391", "tolerance": "0.005"}, 0.0009 / 0.005),
        ({"paper_value": "0.078", "reproduced_value": "0.1", "tolerance": ""}, 0.022),  # absolute
        ({"paper_value": "almost all", "reproduced_value": "1.00", "tolerance": ""}, None),
        ({"paper_value": "1,200", "reproduced_value": "1190", "tolerance": "5"}, 2.0),
        ({"paper_value": "nan", "reproduced_value": "1", "tolerance": "1"}, None),
    ],
)
def test_deviation_in_units_of_the_tolerance(row, expected):
    value = site.deviation(row)
    assert value == pytest.approx(expected) if expected is not None else value is None


def test_links_to_repository_files_become_text_and_web_links_stay():
    text = "see [`figures/CLAIMS.md`](figures/CLAIMS.md), [the data](data/README.md), [arXiv](https://arxiv.org)"
    out = site.local_links_to_text(text)
    assert "](figures" not in out and "](data" not in out
    assert "`figures/CLAIMS.md`" in out and "the data (`data/README.md`)" in out
    assert "[arXiv](https://arxiv.org)" in out
    assert site.local_links_to_text("[p](claims.md)", keep=lambda t: t == "claims.md") == "[p](claims.md)"


def test_readme_sections_shift_headings(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\n## Install and run\n\ntext [x](a/b.md)\n\n### Sub\n\n## Other\n\nno\n")
    out = site.readme_sections(("Install and run",), readme)
    assert out.startswith("### Install and run") and "#### Sub" in out and "no" not in out
    assert "x (`a/b.md`)" in out


def _nb(outputs: bool) -> dict:
    cell = {"cell_type": "code", "source": "1", "metadata": {}, "execution_count": None,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}] if outputs else []}
    return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_choose_notebook_prefers_committed_outputs_then_paper_then_smoke(tmp_path):
    source = tmp_path / "rldp_x.ipynb"
    build = tmp_path / "build"
    source.write_text(json.dumps(_nb(False)))
    assert site.choose_notebook(source, build)[1] == "not executed"
    for scale in ("smoke", "paper"):
        (build / scale / "notebooks").mkdir(parents=True)
        (build / scale / "notebooks" / source.name).write_text(json.dumps(_nb(True)))
    nb, origin = site.choose_notebook(source, build)
    assert origin == "paper" and "paper-scale run" in nb["cells"][0]["source"]
    (build / "paper" / "notebooks" / source.name).unlink()
    nb, origin = site.choose_notebook(source, build)
    assert origin == "smoke" and "smoke-scale numbers" in nb["cells"][0]["source"]
    source.write_text(json.dumps(_nb(True)))
    assert site.choose_notebook(source, build)[1] == "committed"


def test_claims_page_embeds_every_row_safely():
    rows = [{"work": "rldp", "item": "fig02", "claim": "a </script> b", "paper_value": "1",
             "reproduced_value": "2", "tolerance": "0.5", "verdict": "deviates"},
            {"work": "atr", "item": "t1", "claim": "c", "paper_value": "x", "reproduced_value": "y",
             "tolerance": "", "verdict": "qualitative-ok"}]
    page = site.claims_page(rows)
    payload = page.split('<script id="claims-data" type="application/json">')[1].split("</script>")[0]
    data = json.loads(payload)
    assert [r["claim"] for r in data["rows"]] == ["a </script> b", "c"]
    assert data["rows"][0]["deviation"] == pytest.approx(2.0) and data["rows"][1]["deviation"] is None
    assert '<option value="deviates">' in page and '<option value="rldp">' in page


def test_summary_counts_per_verdict():
    rows = [{"work": "rldp", "verdict": "reproduced"}, {"work": "rldp", "verdict": "deviates"},
            {"work": "atr", "verdict": "reproduced"}]
    table = site.summary_table(rows, ["rldp", "atr"], link=False)
    lines = table.splitlines()
    assert lines[0] == "| work | notebooks | reproduced | deviates | claims |"
    assert lines[2].endswith("| 1 | 1 | 2 |") and lines[3].endswith("| 1 | 0 | 1 |")

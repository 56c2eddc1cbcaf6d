"""The site generator's pieces (the built site itself is checked in a browser by test_site_browser.py)."""

from __future__ import annotations

import json
import re

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
             "reproduced_value": "2", "tolerance": "0.5", "verdict": "deviates", "note": "n"},
            {"work": "atr", "item": "t1", "claim": "c", "paper_value": "x", "reproduced_value": "y",
             "tolerance": "", "verdict": "qualitative-ok", "note": ""}]
    page = site.claims_page(rows)
    payload = page.split('<script id="claims-data" type="application/json">')[1].split("</script>")[0]
    data = json.loads(payload)
    values = data["values"]  # columns repeated on many rows are dictionary-encoded (claims.js decodes)
    decoded = [[values[str(i)][v] if str(i) in values else v for i, v in enumerate(r)] for r in data["rows"]]
    table = [dict(zip(data["columns"], r, strict=True)) for r in decoded]
    assert [r["claim"] for r in table] == ["a </script> b", "c"]
    assert table[0]["deviation"] == pytest.approx(2.0) and table[1]["deviation"] is None
    # the note is shown right after the verdict (not off-screen after runs and locations)
    assert data["columns"].index("note") == data["columns"].index("verdict") + 1
    assert data["order"]["verdict"] == ["deviates", "qualitative-ok"]
    # one filter per column present: no cause column, no cause filter (claims protocol v1)
    assert 'data-column="work"' in page and 'data-column="verdict"' in page
    assert 'data-column="cause"' not in page
    with_cause = site.claims_page([dict(r, cause="scale") for r in rows])
    assert 'data-column="cause"' in with_cause
    many = [dict(rows[1], claim=f"c{i}", runs="the same long text " * 20) for i in range(50)]
    data = json.loads(site.claims_page(many).split('type="application/json">')[1].split("</script>")[0])
    runs = str(data["columns"].index("runs"))
    assert data["values"][runs] == ["the same long text " * 20]
    assert {r[int(runs)] for r in data["rows"]} == {0}
    assert str(data["columns"].index("claim")) not in data["values"]  # distinct on every row: as is
    assert "vendor/datatables/dt_bundle.css" in page and '<script src="_static/claims.js">' in page
    # classic scripts only: a module (type="module", import) is refused on a page opened from disk
    assert f'<script src="_static/vendor/datatables/{site.DATATABLES_CLASSIC}">' in page
    assert 'type="module"' not in page


def _claim(work, verdict, reference="printed", scale="paper", note=""):
    return {"work": work, "item": "t1", "claim": "c", "reference": reference, "location": "",
            "paper_value": "1", "reproduced_value": "1", "tolerance": "0.5", "verdict": verdict,
            "scale": scale, "runs": "", "solver": "", "note": note}


def test_summary_counts_printed_numbers_as_the_readme():
    from safeguarded.claims import FITTED_PREFIX

    rows = [_claim("rldp", "reproduced"), _claim("rldp", "deviates"),
            _claim("rldp", "reproduced", scale="smoke"),  # smoke rows are not counted
            _claim("rldp", "reproduced", note=FITTED_PREFIX + " x"),  # nor fitted ones
            _claim("rldp", "qualitative-ok", reference="qualitative"),
            _claim("atr", "inconclusive")]
    table = site.summary_table(rows, ["rldp", "atr"], link=False)
    header, _, first, second = table.splitlines()
    cells = lambda line: [c.strip() for c in line.strip("|").split("|")]  # noqa: E731
    rldp = dict(zip(cells(header), cells(first), strict=True))
    atr = dict(zip(cells(header), cells(second), strict=True))
    assert (rldp["work"], rldp["printed reproduced"], rldp["printed deviates"]) == ("`rldp`", "1", "1")
    assert rldp["fitted (not counted)"] == "1" and rldp["claims"] == "5"
    assert rldp["qualitative ok / fails / inconclusive"] == "1 / 0 / 0"
    assert atr["printed inconclusive"] == "1" and atr["printed reproduced"] == "0"
    assert site.summary_table([], ["rldp"]) == "No claims yet."


def test_verdict_in_words_is_the_part_before_the_rows(tmp_path):
    work = tmp_path / "routing"
    work.mkdir()
    (work / "CLAIMS.md").write_text("# Claims: routing\n\n## Verdict\n\nReproduces in part; see "
                                    "[the notebook](../../notebooks/routing_fig1.ipynb#fig-1) and "
                                    "[docs](../../docs/claims.md), [all](../CLAIMS.md), [x](../../src/a.py); "
                                    "| 3 | notebooks/routing_fig3_table2.ipynb#table-2 |\n\n"
                                    + site.ROWS_MARKER
                                    + "\n\n| item | verdict |\n|---|---|\n| fig01 | deviates |\n")
    words = site.verdict_in_words("routing", tmp_path)
    assert words.startswith("## Verdict") and "Reproduces in part" in words
    assert "| fig01 |" not in words and "# Claims" not in words  # no rows, no title
    assert "[all](../claims-report.md)" in words and "x (`../../src/a.py`)" in words  # no broken link
    assert "[notebooks/routing_fig3_table2.ipynb#table-2](routing_fig3_table2.ipynb#table-2)" in words
    assert "](routing_fig1.ipynb#fig-1)" in words and "[docs](../claims.md)" in words
    (work / "CLAIMS.md").write_text("# Claims\n\n| item | verdict |\n|---|---|\n| fig01 | deviates |\n")
    assert site.verdict_in_words("routing", tmp_path) == ""  # no marker (protocol v1): nothing of it
    assert site.verdict_in_words("atr", tmp_path) == ""


def test_notebook_outputs_lose_the_machine_prefix_of_repository_paths():
    nb = {"cells": [{"cell_type": "code", "source": "", "metadata": {}, "outputs": [
        {"output_type": "stream", "name": "stderr",
         "text": ["/work/main/.venv/lib/python3.11/site-packages/joblib/x.py:787: UserWarning\n"]},
        {"output_type": "execute_result", "metadata": {}, "data": {
            "text/plain": "{'png': PosixPath('/home/u/clone/figures/routing/fig01.png')}"}}]}]}
    out = site.without_machine_paths(nb)["cells"][0]["outputs"]
    assert out[0]["text"] == [".venv/lib/python3.11/site-packages/joblib/x.py:787: UserWarning\n"]
    assert out[1]["data"]["text/plain"] == "{'png': PosixPath('figures/routing/fig01.png')}"


def test_compared_tables_are_found_and_mapped(tmp_path):
    from safeguarded.claims import FITTED_PREFIX

    def row(e, d, verdict="reproduced", **extra):
        return {"work": "dp_noise", "item": "table01",
                "claim": f"Table 1 at (eps, delta) = ({e:g}, {d:g}) [%]", "reference": "printed",
                "scale": "paper", "paper_value": "1.0", "reproduced_value": "1.001",
                "tolerance": "0.005", "verdict": verdict, "note": "", **extra}

    grid = [row(e, d) for e in (0.1, 1, 5) for d in (0.01, 0.5)]
    fitted = "Table 1 at (eps, delta) = (0.1, 0.01) [%] (fitted n rule)"
    noise = [row(0.1, 0.01, note=FITTED_PREFIX + "x", claim=fitted),
             dict(row(0.1, 0.01), scale="smoke", item="table05"),
             dict(row(9, 9), item="table04")]  # not counted, or too few
    maps = site.map_images(grid + noise, "dp_noise", tmp_path / "out", cache=tmp_path / "cache")
    assert [(item, title, png.name) for item, title, png in maps] == [
        ("table01", "6 cells, epsilon × delta", "table01_map.png")]
    first = maps[0][2].read_bytes()
    assert first.startswith(b"\x89PNG") and len(list((tmp_path / "cache").iterdir())) == 1
    again = site.map_images(grid + noise, "dp_noise", tmp_path / "again", cache=tmp_path / "cache")
    assert again[0][2].read_bytes() == first  # copied from the cache, not redrawn
    assert site.map_images(grid[:5], "dp_noise", tmp_path, cache=None) == []  # fewer than 6 cells
    assert site.map_images(grid, "rlt", tmp_path, cache=None) == []


# --------------------------------------------------------------------------------------------------
# from a claims row to the notebook section that computed it, and back


def test_claim_anchors_are_slugs_of_the_items_alone():
    ids = site.claim_anchors(["table02", "Sec. 3.2", "Lemma 6", "Sec. 3.2"])
    assert ids == {"table02": "claim-table02", "Sec. 3.2": "claim-sec-3-2", "Lemma 6": "claim-lemma-6"}
    clash = site.claim_anchors(["Fig. 2", "fig-2", "§"])  # one slug for two items, or none: a hash too
    assert len(set(clash.values())) == 3 and all(re.fullmatch(r"claim-[a-z0-9-]+", v) for v in clash.values())
    assert clash == site.claim_anchors(["Fig. 2", "fig-2", "§"])


def _cells(*specs) -> dict:
    cells = [{"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": text,
              **({"outputs": [], "execution_count": i + 7} if kind == "code" else {})}
             for i, (kind, text) in enumerate(specs)]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _inserted(nb: dict) -> list[tuple[int, str]]:
    return [(i, c["source"]) for i, c in enumerate(nb["cells"]) if str(c.get("id", "")).startswith("site-")]


def test_anchors_go_where_an_item_is_first_computed_and_the_claims_link_under_the_claims_cell():
    nb = _cells(("markdown", "# Title"), ("code", "import x"), ("markdown", "## Table 2"),
                ("code", 'table2 = run(name="w/table2")\nsave_table(t, "w", "table02")'),
                ("code", 'fig = save_figure(f, "fig01")'),
                ("markdown", "## Claims"),
                ("code", 'claims.printed("table02", ...)\nfor k in K:\n    claims.printed(f"table{k}", ...)\n'
                         "claims.save()\nclaims.summary()"))
    places = site.anchor_cells(nb, ["table02", "fig01", "table03"])
    # the markdown introducing the first code cell naming the item; a code cell right after code; else
    # the claims cell (an item only an f-string makes), under its heading
    assert places == {"table02": 2, "fig01": 4, "table03": 5}
    assert site.claims_cell(nb) == 6
    out = site.with_claim_links(nb, "w_table2", ["table02", "fig01", "table03"], count=12)
    inserted = _inserted(out)
    assert [i for i, _ in inserted] == [2, 5, 7, 10]
    assert 'id="claim-table02"' in inserted[0][1] and 'id="claim-fig01"' in inserted[1][1]
    assert 'id="claim-table03"' in inserted[2][1] and 'data-item="table03"' in inserted[2][1]
    assert out["cells"][9]["source"].endswith("claims.summary()")  # the claims cell, then the link back
    assert 'href="../claims-report.html#source=w_table2"' in inserted[3][1] and "12 claims" in inserted[3][1]
    assert [c for c in out["cells"] if not c["id"].startswith("site-")] == nb["cells"]  # nothing else changes
    assert site.with_claim_links(nb, "w_table2", []) is nb


def test_anchors_are_stable_across_renders():
    """The same anchors, in the same places, whatever the execution counts and outputs of the run."""
    nb = _cells(("markdown", "## A"), ("code", 'x = f("table01")'), ("code", "claims.save()"))
    rerun = json.loads(json.dumps(nb))
    for n, cell in enumerate(c for c in rerun["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = 100 + n
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"run {n}\n"}]
    first = site.with_claim_links(nb, "w_a", ["table01"])
    assert _inserted(first) == _inserted(site.with_claim_links(rerun, "w_a", ["table01"]))
    again = site.with_claim_links(json.loads(json.dumps(nb)), "w_a", ["table01"])
    assert _inserted(first) == _inserted(again)


def test_every_claims_row_links_to_an_anchor_of_its_notebook_page():
    """On the repository's report: each row's link names a notebook page the site renders and an anchor
    the site puts on it (twice, from two loads: the same), and names the notebook's stored sweeps."""
    from safeguarded.notebooks import notebooks_of
    from safeguarded.paths import REPO_ROOT, WORKS

    rows = site.read_claims()
    if not rows:
        pytest.skip("no claims report yet (make claims)")
    found = site.fragments()
    links = site.claim_links(rows, found=found)
    pages = {p.stem for w in WORKS for p in notebooks_of(w)}
    sweeps = site.notebook_sweeps()
    ids = {}
    for notebook, (_, pairs) in found.items():
        assert notebook in pages, f"a fragment without a notebook page: {notebook}"
        items = [item for item, _ in pairs]
        placed = []
        for _ in range(2):  # two site copies of the notebook
            nb = json.loads((REPO_ROOT / "notebooks" / f"{notebook}.ipynb").read_text(encoding="utf-8"))
            placed.append(_inserted(site.with_claim_links(nb, notebook, items)))
        assert placed[0] == placed[1]
        ids[notebook] = set(re.findall(r'id="([^"]+)"', "".join(text for _, text in placed[0])))
        assert any(f"claims-report.html#source={notebook}" in text for _, text in placed[0]), notebook
    broken, unnamed = [], []
    for row, link in zip(rows, links, strict=True):
        if not link["source"]:  # a statement of a ledger: no notebook computed it, and the row says so
            assert link["sweeps"] in (site.LEDGER_SOURCE.format(work=row["work"]), site.NO_NOTEBOOK)
            continue
        page, anchor = link["link"].split("#")
        if page != f"works/{link['source']}.html" or anchor not in ids[link["source"]]:
            broken.append(f"{row['work']}/{row['item']}: {link['link']}")
        if link["sweeps"] != sweeps.get(link["source"], site.NO_SWEEP) or not link["sweeps"]:
            unnamed.append(link["source"])
    assert not broken, broken[:10]
    assert not unnamed, sorted(set(unnamed))
    assert sum(bool(link["source"]) for link in links) > len(rows) / 2


def test_sweeps_are_named_with_version_and_cells_or_said_to_be_none(tmp_path):
    (tmp_path / "claims_sweeps.csv").write_text(
        "work,notebook,items,sweeps\n"
        "routing,routing_fig2_table1,fig02,routing/alg1 v1 (75 / 75 cells stored)\n"
        "rldp,rldp_fig2,fig02,none recorded\n")
    assert site.notebook_sweeps(tmp_path) == {"routing_fig2_table1": "routing/alg1 v1 (75 / 75 cells stored)",
                                              "rldp_fig2": site.NO_SWEEP}


def test_claims_page_carries_each_rows_link_and_sweeps():
    rows = [{"work": "rldp", "item": "fig02", "claim": "c", "verdict": "reproduced"}]
    links = [{"source": "rldp_fig2", "link": "works/rldp_fig2.html#claim-fig02", "sweeps": site.NO_SWEEP}]
    page = site.claims_page(rows, links)
    data = json.loads(page.split('type="application/json">')[1].split("</script>")[0])
    row = dict(zip(data["columns"], data["rows"][0], strict=True))
    assert (row["source"], row["link"], row["sweeps"]) == ("rldp_fig2", links[0]["link"], site.NO_SWEEP)
    assert '<label>notebook <select id="claims-source" data-column="source">' in page
    with pytest.raises(ValueError):
        site.claims_page(rows, links * 2)


def test_the_datatables_module_becomes_a_classic_script():
    module = "var a=1;function b(){return a}export{b as default,a as jQuery};\n/*! licence\n*/\n"
    out = site.classic_datatables(module)
    assert "export" not in out.split("/*!")[0] and "licence" in out
    assert 'window.itablesBundle = {"default":b,"jQuery":a};' in out and "window.DataTable = " in out
    with pytest.raises(RuntimeError):
        site.classic_datatables("import x from './y.js';" + module)
    with pytest.raises(RuntimeError):
        site.classic_datatables("var a=1;")
    bundle = (site._datatables_dir() / "dt_bundle.js").read_text(encoding="utf-8")  # the one shipped
    assert "window.DataTable = window.itablesBundle.default" in site.classic_datatables(bundle)

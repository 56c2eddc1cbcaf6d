"""The reproduction's website (``make site``): built offline from the executed notebooks, never executing.

Sources are generated into ``build/site/src`` and rendered by Sphinx with myst-nb
(``nb_execution_mode = "off"``) into ``build/site/html``:

* ``index``: the nine works with the per-work claims summary of the README (printed numbers only,
  :func:`safeguarded.claims.summary_table`), computed from ``figures/claims.csv``;
* ``works/<work>``: the verdict in words (the part of ``figures/<work>/CLAIMS.md`` before its
  ``<!-- rows -->`` marker, never its rows), the work's claim counts with a link to its rows on the
  claims page, its rendered notebooks, every figure (``figures/<work>/*.png`` with its PDF and data
  CSV) and every table (``*.md`` but ``CLAIMS.md``);
* ``claims-report``: every claim in a DataTables table (paged; filters per work, item, notebook,
  reference, verdict, scale and cause; debounced search; sort by |deviation| / tolerance; the filters in
  the URL hash). Each row's item links to the section of the notebook page that computed it (a stable
  anchor, :func:`claim_anchors`) and the row names the stored sweeps (version, cells) the notebook read
  (``figures/claims_sweeps.csv``); each notebook page links back to its rows (:func:`with_claim_links`).
  DataTables is the bundle the ``itables`` package ships, copied into the site as a classic script
  (:func:`classic_datatables`): no CDN, and the page works opened from disk (``file://``) as well as
  served, its data embedded in the page;
* the claims protocol (``docs/claims.md``), further pages in ``docs/*.md``, the README's install,
  cluster and test instructions, and the measured wall times (``docs/timings.csv``).

The notebook shown for ``notebooks/<name>.ipynb`` is the committed one when it carries outputs (its
first cell names the commit and scale of the run); otherwise the newest executed copy in
``build/paper`` or ``build/smoke`` with a visible note saying so, else the code without outputs.
MathJax 3 is served from the site (the ``sphinx-mathjax-offline`` package), so pages work offline.

    python -m safeguarded.site --out build/site
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import re
import shutil
import sys
import time
from collections.abc import Sequence
from html import escape
from pathlib import Path

from safeguarded import claims as claims_module
from safeguarded.notebooks import TIMINGS, notebooks_of, timings_markdown
from safeguarded.paths import REPO_ROOT, WORKS
from safeguarded.redaction import scrub_output

DOCS = REPO_ROOT / "docs"
FIGURES = REPO_ROOT / "figures"
CLAIMS_CSV = FIGURES / "claims.csv"
README = REPO_ROOT / "README.md"
VERDICT_ORDER = ("reproduced", "deviates", "inconclusive", "qualitative-ok", "qualitative-fails")
GENERATED_PAGES = ("index", "claims-report", "install", "timings")
#: Where a work's ``CLAIMS.md`` ends its verdict in words and starts the rows (claims protocol v2).
ROWS_MARKER = getattr(claims_module, "ROWS_MARKER", "<!-- rows -->")
OVERVIEW = claims_module.OVERVIEW
#: The claims page's filters, in order (a column missing from ``claims.csv`` gets no filter; ``source``
#: is the notebook that wrote the row, added by the site).
FILTER_COLUMNS = ("work", "item", "source", "reference", "verdict", "scale", "cause")
FILTER_LABELS = {"source": "notebook"}
#: The claims page's column order: what a reader compares first, long texts wrapped after.
COLUMN_ORDER = ("work", "item", "claim", "paper_value", "reproduced_value", "tolerance", "deviation",
                "verdict", "cause", "note", "evidence", "source", "scale", "reference", "runs", "location",
                "solver")
#: The columns the site adds to each row (:func:`claim_links`): the notebook, the link to its section and
#: the stored sweeps the notebook read.
LINK_COLUMNS = ("source", "link", "sweeps")
SWEEPS_CSV = FIGURES / "claims_sweeps.csv"
NO_SWEEP = "computed in the notebook (no stored sweep)"
LEDGER_SOURCE = "not computed: a statement of the work's ledger (src/safeguarded/{work}/statements.py)"
NO_NOTEBOOK = ("no notebook's claims fragment holds this row (the report is older than the fragments: "
               "make claims)")


# --------------------------------------------------------------------------------------------------
# data


def read_claims(path: Path = CLAIMS_CSV) -> list[dict]:
    """The rows of the claims report, side tables joined (:func:`safeguarded.claims.read_report`; empty
    when it does not exist yet)."""
    if not path.is_file():
        return []
    return claims_module.read_report(path.parent).to_dict("records")


def _number(text: str) -> float | None:
    try:
        value = float(str(text).strip().replace(",", "").replace("−", "-"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def deviation(row: dict) -> float | None:
    """|ours - paper| in units of the tolerance (absolute without a tolerance); None if not numeric."""
    paper, ours = _number(row.get("paper_value", "")), _number(row.get("reproduced_value", ""))
    if paper is None or ours is None:
        return None
    tol = _number(row.get("tolerance", ""))
    diff = abs(ours - paper)
    return diff / tol if tol else diff


def verdicts_of(rows: list[dict]) -> list[str]:
    present = {r.get("verdict", "") for r in rows}
    return [v for v in VERDICT_ORDER if v in present] + sorted(present - set(VERDICT_ORDER) - {""})


def work_titles(readme: Path = README) -> dict[str, str]:
    """``{work: "Authors, *Title* (venue)"}`` from the README's table of works."""
    titles, previous = {}, ""
    for line in readme.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[1].strip("`") in WORKS and cells[1].startswith("`"):
            paper = cells[0]
            if paper.startswith("—") and ", §" in previous:  # "— §2": the same thesis, another chapter
                paper = previous.rsplit(", §", 1)[0] + ", " + paper.lstrip("— ").strip()
            previous = paper
            titles[cells[1].strip("`")] = paper + (f" — {cells[2]}" if len(cells) > 2 else "")
    return titles


def summary_table(rows: list[dict], works: list[str], link: bool = True) -> str:
    """Markdown table: the README's claims summary (:func:`safeguarded.claims.summary_table`) for
    ``works``: printed numbers reproduced / deviating / inconclusive (fitted and smoke rows not
    counted), then the fitted, recovered, derived and qualitative rows, the scales and all claims."""
    import pandas as pd

    frame = pd.DataFrame(rows).fillna("")
    frame = frame[frame["work"].isin(works)] if not frame.empty else frame
    if frame.empty:
        return "No claims yet."
    table = claims_module.summary_table(frame)
    table.insert(1, "notebooks", [len(notebooks_of(w)) for w in table["work"]])
    table["work"] = [f"[{w}](works/{w}.md)" if link else f"`{w}`" for w in table["work"]]
    return table.to_markdown(index=False)


SUMMARY_NOTE = (
    "Counted as the README and `figures/CLAIMS.md` count them: the three *printed* columns are the "
    "numbers the work prints, at paper or reduced scale, without the rows whose reproduction uses a "
    "rule fitted to the work's own numbers (*fitted (not counted)*). *recovered ok / rows* are printed "
    "numbers set beside a recovered computation (a variant the text leaves open or the authors' code or "
    "files show, judged under the printed row's rule; counted apart, the printed row keeps its verdict): "
    "reproduced / registered. *derived* rows are numbers we "
    "compute from the work's statements (not printed by it), *qualitative* rows are statements "
    "(orderings, shapes, \"holds\"), *scales* says at which scales the rows were computed, and "
    "*claims* counts every row of the [claims report](claims-report.md)."
)


def verdict_in_words(work: str, figures: Path = FIGURES) -> str:
    """The part of ``figures/<work>/CLAIMS.md`` before its rows marker (empty without the marker).

    Its title line (``# ...``) is dropped, its links to notebooks point at the notebook pages, other
    links to repository files become text.
    """
    path = figures / work / "CLAIMS.md"
    if not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8")
    if ROWS_MARKER not in text:
        return ""
    head = text.split(ROWS_MARKER, 1)[0]
    head = re.sub(r"\A\s*# [^\n]*\n", "", head).strip()
    # links to notebooks, the docs and the claims index point at their site pages
    head = re.sub(r"\]\((?:[./]*/)?notebooks/([A-Za-z0-9_]+)\.ipynb(#[^)\s]*)?\)",
                  lambda m: f"]({m.group(1)}.ipynb{m.group(2) or ''})", head)
    head = re.sub(r"(?<![(/\w])notebooks/([A-Za-z0-9_]+)\.ipynb(#[^\s|)]*)?",  # a bare path: a link
                  lambda m: f"[{m.group(0)}]({m.group(1)}.ipynb{m.group(2) or ''})", head)
    head = re.sub(r"\]\((?:\.\./)+docs/([\w-]+\.md)(#[^)\s]*)?\)",
                  lambda m: f"](../{m.group(1)}{m.group(2) or ''})" if (DOCS / m.group(1)).is_file()
                  else m.group(0), head)
    head = re.sub(r"\]\(\.\./CLAIMS\.md\)", "](../claims-report.md)", head)
    # the work's overview panel, beside its CLAIMS.md, is copied with its figures (work_page)
    head = head.replace(f"]({OVERVIEW})", f"](../figures/{work}/{OVERVIEW})")
    site_page = re.compile(r"^(?:[A-Za-z0-9_]+\.ipynb|\.\./[\w-]+\.md)(?:#.*)?$")
    return local_links_to_text(head, keep=lambda t: bool(site_page.match(t)))


# --------------------------------------------------------------------------------------------------
# from a claims row to the notebook section that computed it, and back


def fragments(figures: Path = FIGURES) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """``{notebook: (work, [(item, claim), ...])}`` from the claims fragments
    ``figures/<work>/claims/<notebook>.csv`` (each written by one notebook), in work then file order."""
    import pandas as pd

    found = {}
    for work in WORKS:
        for path in sorted((figures / work / "claims").glob("*.csv")):
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, usecols=["item", "claim"])
            found[path.stem] = (work, list(zip(frame["item"], frame["claim"], strict=True)))
    return found


def claim_anchors(items: Sequence[str]) -> dict[str, str]:
    """``{item: id}``: the id of each item's place on its notebook's page, ``claim-<slug of the item>``
    (``"Sec. 3.2"`` -> ``claim-sec-3-2``), a function of the items' texts alone (the same id on every
    render, whatever the execution counts); items whose slugs coincide get a hash of their text appended."""
    slugs = {item: re.sub(r"[^a-z0-9]+", "-", item.lower()).strip("-") for item in dict.fromkeys(items)}
    taken = list(slugs.values())

    def unique(item: str, slug: str) -> str:
        if slug and taken.count(slug) == 1:
            return slug
        return "-".join(filter(None, (slug, hashlib.sha1(item.encode("utf-8")).hexdigest()[:8])))

    return {item: "claim-" + unique(item, slug) for item, slug in slugs.items()}


#: The code cell that writes a notebook's claims fragment and shows its claims (``claims.save()``,
#: docs/claims.md §8).
_SAVES_CLAIMS = re.compile(r"\.save\(\s*\)")


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def claims_cell(nb: dict) -> int | None:
    """The index of the notebook's claims cell: the last code cell calling ``.save()`` (None if none)."""
    found = [i for i, c in enumerate(nb.get("cells", []))
             if c.get("cell_type") == "code" and _SAVES_CLAIMS.search(_source(c))]
    return found[-1] if found else None


def anchor_cells(nb: dict, items: Sequence[str]) -> dict[str, int]:
    """``{item: index}``: the cell before which each item's anchor goes. That is the first code cell whose
    source names the item as a string literal (``"table02"``: where its numbers are computed or shown),
    else the claims cell (:func:`claims_cell`, where it is registered), else the first cell; moved to
    the markdown cell right above it when there is one (the text introducing that step). Only the
    cells' sources count: the same places on every render."""
    cells = nb.get("cells", [])
    code = [(i, _source(c)) for i, c in enumerate(cells) if c.get("cell_type") == "code"]
    fallback = claims_cell(nb)
    places = {}
    for item in dict.fromkeys(items):
        quoted = (f'"{item}"', f"'{item}'")
        first = next((i for i, text in code if any(q in text for q in quoted)), fallback)
        i = first if first is not None else 0
        if i > 0 and cells[i - 1].get("cell_type") == "markdown" and cells[i - 1].get("id") != "site-note":
            i -= 1
        places[item] = i
    return places


def _html_cell(cell_id: str, html: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": html}


def claims_back_link(notebook: str, count: int) -> str:
    """The paragraph under a notebook's claims cell that links to its rows on the claims page."""
    return (f'<p class="claims-back">These {count:,} claims with their verdicts, tolerances and causes, '
            f'filterable: <a href="../claims-report.html#source={notebook}">the claims report, '
            f"{notebook} only</a>.</p>")


def with_claim_links(nb: dict, notebook: str, items: Sequence[str], count: int | None = None) -> dict:
    """The site's copy of a notebook with an anchor per claims item (:func:`claim_anchors` at
    :func:`anchor_cells`, empty ``<div id=...>``) and, under its claims cell, a link to its rows on the
    claims page (``claims-report.html#source=<notebook>``). Only the copy rendered by the site changes:
    the cells inserted are markdown holding raw HTML; code cells and outputs are untouched."""
    items = list(dict.fromkeys(items))
    if not items:
        return nb
    ids = claim_anchors(items)
    inserts: dict[int, list[dict]] = {}
    back = claims_cell(nb)
    if back is not None:
        link = claims_back_link(notebook, len(items) if count is None else count)
        inserts.setdefault(back + 1, []).append(_html_cell("site-claims-back", link))
    places = anchor_cells(nb, items)
    for index in sorted(set(places.values())):
        html = "\n".join(f'<div id="{ids[item]}" class="claim-anchor" data-item="{escape(item)}"></div>'
                         for item in items if places[item] == index)
        inserts.setdefault(index, []).insert(0, _html_cell(f"site-claim-anchor-{index}", html))
    cells = list(nb.get("cells", []))
    for index in sorted(inserts, reverse=True):
        cells[index:index] = inserts[index]
    return dict(nb, cells=cells)


def notebook_sweeps(figures: Path = FIGURES) -> dict[str, str]:
    """``{notebook: the sweeps it read}`` from ``figures/claims_sweeps.csv`` (written by ``make claims``
    from the results store: name, version and cells stored / needed, docs/claims.md §9), or
    :data:`NO_SWEEP` where none is recorded."""
    import pandas as pd

    path = figures / SWEEPS_CSV.name
    if path.is_file():
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
    else:
        table = claims_module.sweeps_table(figures)
    return {nb: (NO_SWEEP if sweeps in ("", "none recorded") else sweeps)
            for nb, sweeps in zip(table["notebook"], table["sweeps"], strict=True)}


def _ledger_keys() -> set[tuple[str, str, str]]:
    try:
        ledger = claims_module.ledger_rows()
    except Exception:  # noqa: BLE001 -- a ledger being edited: its rows are matched by item below
        return set()
    return set(zip(ledger["work"], ledger["item"], ledger["claim"], strict=True))


def claim_links(rows: list[dict], figures: Path = FIGURES,
                found: dict[str, tuple[str, list[tuple[str, str]]]] | None = None) -> list[dict]:
    """Per row of the report: ``source`` (the notebook whose fragment holds it, by work, item and claim;
    by work and item for a report older than the fragments; empty for a statement of a ledger, which no
    notebook computes), ``link`` (``works/<notebook>.html#<anchor>``, the section that computed it) and
    ``sweeps`` (:func:`notebook_sweeps`)."""
    found = fragments(figures) if found is None else found
    exact, by_item = {}, {}
    for notebook, (work, pairs) in found.items():
        for item, claim in pairs:
            exact.setdefault((work, item, claim), notebook)
            by_item.setdefault((work, item), notebook)
    anchors = {nb: claim_anchors([item for item, _ in pairs]) for nb, (_, pairs) in found.items()}
    sweeps = notebook_sweeps(figures)
    ledger = None
    links = []
    for row in rows:
        key = (row.get("work", ""), row.get("item", ""), row.get("claim", ""))
        notebook = exact.get(key)
        if notebook is None:
            ledger = _ledger_keys() if ledger is None else ledger
            if key in ledger:
                links.append({"source": "", "link": "", "sweeps": LEDGER_SOURCE.format(work=key[0])})
                continue
            notebook = by_item.get(key[:2])
        if notebook:
            links.append({"source": notebook, "link": f"works/{notebook}.html#{anchors[notebook][key[1]]}",
                          "sweeps": sweeps.get(notebook, NO_SWEEP)})
        else:
            links.append({"source": "", "link": "", "sweeps": NO_NOTEBOOK})
    return links


# --------------------------------------------------------------------------------------------------
# pages


_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def local_links_to_text(text: str, keep=lambda target: False) -> str:
    """Markdown links to repository files (not in the site) become code text: no broken links."""

    def repl(m: re.Match) -> str:
        label, target = m.group(1), m.group(2)
        if target.startswith(("http://", "https://", "mailto:", "#")) or keep(target):
            return m.group(0)
        return label if label.strip("`") == target else f"{label} (`{target}`)"

    return _LINK.sub(repl, text)


def readme_sections(names: tuple[str, ...], readme: Path = README) -> str:
    """The README's ``## <name>`` sections (with their subsections), headings shifted one level down."""
    text = readme.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?=## )", text)
    chosen = [p for p in parts if p.startswith("## ") and p[3:].strip().splitlines()[0].strip() in names]
    out = "\n".join(chosen)
    out = re.sub(r"(?m)^(#+) ", lambda m: "#" + m.group(1) + " ", out)
    return local_links_to_text(out)


def has_outputs(nb: dict) -> bool:
    return any(c.get("outputs") for c in nb.get("cells", []) if c.get("cell_type") == "code")


def note_cell(text: str) -> dict:
    return {"cell_type": "markdown", "id": "site-note", "metadata": {}, "source": text}


def without_machine_paths(nb: dict) -> dict:
    """``nb`` with every text output's absolute repository paths made relative to the repository
    (:func:`safeguarded.redaction.scrub_output`)."""
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) or []:
            scrub_output(out, REPO_ROOT)
    return nb


def choose_notebook(path: Path, build: Path) -> tuple[dict, str]:
    """The executed notebook to show for ``notebooks/<name>.ipynb`` and where it comes from."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    if has_outputs(nb):
        return nb, "committed"
    for scale in ("paper", "smoke"):
        copy = build / scale / "notebooks" / path.name
        if copy.is_file():
            executed = json.loads(copy.read_text(encoding="utf-8"))
            failed = executed.get("metadata", {}).get("papermill", {}).get("exception")
            if has_outputs(executed) and not failed:
                note = (
                    f"> **Note (site):** the committed notebook has no outputs yet; shown here is the "
                    f"{scale}-scale run in `build/{scale}/notebooks/`"
                    + (" — **smoke-scale numbers, not the paper's settings**." if scale == "smoke" else ".")
                )
                executed["cells"].insert(0, note_cell(note))
                return executed, scale
    nb["cells"].insert(0, note_cell("> **Note (site):** this notebook has not been executed yet "
                                    "(`make reproduce`); code only."))
    return nb, "not executed"


#: Drawn maps by the content they show (their cells and the plotting code): ``make site`` redraws only the
#: maps whose claims changed.
MAP_CACHE = REPO_ROOT / "build" / "map-cache"


def map_images(rows: list[dict], work: str, out: Path, cache: Path | None = MAP_CACHE
               ) -> list[tuple[str, str, Path]]:
    """Draw the reproduction map of each compared table of ``work`` into ``out``: ``(item, title, png)``
    for every table :func:`safeguarded.plotting.compared_tables` finds in the counted printed rows (not
    smoke, not fitted; see :data:`safeguarded.plotting.TABLE_KEYS`); a map drawn before from the same
    cells by the same code is copied from ``cache``."""
    import hashlib
    import inspect

    import pandas as pd

    from safeguarded import plotting

    frame = pd.DataFrame([row for row in rows if row.get("work") == work])
    if frame.empty:
        return []
    frame = frame[frame["scale"] != "smoke"]
    code = inspect.getsource(plotting).encode()
    drawn = []
    for item in plotting.compared_tables(frame, work):
        cells, row_key, column_key = plotting.table_cells(frame, item, work=work)
        title = f"{len(cells)} cells, {row_key.replace('_', ' ')} × {column_key.replace('_', ' ')}"
        out.mkdir(parents=True, exist_ok=True)
        png = out / f"{item}_map.png"
        shown = cells[["claim", "paper_value", "reproduced_value", "tolerance", "verdict"]].to_csv()
        digest = hashlib.sha256(code + f"{work}/{item}\n{shown}".encode()).hexdigest()[:20]
        cached = cache / f"{digest}.png" if cache is not None else None
        if cached is not None and cached.is_file():
            shutil.copyfile(cached, png)
        else:
            plotting.table_map(frame, item, work=work).figure.savefig(png, metadata={"Software": None},
                                                                       bbox_inches="tight")
            if cached is not None:
                cache.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(png, cached)
        drawn.append((item, title, png))
    return drawn


def work_page(work: str, title: str, rows: list[dict], books: list[str], src: Path) -> str:
    figs = FIGURES / work
    lines = [f"# {work}", "", title, ""]
    words = verdict_in_words(work)
    if words:
        lines += [words, ""]
    lines += ["## Claims", "", summary_table(rows, [work], link=False), "",
              f"Its rows, filterable and sorted by the size of the deviation: "
              f"<a href=\"../claims-report.html#work={work}\">the claims report, {work} only</a>.", ""]
    maps = map_images(rows, work, src / "figures" / work / "maps")
    if maps:
        lines += ["## Reproduction maps", "",
                  "Each table the work prints that we compare, cell by cell: the colour is (ours − work) / "
                  "tolerance "
                  "(saturating at ±3; within ±1 is within the tolerance), the mark the verdict "
                  "(✓ reproduced, ✗ deviates, ? inconclusive), the number the unclipped score. Drawn by the "
                  "site from "
                  "`figures/claims.csv` (printed claims at paper or reduced scale, fitted rows left out) "
                  "with `safeguarded.plotting.table_map` (the cells' keys read from the claim texts by the "
                  "patterns of `safeguarded.plotting.TABLE_KEYS`); the table's notebook draws the same map "
                  "under the table.", ""]
        for item, template, png in maps:
            lines += [f"### {item}: {template}", "", f"```{{image}} ../figures/{work}/maps/{png.name}",
                      f":alt: {work} {item} reproduction map", ":width: 80%", "```", ""]
    lines += ["## Notebooks", ""]
    if books:
        lines += ["```{toctree}", ":maxdepth: 1", "", *books, "```", ""]
    else:
        lines += ["No notebook yet.", ""]
    pngs = sorted(figs.glob("*.png")) if figs.is_dir() else []
    shown = [png for png in pngs if png.name != OVERVIEW]  # the overview opens the page (its verdict)
    lines += ["## Figures", ""] + ([] if shown else ["No figure yet.", ""])
    for png in shown:
        stem = png.stem
        links = [f"{{download}}`{ext.upper()} <../figures/{work}/{stem}.{ext}>`"
                 for ext in ("pdf", "csv") if (figs / f"{stem}.{ext}").is_file()]
        lines += [f"### {stem}", "", f"```{{image}} ../figures/{work}/{png.name}", f":alt: {work} {stem}",
                  ":width: 90%", "```", "", " · ".join(links), ""]
    tables = sorted(p for p in figs.glob("*.md") if p.name != "CLAIMS.md") if figs.is_dir() else []
    lines += ["## Tables", ""] + ([] if tables else ["No table yet.", ""])
    for table in tables:
        body = table.read_text(encoding="utf-8").strip()
        body = re.sub(r"(?m)^(#+) ", lambda m: "###" + m.group(1) + " ", body)
        csv_link = (f" · {{download}}`CSV <../figures/{work}/{table.stem}.csv>`"
                    if (figs / f"{table.stem}.csv").is_file() else "")
        lines += [f"### {table.stem}", "", f"`figures/{work}/{table.name}`{csv_link}", "", body, ""]
    for path in [*pngs, *tables, *figs.glob("*.pdf"), *figs.glob("*.csv")] if figs.is_dir() else []:
        (src / "figures" / work).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, src / "figures" / work / path.name)
    return "\n".join(lines)


def _dictionary_encoded(data: list[list], columns: list[str]) -> tuple[list[list], dict[str, list[str]]]:
    """``data`` with each text column whose distinct values are fewer than half its rows replaced by
    indices into ``values[<column position>]`` (the run counts, solvers and causes repeat on thousands of
    rows: the page stays small); ``_static/claims.js`` decodes them."""
    values = {}
    for i, column in enumerate(columns):
        if column == "deviation" or not data:
            continue
        distinct = list(dict.fromkeys(row[i] for row in data))
        if len(distinct) < len(data) / 2:
            values[str(i)] = distinct
    codes = {i: {v: k for k, v in enumerate(values[i])} for i in values}
    encoded = [[codes[str(i)][v] if str(i) in codes else v for i, v in enumerate(row)] for row in data]
    return encoded, values


def claims_page(rows: list[dict], links: list[dict] | None = None) -> str:
    """The claims report: DataTables over the rows (``_static/claims.js``), the data embedded as JSON (no
    request: the page works opened from disk), with each row's ``links`` (:func:`claim_links`) when given."""
    if links is not None:
        rows = [dict(row, **link) for row, link in zip(rows, links, strict=True)]
    present = [c for c in (rows[0].keys() if rows else []) if c]
    columns = [c for c in COLUMN_ORDER if c in present or c == "deviation"]
    columns += [c for c in present if c not in columns]
    data = [[deviation(r) if c == "deviation" else r.get(c, "") for c in columns] for r in rows]
    data, values = _dictionary_encoded(data, columns)
    payload = json.dumps({"columns": columns, "rows": data, "values": values,
                          "order": {"verdict": verdicts_of(rows)}},
                         ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    selects = "".join(
        f'<label>{FILTER_LABELS.get(c, c)} <select id="claims-{c}" data-column="{c}">'
        f'<option value="">all</option></select></label>'
        for c in FILTER_COLUMNS if c in present)
    sources = ("Each row's *item* links to the section of the notebook page that computed it; its "
               "*notebook* column names that notebook and the stored sweeps its numbers came from (name, "
               "version, cells stored / needed in the results store, [§9 of the protocol](claims.md)), or "
               f"says “{NO_SWEEP}”. " if "link" in present else "")
    return f"""# Claims report

Every number and statement the works make that this repository checks, beside our value, with the
verdict reached under [the claims protocol](claims.md) — generated from `figures/claims.csv`
({len(rows)} rows). Filter by work, item, notebook, reference, verdict, scale and cause, search the
text, and sort by any column; *|deviation| / tol.* is |ours − paper| divided by the tolerance (> 1
means outside it; absolute when no tolerance is stated; empty when a value is not a number).
{sources}The address bar keeps the filters: copy it to link to what you see.

```{{raw}} html
<link rel="stylesheet" href="_static/vendor/datatables/dt_bundle.css">
<div id="claims-app">
  <div class="claims-controls">
    {selects}
    <button id="claims-sort-deviation" type="button">largest |deviation| / tol. first</button>
    <button id="claims-reset" type="button">clear filters</button>
    <span id="claims-count" aria-live="polite"></span>
  </div>
  <table id="claims-table" class="claims-table display compact"></table>
  <noscript>The table needs JavaScript; the same rows are in <code>figures/claims.csv</code>.</noscript>
</div>
<script id="claims-data" type="application/json">{payload}</script>
<script src="_static/vendor/datatables/{DATATABLES_CLASSIC}"></script>
<script src="_static/claims.js"></script>
```
"""


def index_page(rows: list[dict], titles: dict[str, str], extra: list[str], overview: bool = False) -> str:
    works_table = ["| work | paper |", "|---|---|"]
    for work in WORKS:
        works_table.append(f"| [{work}](works/{work}.md) | {titles.get(work, '')} |")
    pages = [f"works/{w}" for w in WORKS] + ["claims-report", *extra, "install", "timings"]
    return "\n".join([
        "# Reproducing privacy- and robustness-safeguarded optimization", "",
        "Reproductions, with independent checks, of the figures and tables of nine works. Every number "
        "on this site is computed by the repository's code; the works' own values appear only as "
        "references in the [claims report](claims-report.md). The notebooks are shown with the outputs "
        "of the run named in their first cell (commit and scale); nothing is executed to build the site.",
        "", *([f"![The claims at a glance: every printed number, ours against the work's, and the verdicts "
               f"per work](figures/{OVERVIEW})", "", claims_module.OVERVIEW_CAPTION, ""] if overview else []),
        "## The nine works", "", *works_table, "",
        "## Claims per work (generated from `figures/claims.csv`)", "",
        summary_table(rows, list(WORKS)) if rows else "No claims report yet (`make claims`).", "",
        SUMMARY_NOTE, "",
        "```{toctree}", ":hidden:", ":maxdepth: 1", "", *pages, "```", "",
    ])


def timings_page() -> str:
    rows = []
    if TIMINGS.is_file():
        with open(TIMINGS, newline="") as f:
            rows = list(csv.DictReader(f))
    return "\n".join(["# Wall times", "",
                      "Measured by the runner (`build/<scale>/timings.csv`, merged into `docs/timings.csv` "
                      "by `make timings`).", "",
                      timings_markdown(rows) if rows else "No timings recorded yet.", ""])


# --------------------------------------------------------------------------------------------------
# build


def _mathjax_dir() -> Path | None:
    """MathJax 3 as shipped by the ``sphinx-mathjax-offline`` package (None if not installed)."""
    from importlib import metadata

    try:
        dist = metadata.distribution("sphinx-mathjax-offline")
    except metadata.PackageNotFoundError:
        return None
    path = Path(dist.locate_file("sphinx-mathjax-offline/static/mathjax"))
    return path if (path / "tex-svg.js").is_file() else None


def _datatables_dir() -> Path:
    """DataTables 2 with its extensions, as bundled by the ``itables`` package (offline)."""
    try:
        from importlib import resources

        path = Path(str(resources.files("itables").joinpath("html")))
    except ModuleNotFoundError:
        path = None
    if path is None or not (path / "dt_bundle.js").is_file():
        raise RuntimeError("DataTables for the offline site is missing: pip install -e '.[site]' (itables)")
    return path


#: DataTables as a classic script (``window.DataTable``), written by :func:`classic_datatables`.
DATATABLES_CLASSIC = "dt_bundle.classic.js"
#: The bundle's last statement, ``export{a as b,...}``, before its licence comments.
_MODULE_EXPORT = re.compile(r"\bexport\s*\{([^{}]*)\}\s*;?\s*((?:/\*[\s\S]*?\*/\s*)*)\Z")


def classic_datatables(module: str) -> str:
    """The ``itables`` bundle (an ES module whose last statement is ``export{...}``) as a classic script
    that sets ``window.DataTable`` (and ``window.itablesBundle``, every export). A module script
    (``<script type="module">``, ``import``) is refused on a page opened from disk (``file://``: CORS), a
    classic one is not, so the claims page works without a server. Raises :class:`RuntimeError` when
    the bundle does not have that shape (another itables version: see the message)."""
    found = _MODULE_EXPORT.search(module)
    body = module[: found.start()] + found.group(2) if found else module
    if found is None or re.search(r"(?m)^\s*import[\s{*\"']|\bimport\.meta\b|\bexport\s*[{*]|^export ", body):
        raise RuntimeError("the itables DataTables bundle is not an ES module ending in one export{...}: "
                           "safeguarded.site.classic_datatables cannot make it a classic script")
    names = {}
    for part in found.group(1).split(","):
        local, _, exported = (x.strip() for x in part.partition(" as "))
        names[exported or local] = local
    if "default" not in names:
        raise RuntimeError("the itables DataTables bundle exports no default (DataTable)")
    exports = ",".join(f"{json.dumps(k)}:{v}" for k, v in names.items())
    return ("// DataTables as bundled by itables, a classic script made by safeguarded.site (works from file://)\n"
            f'(function () {{\n"use strict";\n{body}\nwindow.itablesBundle = {{{exports}}};\n'
            "window.DataTable = window.itablesBundle.default;\n})();\n")


def generate(src: Path, build: Path = REPO_ROOT / "build") -> dict:
    """Write the Sphinx sources into ``src``; returns what each notebook's outputs come from."""
    if src.exists():
        shutil.rmtree(src)
    # docs/timings.csv becomes the timings page; the bad-input page links docs/bad_input/*.csv as downloads
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("timings.csv", "__pycache__"))
    rows = read_claims()
    found = fragments()
    titles = work_titles()
    extra = []
    for page in sorted(DOCS.glob("*.md")):
        if page.stem in GENERATED_PAGES:
            continue
        text = local_links_to_text(page.read_text(encoding="utf-8"),
                                   keep=lambda t: (DOCS / t.split("#")[0]).is_file())
        (src / page.name).write_text(text, encoding="utf-8")
        extra.append(page.stem)
    origins = {}
    (src / "works").mkdir(exist_ok=True)
    for work in WORKS:
        books = []
        for path in notebooks_of(work):
            nb, origin = choose_notebook(path, build)
            nb = without_machine_paths(nb)
            if path.stem in found:
                pairs = found[path.stem][1]
                nb = with_claim_links(nb, path.stem, [item for item, _ in pairs], len(pairs))
            origins[path.name] = origin
            (src / "works" / path.name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
            books.append(path.stem)
        (src / "works" / f"{work}.md").write_text(
            work_page(work, titles.get(work, ""), rows, books, src), encoding="utf-8")
    overview = (FIGURES / OVERVIEW).is_file()
    if overview:
        (src / "figures").mkdir(exist_ok=True)
        shutil.copy2(FIGURES / OVERVIEW, src / "figures" / OVERVIEW)
    (src / "index.md").write_text(index_page(rows, titles, extra, overview), encoding="utf-8")
    (src / "claims-report.md").write_text(claims_page(rows, claim_links(rows, found=found)), encoding="utf-8")
    (src / "install.md").write_text(
        "# Install, run, clusters, tests\n\nFrom the repository's README.\n\n"
        + readme_sections(("Install and run", "Tests", "Layout", "The site")), encoding="utf-8")
    (src / "timings.md").write_text(timings_page(), encoding="utf-8")
    mathjax = _mathjax_dir()
    if mathjax is None:
        raise RuntimeError("MathJax for the offline site is missing: pip install -e '.[site]'")
    shutil.copytree(mathjax, src / "_static" / "mathjax", dirs_exist_ok=True)
    vendor = src / "_static" / "vendor" / "datatables"
    vendor.mkdir(parents=True, exist_ok=True)
    shutil.copy2(_datatables_dir() / "dt_bundle.css", vendor / "dt_bundle.css")
    module = (_datatables_dir() / "dt_bundle.js").read_text(encoding="utf-8")
    (vendor / DATATABLES_CLASSIC).write_text(classic_datatables(module), encoding="utf-8")
    return origins


def build(out: Path, quiet: bool = True) -> Path:
    """Generate the sources into ``out/src`` and render ``out/html``; returns the html folder."""
    from sphinx.cmd.build import build_main

    src, html_dir = out / "src", out / "html"
    origins = generate(src)
    if html_dir.exists():
        shutil.rmtree(html_dir)
    args = ["-b", "html", "-j", "1", str(src), str(html_dir), "-d", str(out / "doctrees")]
    status = build_main((["-q"] if quiet else []) + args)
    if status != 0:
        raise RuntimeError(f"sphinx-build failed with status {status} (sources in {src})")
    shown = {o: sum(v == o for v in origins.values()) for o in sorted(set(origins.values()))}
    print(f"site: {html_dir / 'index.html'} ({len(origins)} notebooks: {shown})")
    return html_dir


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "build" / "site")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        build(args.out.resolve(), quiet=not args.verbose)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"site built in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

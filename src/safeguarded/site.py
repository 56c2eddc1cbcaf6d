"""The reproduction's website (``make site``): built offline from the executed notebooks, never executing.

Sources are generated into ``build/site/src`` and rendered by Sphinx with myst-nb
(``nb_execution_mode = "off"``) into ``build/site/html``:

* ``index``: the nine works with the per-work claims summary of the README (printed numbers only,
  :func:`safeguarded.claims.summary_table`), computed from ``figures/claims.csv``;
* ``works/<work>``: the verdict in words (the part of ``figures/<work>/CLAIMS.md`` before its
  ``<!-- rows -->`` marker, never its rows), the work's claim counts with a link to its rows on the
  claims page, its rendered notebooks, every figure (``figures/<work>/*.png`` with its PDF and data
  CSV) and every table (``*.md`` but ``CLAIMS.md``);
* ``claims-report``: every claim in a DataTables table (paged; filters per work, item, reference,
  verdict, scale and cause; debounced search; sort by |deviation| / tolerance; the filters in the URL
  hash). DataTables is the bundle the ``itables`` package ships, copied into the site: no CDN;
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
import json
import math
import re
import shutil
import sys
import time
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
#: The claims page's filters, in order (a column missing from ``claims.csv`` gets no filter).
FILTER_COLUMNS = ("work", "item", "reference", "verdict", "scale", "cause")
#: The claims page's column order: what a reader compares first, long texts wrapped after.
COLUMN_ORDER = ("work", "item", "claim", "paper_value", "reproduced_value", "tolerance", "deviation",
                "verdict", "cause", "note", "evidence", "scale", "reference", "runs", "location", "solver")


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
    counted), then the fitted, derived and qualitative rows, the scales and all claims."""
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
    "rule fitted to the work's own numbers (*fitted (not counted)*). *derived* rows are numbers we "
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


#: A grid cell's keys in a claim's text: "(0.1, 0.0001)" in "Table 1 at (eps, delta) = (0.1, 0.0001) [%]".
_GRID_KEYS = re.compile(r"\((-?\d[\d.]*(?:e-?\d+)?), (-?\d[\d.]*(?:e-?\d+)?)\)")
#: A grid table gets a map when at least this many of its printed claims share one text but the keys.
MAP_MIN_CELLS = 6


def grid_tables(rows: list[dict], work: str) -> list[tuple[str, str, list[dict]]]:
    """The work's grid tables compared cell by cell: ``(item, claim template, rows)`` for every set of
    at least :data:`MAP_MIN_CELLS` printed, counted claims (not smoke, not fitted) of one item whose
    texts differ only in one pair of keys, one claim per pair; each row gains ``key1`` and ``key2``."""
    import collections

    groups = collections.defaultdict(dict)
    for row in rows:
        if (row.get("work") != work or row.get("reference") != "printed" or row.get("scale") == "smoke"
                or str(row.get("note", "")).startswith(claims_module.FITTED_PREFIX)):
            continue
        found = _GRID_KEYS.findall(row.get("claim", ""))
        if len(found) != 1:
            continue
        template = _GRID_KEYS.sub("(·, ·)", row["claim"])
        key1, key2 = (float(v) for v in found[0])
        groups[(row["item"], template)].setdefault((key1, key2), dict(row, key1=key1, key2=key2))
    return [(item, template, list(cells.values())) for (item, template), cells in sorted(groups.items())
            if len(cells) >= MAP_MIN_CELLS]


def map_images(rows: list[dict], work: str, out: Path) -> list[tuple[str, str, Path]]:
    """Draw the reproduction map of each grid table of ``work`` into ``out``; ``(item, title, png)``."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from safeguarded import plotting

    drawn = []
    for n, (item, template, cells) in enumerate(grid_tables(rows, work)):
        names = ("epsilon", "delta") if "(eps, delta)" in template else ("first key", "second key")
        frame = pd.DataFrame(cells).rename(columns={"key1": names[0], "key2": names[1]})
        with plotting.style():
            fig = plotting.reproduction_map(frame, names[1], names[0], title=f"{item}: {template}")
            out.mkdir(parents=True, exist_ok=True)
            png = out / f"{item}_map{'' if n == 0 else n}.png"
            fig.savefig(png, metadata={"Software": None})
            plt.close(fig)
        drawn.append((item, template, png))
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
                  "Each grid table the work prints, cell by cell: the colour is (ours − work) / tolerance "
                  "(saturating at ±3; within ±1 is within the tolerance), the mark the verdict "
                  "(✓ reproduced, ✗ deviates, ? inconclusive), the number the unclipped score. Drawn by the "
                  "site from "
                  "`figures/claims.csv` (printed claims at paper or reduced scale, fitted rows left out) "
                  "with `safeguarded.plotting.reproduction_map`.", ""]
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


def claims_page(rows: list[dict]) -> str:
    """The claims report: DataTables over the rows (``_static/claims.js``), the data embedded as JSON."""
    present = [c for c in (rows[0].keys() if rows else []) if c]
    columns = [c for c in COLUMN_ORDER if c in present or c == "deviation"]
    columns += [c for c in present if c not in columns]
    data = [[deviation(r) if c == "deviation" else r.get(c, "") for c in columns] for r in rows]
    data, values = _dictionary_encoded(data, columns)
    payload = json.dumps({"columns": columns, "rows": data, "values": values,
                          "order": {"verdict": verdicts_of(rows)}},
                         ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    selects = "".join(
        f'<label>{c} <select id="claims-{c}" data-column="{c}"><option value="">all</option></select></label>'
        for c in FILTER_COLUMNS if c in present)
    return f"""# Claims report

Every number and statement the works make that this repository checks, beside our value, with the
verdict reached under [the claims protocol](claims.md) — generated from `figures/claims.csv`
({len(rows)} rows). Filter by work, item, reference, verdict, scale and cause, search the text, and
sort by any column; *|deviation| / tol.* is |ours − paper| divided by the tolerance (> 1 means
outside it; absolute when no tolerance is stated; empty when a value is not a number). The address
bar keeps the filters: copy it to link to what you see.

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
<script type="module" src="_static/claims.js"></script>
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


def generate(src: Path, build: Path = REPO_ROOT / "build") -> dict:
    """Write the Sphinx sources into ``src``; returns what each notebook's outputs come from."""
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("*.csv", "__pycache__"))
    rows = read_claims()
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
    (src / "claims-report.md").write_text(claims_page(rows), encoding="utf-8")
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
    for name in ("dt_bundle.js", "dt_bundle.css"):
        shutil.copy2(_datatables_dir() / name, vendor / name)
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

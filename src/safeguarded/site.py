"""The reproduction's website (``make site``): built offline from the executed notebooks, never executing.

Sources are generated into ``build/site/src`` and rendered by Sphinx with myst-nb
(``nb_execution_mode = "off"``) into ``build/site/html``:

* ``index``: the nine works with the per-work claims summary computed from ``figures/claims.csv``;
* ``works/<work>``: the work's claims summary, its rendered notebooks, every figure
  (``figures/<work>/*.png`` with its PDF and data CSV) and every table (``*.md``);
* ``claims-report``: every claim in a table filtered by work and verdict and sorted by the size of
  the deviation in the browser (a self-contained script, ``docs/_static/claims.js``: no CDN);
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
import html
import json
import math
import re
import shutil
import sys
import time
from pathlib import Path

from safeguarded.notebooks import TIMINGS, notebooks_of, timings_markdown
from safeguarded.paths import REPO_ROOT, WORKS

DOCS = REPO_ROOT / "docs"
FIGURES = REPO_ROOT / "figures"
CLAIMS_CSV = FIGURES / "claims.csv"
README = REPO_ROOT / "README.md"
VERDICT_ORDER = ("reproduced", "deviates", "inconclusive", "qualitative-ok", "qualitative-fails")
GENERATED_PAGES = ("index", "claims-report", "install", "timings")


# --------------------------------------------------------------------------------------------------
# data


def read_claims(path: Path = CLAIMS_CSV) -> list[dict]:
    """The rows of the claims report (empty when it does not exist yet)."""
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


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
    """Markdown table: claims per verdict for each work (links to the work pages)."""
    verdicts = verdicts_of(rows) or list(VERDICT_ORDER)
    head = "| work | notebooks | " + " | ".join(verdicts) + " | claims |"
    lines = [head, "|" + "---|" * (len(verdicts) + 3)]
    for work in works:
        mine = [r for r in rows if r.get("work") == work]
        counts = [sum(r.get("verdict") == v for r in mine) for v in verdicts]
        name = f"[{work}](works/{work}.md)" if link else f"`{work}`"
        lines.append(f"| {name} | {len(notebooks_of(work))} | " + " | ".join(map(str, counts))
                     + f" | {len(mine)} |")
    return "\n".join(lines)


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


def work_page(work: str, title: str, rows: list[dict], books: list[str], src: Path) -> str:
    figs = FIGURES / work
    lines = [f"# {work}", "", title, ""]
    lines += ["## Claims", "", summary_table(rows, [work], link=False), "",
              f"All of them, filterable: [the claims report](../claims-report.md) "
              f"(pre-filtered: <a href=\"../claims-report.html#work={work}\">{work} only</a>).", ""]
    lines += ["## Notebooks", ""]
    if books:
        lines += ["```{toctree}", ":maxdepth: 1", "", *books, "```", ""]
    else:
        lines += ["No notebook yet.", ""]
    pngs = sorted(figs.glob("*.png")) if figs.is_dir() else []
    lines += ["## Figures", ""] + ([] if pngs else ["No figure yet.", ""])
    for png in pngs:
        stem = png.stem
        links = [f"{{download}}`{ext.upper()} <../figures/{work}/{stem}.{ext}>`"
                 for ext in ("pdf", "csv") if (figs / f"{stem}.{ext}").is_file()]
        lines += [f"### {stem}", "", f"```{{image}} ../figures/{work}/{png.name}", f":alt: {work} {stem}",
                  ":width: 90%", "```", "", " · ".join(links), ""]
    tables = sorted(figs.glob("*.md")) if figs.is_dir() else []
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


def claims_page(rows: list[dict]) -> str:
    """The claims report with client-side filtering and sorting (``_static/claims.js``)."""
    columns = [c for c in (rows[0].keys() if rows else []) if c]
    data = [dict(r, deviation=deviation(r)) for r in rows]
    payload = json.dumps({"columns": columns, "rows": data}, ensure_ascii=False).replace("</", "<\\/")
    works = sorted({r.get("work", "") for r in rows}, key=lambda w: (w not in WORKS, WORKS.index(w)
                                                                       if w in WORKS else 0, w))
    options = lambda values: "".join(  # noqa: E731
        f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
    verdict_options = options(verdicts_of(rows))
    return f"""# Claims report

Every number and statement the works make that this repository checks, beside our value, with the
verdict reached under [the claims protocol](claims.md) — generated from `figures/claims.csv`
({len(rows)} rows). Filter by work and verdict, search the text, and sort by any column; the column
*deviation / tol.* is |ours − paper| divided by the tolerance (> 1 means outside it; absolute when no
tolerance is stated; empty when a value is not a number).

```{{raw}} html
<div id="claims-app">
  <div class="claims-controls">
    <label>work <select id="claims-work"><option value="">all</option>{options(works)}</select></label>
    <label>verdict <select id="claims-verdict"><option value="">all</option>{verdict_options}</select></label>
    <label>search <input id="claims-search" type="search" placeholder="text in any column"></label>
    <button id="claims-sort-deviation" type="button">largest deviation first</button>
    <span id="claims-count" aria-live="polite"></span>
  </div>
  <div class="claims-scroll"><table id="claims-table" class="claims-table">
    <thead></thead><tbody></tbody></table></div>
</div>
<script id="claims-data" type="application/json">{payload}</script>
```
"""


def index_page(rows: list[dict], titles: dict[str, str], extra: list[str]) -> str:
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
        "", "## The nine works", "", *works_table, "",
        "## Claims per work (generated from `figures/claims.csv`)", "",
        summary_table(rows, list(WORKS)) if rows else "No claims report yet (`make claims`).", "",
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
            origins[path.name] = origin
            (src / "works" / path.name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
            books.append(path.stem)
        (src / "works" / f"{work}.md").write_text(
            work_page(work, titles.get(work, ""), rows, books, src), encoding="utf-8")
    (src / "index.md").write_text(index_page(rows, titles, extra), encoding="utf-8")
    (src / "claims-report.md").write_text(claims_page(rows), encoding="utf-8")
    (src / "install.md").write_text(
        "# Install, run, clusters, tests\n\nFrom the repository's README.\n\n"
        + readme_sections(("Install and run", "Tests", "Layout", "The site")), encoding="utf-8")
    (src / "timings.md").write_text(timings_page(), encoding="utf-8")
    mathjax = _mathjax_dir()
    if mathjax is None:
        raise RuntimeError("MathJax for the offline site is missing: pip install -e '.[site]'")
    shutil.copytree(mathjax, src / "_static" / "mathjax", dirs_exist_ok=True)
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

"""Execute the reproduction notebooks with papermill (``make reproduce`` / ``make test``).

Notebooks live in ``notebooks/`` and are named ``<work>_<items>.ipynb``; each has a cell tagged
``parameters`` with at least ``scale`` (``"smoke"`` or ``"paper"``) and ``seed``.  Executed copies are
written to ``build/<scale>/notebooks/`` (ignored by git), with ``notebooks/`` as working directory and
the explicit kernel ``python3`` of the running interpreter.  A failing cell makes the command exit
non-zero, so it fails the make target.

    python -m safeguarded.notebooks --work rldp --scale smoke
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from safeguarded.paths import REPO_ROOT, WORKS

NOTEBOOKS = REPO_ROOT / "notebooks"
KERNEL = "python3"
SCALES = ("smoke", "paper")


def notebooks_of(work: str = "all") -> list[Path]:
    """The notebooks of one work (``notebooks/<work>_*.ipynb``), or of all works in order."""
    if work != "all" and work not in WORKS:
        raise ValueError(f"work must be 'all' or one of {WORKS}, got work={work!r}")
    works = WORKS if work == "all" else (work,)
    return [p for w in works for p in sorted(NOTEBOOKS.glob(f"{w}_*.ipynb"))]


def execute(path: Path, scale: str, out_dir: Path, seed: int | None = None) -> Path:
    """Run one notebook with papermill; raises ``PapermillExecutionError`` on a failing cell."""
    import papermill as pm

    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, got scale={scale!r}")
    params = {"scale": scale}
    if seed is not None:
        params["seed"] = int(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / path.name
    pm.execute_notebook(
        str(path),
        str(target),
        parameters=params,
        kernel_name=KERNEL,
        cwd=str(path.parent),
        progress_bar=False,
        log_output=False,
        request_save_on_cell_execute=False,
    )
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default="all", help="a work name or 'all'")
    parser.add_argument("--scale", default="paper", choices=SCALES)
    parser.add_argument("--seed", type=int, default=None, help="override each notebook's seed")
    parser.add_argument("--out", type=Path, default=None, help="default build/<scale>/notebooks")
    args = parser.parse_args(argv)
    out_dir = args.out or REPO_ROOT / "build" / args.scale / "notebooks"
    books = notebooks_of(args.work)
    if not books:
        print(f"no notebooks for work={args.work!r} in {NOTEBOOKS}", file=sys.stderr)
        return 1
    failed = []
    for book in books:
        start = time.perf_counter()
        print(f"[{args.scale}] {book.name} ...", flush=True)
        try:
            execute(book, args.scale, out_dir, args.seed)
        except Exception as exc:  # report every failing notebook, then fail
            failed.append(book.name)
            print(f"FAILED {book.name}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            continue
        print(f"    done in {time.perf_counter() - start:.1f} s -> {out_dir / book.name}", flush=True)
    if failed:
        print(f"{len(failed)} notebook(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"figures written under {os.environ.get('SAFEGUARDED_FIGURES', REPO_ROOT / 'figures')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

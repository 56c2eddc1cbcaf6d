"""Same inputs, same bytes, across machines: a figure (PNG, PDF, CSV) and a table (CSV, Markdown) written
by two fresh interpreters with different hash seeds, locales and matplotlib caches are byte-identical."""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

WRITER = """\
import locale, sys
locale.setlocale(locale.LC_ALL, "")  # as a kernel that adopts the user's locale would
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from safeguarded.experiments import rng_for
from safeguarded.plotting import save_figure, save_table, style

rng = rng_for(3)
x = np.linspace(0.0, 1.0, 25)
# a set and a dict built from strings: their iteration order depends on PYTHONHASHSEED unless sorted
methods = sorted({"laplace", "gaussian", "staircase", "opt"})
data = pd.DataFrame({"x": np.tile(x, len(methods)), "method": np.repeat(methods, len(x)),
                     "loss": rng.gamma(2.0, size=len(x) * len(methods)) / 3})
with style():
    fig, ax = plt.subplots()
    for m, grp in data.groupby("method", sort=True):
        ax.plot(grp["x"], grp["loss"], label=f"{m} (ε = 1.0, δ = 10⁻³)")
    ax.set_xlabel("$\\\\epsilon$ — privacy budget")
    ax.set_ylabel("E|X|")
    ax.legend()
    save_figure(fig, "rldp", "determinism_probe", data=data)
    plt.close(fig)
table = data.groupby("method", sort=True)["loss"].agg(["mean", "std", "count"]).reset_index()
table["ratio"] = table["mean"] / table["mean"].min() * 1e-7
save_table(table, "rldp", "determinism_probe_table")
print(locale.getlocale(locale.LC_NUMERIC))
"""

SETTINGS = [
    {"PYTHONHASHSEED": "0", "LC_ALL": "C", "LANG": "C", "TZ": "UTC"},
    {"PYTHONHASHSEED": "4242", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "TZ": "Pacific/Chatham"},
]


def _write(tmp: Path, setting: dict) -> dict[str, str]:
    figures = tmp / "figures"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONHASHSEED"))}
    env.update(setting, SAFEGUARDED_FIGURES=str(figures), MPLCONFIGDIR=str(tmp / "mplconfig"))
    env.pop("MPLBACKEND", None)
    subprocess.run([sys.executable, "-c", WRITER], env=env, check=True, capture_output=True, cwd=tmp)
    files = sorted((figures / "rldp").iterdir())
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_figure_and_table_bytes_do_not_depend_on_hash_seed_locale_or_cache(tmp_path):
    runs = []
    for i, setting in enumerate(SETTINGS):
        (tmp_path / str(i)).mkdir()
        runs.append(_write(tmp_path / str(i), setting))
    expected = {f"determinism_probe.{e}" for e in ("png", "pdf", "csv")}
    expected |= {f"determinism_probe_table.{e}" for e in ("csv", "md")}
    assert set(runs[0]) == expected
    assert runs[0] == runs[1]

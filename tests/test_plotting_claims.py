import hashlib
import re

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from safeguarded import plotting


def _figure():
    with plotting.style():
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [1, 0, 2], label="a")
        ax.legend()
    return fig


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_figures_are_byte_identical_on_rerun():
    data = pd.DataFrame({"x": [0, 1, 2], "y": [1, 0, 2]})
    first = plotting.save_figure(_figure(), "rldp", "testfig", data)
    digests = {k: _digest(p) for k, p in first.items()}
    second = plotting.save_figure(_figure(), "rldp", "testfig", data)
    assert digests == {k: _digest(p) for k, p in second.items()}
    assert b"CreationDate" not in first["pdf"].read_bytes()
    assert pd.read_csv(first["csv"]).equals(data)
    plt.close("all")


def test_bad_item_and_work_names():
    with pytest.raises(ValueError, match="item must be"):
        plotting.save_table(pd.DataFrame({"a": [1]}), "rldp", "Fig 2")
    with pytest.raises(ValueError, match="work must be one of"):
        plotting.save_table(pd.DataFrame({"a": [1]}), "nope", "table01")


def _absolute_fragments():
    from safeguarded.paths import REPO_ROOT

    return [str(REPO_ROOT), str(REPO_ROOT.resolve()), "/work/", "/root", "/home/", "PosixPath"]


def test_saved_figure_displays_its_png_and_relative_paths():
    from IPython.core.formatters import DisplayFormatter

    data = pd.DataFrame({"x": [0, 1, 2], "y": [1, 0, 2]})
    saved = plotting.save_figure(_figure(), "rldp", "testfig", data)
    plt.close("all")
    assert set(saved) == {"png", "pdf", "csv"}  # still the dict of paths the old code indexed
    png = saved["png"].read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert saved._repr_png_() == png
    # what a notebook cell shows: the PNG, and a text line naming repository-relative paths
    shown, _ = DisplayFormatter().format(saved)
    assert shown["image/png"] == png
    for text in (repr(saved), str(saved), shown["text/plain"]):
        assert "figures/rldp/testfig.png" in text or "<rldp>/testfig.png" in text
        assert not any(fragment in text for fragment in _absolute_fragments()), text


def test_saved_table_renders_the_table_it_wrote():
    from IPython.core.formatters import DisplayFormatter

    table = pd.DataFrame({"eps": [0.005, 1.0], "value": [0.123456789, 2.5]})
    saved = plotting.save_table(table, "rldp", "testtable")
    shown, _ = DisplayFormatter().format(saved)
    assert pd.read_csv(saved["csv"]).equals(table)
    # the HTML a notebook shows is the table itself, rounded as the Markdown file
    cells = re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", shown["text/html"])
    assert cells == ["eps", "value", "0.005", "0.1235", "1", "2.5"]
    assert saved._repr_markdown_().strip() == saved["md"].read_text().strip()
    # keys written as strings are printed as they are, numbers rounded with floatfmt
    keyed = plotting.save_table(table.assign(eps=["0.005", "1"]), "rldp", "testtable", floatfmt=".2f")
    lines = keyed["md"].read_text().splitlines()[2:]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    assert rows == [["0.005", "0.12"], ["1", "2.50"]]
    for text in (repr(saved), shown["text/plain"]):
        assert not any(fragment in text for fragment in _absolute_fragments()), text

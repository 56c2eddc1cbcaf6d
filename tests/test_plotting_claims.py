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


def _grid_rows():
    """A 2 x 3 grid table: paper values, ours, tolerances and verdicts as the claims protocol writes them."""
    cells = [  # eps, delta, paper, ours, tol, verdict
        (0.1, 0.01, "1.87", "1.87281", "0.005", "reproduced"),
        (0.1, 0.05, "6.10", "24.65", "0.005", "deviates"),
        (0.1, 0.5, "3.5", "3.2", "0.05", "deviates"),  # ours 6 tolerances below
        (1.0, 0.01, "12", "", "", "inconclusive"),
        (1.0, 0.05, "1,200", "1190", "5", "deviates"),
        (1.0, 0.5, "0.5", "0.52", "0.05", "reproduced"),
    ]
    return [{"work": "dp_noise", "item": "table01", "claim": f"Table 1 at (eps, delta) = ({e:g}, {d:g}) [%]",
             "paper_value": p, "reproduced_value": o, "tolerance": t, "verdict": v}
            for e, d, p, o, t, v in cells]


def test_map_frame_scores_cells_in_tolerances():
    rows = plotting.claim_keys(_grid_rows(), r"\(eps, delta\) = \(([^,]+), ([^)]+)\)", ("epsilon", "delta"))
    cells = plotting.map_frame(rows, "delta", "epsilon").set_index(["epsilon", "delta"])
    assert cells.loc[(0.1, 0.01), "score"] == pytest.approx((1.87281 - 1.87) / 0.005)
    assert cells.loc[(0.1, 0.5), "score"] == pytest.approx(-6.0)  # signed: ours below the work
    assert cells.loc[(1.0, 0.05), "score"] == pytest.approx(-2.0)  # "1,200" read as 1200
    assert pd.isna(cells.loc[(1.0, 0.01), "score"])  # no number: no colour, only the mark
    assert cells["mark"].tolist() == ["✓", "✗", "✗", "?", "✗", "✓"]


def test_reproduction_map_draws_the_scores_and_marks_each_cell():
    rows = plotting.claim_keys(_grid_rows(), r"\(eps, delta\) = \(([^,]+), ([^)]+)\)", ("epsilon", "delta"))
    fig = plotting.reproduction_map(rows, "delta", "epsilon", limit=3.0, title="Table 1")
    ax = fig.axes[0]
    drawn = ax.collections[0].get_array().ravel()
    # rows epsilon 0.1, 1; columns delta 0.01, 0.05, 0.5; colours clipped to +-3, NaN masked
    expected = [[0.562, 3.0, -3.0], [None, -2.0, 0.4]]
    flat = [v for row in expected for v in row]
    assert drawn.mask.tolist() == [v is None for v in flat]
    colours = [float(v) for v, m in zip(drawn.data, drawn.mask, strict=True) if not m]
    assert colours == pytest.approx([v for v in flat if v is not None], abs=1e-3)
    # each cell's mark at its centre (row i, column j at (j + 0.5, i + 0.5)), the score under it
    texts = {(t.get_position()[1] - 0.5, t.get_position()[0] - 0.5): t.get_text() for t in ax.texts}
    assert texts == {(0, 0): "✓\n+0.56", (0, 1): "✗\n+4e3", (0, 2): "✗\n-6",
                     (1, 0): "?", (1, 1): "✗\n-2", (1, 2): "✓\n+0.4"}
    assert "✗ deviates 3" in ax.get_title() and "? inconclusive 1" in ax.get_title()
    plt.close(fig)


def test_reproduction_map_rejects_bad_input():
    rows = plotting.claim_keys(_grid_rows(), r"\(eps, delta\) = \(([^,]+), ([^)]+)\)", ("epsilon", "delta"))
    with pytest.raises(ValueError, match="x must be a column"):
        plotting.reproduction_map(rows, "sigma", "epsilon")
    with pytest.raises(ValueError, match="one claim per"):
        plotting.map_frame(pd.concat([rows, rows.head(1)]), "delta", "epsilon")
    with pytest.raises(ValueError, match="limit must be > 0"):
        plotting.reproduction_map(rows, "delta", "epsilon", limit=0)
    with pytest.raises(ValueError, match="rows must be claim rows"):
        plotting.map_frame([{"a": 1}], "a", "a")

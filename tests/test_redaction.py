"""The one scrubber of machine paths that the notebook runner and the site share."""

from safeguarded.redaction import MACHINE_PATH, repository_relative, scrub_output


def test_repository_paths_lose_the_machine_prefix_and_other_paths_stay():
    root = "/srv/ci/clone"
    assert repository_relative(f"see {root}/README.md", root) == "see README.md"
    assert repository_relative("/home/u/repo/.venv/lib/x.py:3: W", root) == ".venv/lib/x.py:3: W"
    assert repository_relative(r"C:\Users\u\repo\figures\a.png", None) == r"figures\a.png"
    assert repository_relative("/usr/lib/python3/json.py", root) == "/usr/lib/python3/json.py"
    assert repository_relative(["/tmp/r/src/a.py\n", 3], None) == ["src/a.py\n", 3]
    assert repository_relative(None, root) is None


def test_scrub_output_covers_stream_text_data_and_traceback():
    output = {
        "output_type": "error",
        "text": "/home/me/clone/results/x.pkl\n",
        "data": {"text/plain": ["'/work/main/figures/f.png'"], "image/png": "/work/main/figures/f.png"},
        "traceback": ["File /work/main/src/safeguarded/a.py, line 1"],
    }
    out = scrub_output(output, "/work/main")
    assert out is output
    shown = [out["text"], *out["data"]["text/plain"], *out["traceback"]]
    assert not any(MACHINE_PATH.search(text) for text in shown), shown
    assert out["data"]["image/png"] == "/work/main/figures/f.png"  # binary payloads are not text

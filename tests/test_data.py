import shutil

import pytest

from safeguarded import data
from safeguarded.data.registry import MIRROR_ENV


def test_registry_lists_every_mirrored_file(data_mirror):
    entries = data.entries()
    on_disk = {
        str(p.relative_to(data_mirror))
        for p in data_mirror.rglob("*")
        if p.is_file() and p.name != "README.md"
    }
    assert on_disk == set(entries), on_disk ^ set(entries)
    for entry in entries.values():
        assert entry.url.startswith("https://"), entry
        assert len(entry.sha256) == 64


def test_fetch_from_mirror_verifies_checksum(data_mirror):
    path = data.fetch("sioux-falls/SiouxFalls_node.tntp")
    assert path.parent == data_mirror / "sioux-falls"
    assert data.sha256sum(path) == data.entries()["sioux-falls/SiouxFalls_node.tntp"].sha256


def test_corrupt_file_names_file_checksum_and_fix(tmp_path, data_mirror):
    name = "sioux-falls/SiouxFalls_node.tntp"
    (tmp_path / "sioux-falls").mkdir()
    shutil.copy(data_mirror / name, tmp_path / name)
    with open(tmp_path / name, "a") as f:
        f.write("tampered\n")
    with pytest.raises(data.DataFileError) as err:
        data.fetch(name, mirror=tmp_path)
    msg = str(err.value)
    assert name in msg and data.entries()[name].sha256 in msg and "Fix" in msg


def test_missing_file_in_mirror(tmp_path):
    with pytest.raises(data.DataFileError, match="not found in mirror.*expected sha256"):
        data.fetch("uci/crx/crx.data", mirror=tmp_path)


def test_unknown_name_and_bad_mirror(tmp_path, monkeypatch):
    with pytest.raises(data.DataFileError, match="not in the registry"):
        data.fetch("nope/file.csv", mirror=tmp_path)
    monkeypatch.setenv(MIRROR_ENV, str(tmp_path / "absent"))
    with pytest.raises(data.DataFileError, match="is not a folder"):
        data.fetch("uci/crx/crx.data")

"""A data file that cannot be downloaded fails with one readable DataFileError (no urllib traceback)."""

from __future__ import annotations

import socket
import traceback

import pytest

import safeguarded.data.registry as reg


@pytest.fixture
def blocked_entry(monkeypatch, tmp_path):
    """A registered file whose URL points at a closed local port (as good as no network)."""
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    name = "sioux-falls/blocked_test.tntp"
    entry = reg.RegistryEntry(name, 10, "0" * 64, f"http://127.0.0.1:{port}/blocked_test.tntp", "")
    monkeypatch.setattr(reg, "entries", lambda: {name: entry})
    monkeypatch.delenv(reg.MIRROR_ENV, raising=False)
    monkeypatch.setenv(reg.CACHE_ENV, str(tmp_path / "cache"))
    return entry


def test_offline_download_names_file_url_and_mirror(blocked_entry):
    with pytest.raises(reg.DataFileError) as info:
        reg.fetch(blocked_entry.path)
    message = str(info.value)
    assert blocked_entry.path in message and blocked_entry.url in message
    assert reg.MIRROR_ENV in message and "DATA_MIRROR=" in message
    assert "unreachable" in message and len(message) < 700
    # one error, not a chain: the printed traceback holds no urllib3/requests frames or messages
    printed = "".join(traceback.format_exception(info.value))
    assert info.value.__cause__ is None and info.value.__suppress_context__
    assert "During handling" not in printed and "direct cause" not in printed
    assert isinstance(info.value.reason, Exception)  # the original is kept for debugging


def test_checksum_mismatch_message_says_so():
    entry = reg.RegistryEntry("a/b.csv", 1, "0" * 64, "https://example.org/b.csv", "")
    error = ValueError("SHA256 hash of downloaded file (abc) does not match")
    message = reg.download_error_message(entry, error)
    assert "sha256 does not match" in message and "a/b.csv" in message
    assert "https://example.org/b.csv" in message

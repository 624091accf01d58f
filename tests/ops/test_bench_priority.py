"""The benches' clients run ahead of the servers only where the kernel lets a session's nice
count (bench/common.py ``client_priority``): a process in no autogroup (CI's container, whose
cgroup places it) reads an empty /proc/self/autogroup, and the bench runs level rather than
failing."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def common(bench_common: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    module = bench_common
    monkeypatch.setattr(module, "AUTOGROUP", tmp_path / "autogroup")
    monkeypatch.setattr(module, "_autogroups", lambda: True)
    monkeypatch.delenv("BENCH_CLIENTS_FIRST", raising=False)
    return module


def test_the_clients_go_ahead_and_the_nice_is_put_back(common: ModuleType) -> None:
    common.AUTOGROUP.write_text("/autogroup-85 nice 0\n")
    with common.client_priority() as raised:
        assert raised is True
        assert common.AUTOGROUP.read_text() == str(common.CLIENT_NICE)
    assert common.AUTOGROUP.read_text() == "0"


@pytest.mark.parametrize("shown", ["", "\n", "garbled"])
def test_a_process_in_no_autogroup_runs_level(common: ModuleType, shown: str) -> None:
    common.AUTOGROUP.write_text(shown)
    with common.client_priority() as raised:
        assert raised is False
    assert common.AUTOGROUP.read_text() == shown


def test_an_a_b_run_can_keep_the_clients_level(
    common: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENCH_CLIENTS_FIRST", "0")
    common.AUTOGROUP.write_text("/autogroup-85 nice 0\n")
    with common.client_priority() as raised:
        assert raised is False
    assert common.AUTOGROUP.read_text() == "/autogroup-85 nice 0\n"

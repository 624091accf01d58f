"""bench/RESULTS.md is the log of the benches' runs: a bench writes its run as the newest of its
section and keeps the runs (and the notes written beside them) already there
(bench/common.py ``write_section``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

BEFORE = """# Bench results

## Reads at scale

### Run of 2026-11-26 23:05 UTC (pasted here)

A note written beside the run.

## Vote to screen (bench/ws_fanout.py)

### Run of 2026-11-26 23:10 UTC

| server | p99 ms |
|---|---:|
| ours | 22.2 |

## Soak (bench/ws_soak.py)

An untitled run.
"""


@pytest.fixture
def common(bench_common: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    module = bench_common
    monkeypatch.setattr(module, "RESULTS", tmp_path / "RESULTS.md")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr("sys.argv", ["bench/ws_fanout.py"])
    return module


def test_a_run_goes_above_the_runs_before_it_and_every_section_stays(common: ModuleType) -> None:
    common.RESULTS.write_text(BEFORE, encoding="utf-8")
    section = "## Vote to screen (bench/ws_fanout.py)"
    common.write_section(
        section,
        f"{section}\n\n| server | p99 ms |\n|---|---:|\n| ours | 18.7 |\n",
        now=datetime(2026, 11, 27, 7, 24, tzinfo=UTC),
    )
    text = common.RESULTS.read_text(encoding="utf-8")
    assert text == BEFORE.replace(
        f"{section}\n\n",
        f"{section}\n\n### Run of 2026-11-27 07:24 UTC (`bench/ws_fanout.py`)\n\n"
        "| server | p99 ms |\n|---|---:|\n| ours | 18.7 |\n\n",
    )


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        # Not there yet: added at the end.
        (
            "## Slow socket (bench/ws_slow.py)",
            BEFORE + "\n## Slow socket (bench/ws_slow.py)\n\n"
            "### Run of 2026-11-27 08:00 UTC (`bench/ws_fanout.py`)\n\nThe run.\n",
        ),
        # The last section: what it had stays below the run.
        (
            "## Soak (bench/ws_soak.py)",
            BEFORE.replace(
                "## Soak (bench/ws_soak.py)\n\n",
                "## Soak (bench/ws_soak.py)\n\n"
                "### Run of 2026-11-27 08:00 UTC (`bench/ws_fanout.py`)\n\nThe run.\n\n",
            ),
        ),
    ],
)
def test_a_new_section_and_the_last_one(common: ModuleType, section: str, expected: str) -> None:
    common.RESULTS.write_text(BEFORE, encoding="utf-8")
    common.write_section(
        section, f"{section}\n\nThe run.\n", now=datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
    )
    assert common.RESULTS.read_text(encoding="utf-8") == expected

"""bench/RESULTS.md holds each bench's latest run: a bench replaces its own section with its run
(bench/common.py ``write_section``) and leaves every other section as it is."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

BEFORE = """# Bench results

What the file is.

## Reads at scale

Run of 2026-11-26 23:05 UTC at `4f53e5c` (`bench/reads.py`) on a machine.

| read | p50 ms |
|---|---:|
| feed | 9.1 |

## Vote to screen (bench/ws_fanout.py)

Run of 2026-11-26 23:10 UTC at `4f53e5c` (`bench/ws_fanout.py`) on a machine.

| server | p99 ms |
|---|---:|
| ours | 22.2 |

### A subsection of the run

Its note.

## Soak (bench/ws_soak.py)

Run of 2026-11-26 23:20 UTC at `4f53e5c` (`bench/ws_soak.py`) on a machine.
"""

WHEN = datetime(2026, 11, 27, 7, 24, tzinfo=UTC)


@pytest.fixture
def common(bench_common: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    module = bench_common
    monkeypatch.setattr(module, "RESULTS", tmp_path / "RESULTS.md")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "commit", lambda: "abc1234")
    monkeypatch.setattr(module, "machine", lambda: "2 cores (a CPU), Python 3.11.7")
    monkeypatch.setattr(module.os, "getloadavg", lambda: (1.25, 0.5, 0.0))
    monkeypatch.setattr("sys.argv", ["bench/ws_fanout.py"])
    return module


HEADER = (
    "Run of 2026-11-27 07:24 UTC at `abc1234` (`bench/ws_fanout.py`) on 2 cores (a CPU), "
    "Python 3.11.7; load average 1.2, 0.5, 0.0 at its end."
)


def sections(text: str) -> dict[str, str]:
    parts = re.split(r"^(## .*)$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_a_run_replaces_its_section_and_leaves_the_others(common: ModuleType) -> None:
    common.RESULTS.write_text(BEFORE, encoding="utf-8")
    section = "## Vote to screen (bench/ws_fanout.py)"
    common.write_section(
        section, f"{section}\n\n| server | p99 ms |\n|---|---:|\n| ours | 18.7 |\n", now=WHEN
    )
    text = common.RESULTS.read_text(encoding="utf-8")
    before, after = sections(BEFORE), sections(text)
    assert list(after) == list(before)
    assert after[section] == f"\n\n{HEADER}\n\n| server | p99 ms |\n|---|---:|\n| ours | 18.7 |\n\n"
    assert "22.2" not in text and "A subsection of the run" not in text
    for other in before.keys() - {section}:
        assert after[other] == before[other]
    assert text.startswith("# Bench results\n\nWhat the file is.\n\n## Reads at scale\n")


def test_the_last_section_is_replaced_to_the_end(common: ModuleType) -> None:
    common.RESULTS.write_text(BEFORE, encoding="utf-8")
    common.write_section("## Soak (bench/ws_soak.py)", "The run.\n", now=WHEN)
    text = common.RESULTS.read_text(encoding="utf-8")
    assert text == BEFORE.replace(
        "Run of 2026-11-26 23:20 UTC at `4f53e5c` (`bench/ws_soak.py`) on a machine.\n",
        f"{HEADER}\n\nThe run.\n",
    )


def test_a_new_section_is_appended(common: ModuleType) -> None:
    common.RESULTS.write_text(BEFORE, encoding="utf-8")
    common.write_section("## Slow socket (bench/ws_slow.py)", "The run.\n", now=WHEN)
    text = common.RESULTS.read_text(encoding="utf-8")
    assert text == BEFORE + f"\n## Slow socket (bench/ws_slow.py)\n\n{HEADER}\n\nThe run.\n"


def test_the_header_names_the_commit_of_the_run(bench_common: ModuleType) -> None:
    """Outside the patches: the real commit of this checkout, and the machine's cores."""
    header = bench_common.run_header(now=WHEN)
    assert re.match(r"Run of 2026-11-27 07:24 UTC at `([0-9a-f]{7,}(-dirty)?|unknown)` ", header)
    assert f"{bench_common.os.cpu_count()} cores" in header

"""deploy/systemd's units are valid for systemd (``systemd-analyze verify``), with the paths
of this checkout in place of the host's /srv/scoutvote."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers import unless_available

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


@unless_available(shutil.which("systemd-analyze") is None, reason="systemd-analyze")
def test_every_unit_verifies(tmp_path: Path) -> None:
    for unit in UNITS.iterdir():
        text = unit.read_text(encoding="utf-8")
        text = text.replace("/srv/scoutvote/.venv", sys.prefix).replace("/srv/scoutvote", str(ROOT))
        name = unit.name.replace("@.", "@1.")  # a template is verified as one instance
        (tmp_path / name).write_text(text, encoding="utf-8")
    units = sorted(str(path) for path in tmp_path.iterdir())
    assert len(units) >= 7
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *units],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    # verify prints nothing for valid units (a missing binary or a bad directive is named).
    problems = [line for line in done.stderr.splitlines() if "scoutvote" in line]
    assert done.returncode == 0 and not problems, done.stderr

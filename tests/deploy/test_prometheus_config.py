"""deploy/prometheus: the scrape config and the alert rules pass promtool (Debian's
``prometheus`` package; ``make test`` installs it), and the alerts fire on the series they are
written for (``promtool test rules``, deploy/prometheus/alerts_test.yml)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import unless_available

PROMETHEUS = Path(__file__).resolve().parents[2] / "deploy" / "prometheus"

pytestmark = unless_available(
    shutil.which("promtool") is None, reason="needs promtool (`make prometheus` installs it)"
)


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["promtool", *args], cwd=PROMETHEUS, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_scrape_config_is_valid_and_loads_the_alerts() -> None:
    done = promtool("check", "config", "prometheus.yml")
    assert "1 rule files found" in done.stdout + done.stderr


def test_the_alert_rules_are_valid() -> None:
    promtool("check", "rules", "alerts.yml")


def test_the_alerts_fire_on_their_series() -> None:
    promtool("test", "rules", "alerts_test.yml")


@pytest.mark.parametrize("name", ["prometheus.yml", "alerts.yml"])
def test_a_broken_file_is_refused(tmp_path: Path, name: str) -> None:
    """promtool is not a rubber stamp: the same file with an unknown key fails its check."""
    broken = tmp_path / name
    broken.write_text((PROMETHEUS / name).read_text() + "\nno_such_key: 1\n")
    command = {"prometheus.yml": "config", "alerts.yml": "rules"}[name]
    done = subprocess.run(
        ["promtool", "check", command, str(broken)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0

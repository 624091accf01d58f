"""A private Prometheus (Debian's ``prometheus`` binary) for a test: deploy/prometheus's scrape
configuration and alert rules, rendered with the run's own targets and a short scrape and
evaluation interval, served on a free loopback port with its storage in a directory of the run.

Plain functions and the standard library (and PyYAML), so a bench imports it without Django.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from devtools.launcher import HOST, ROOT, free_port, spawn, stop_group

DEPLOY = ROOT / "deploy" / "prometheus"


def binary() -> str | None:
    return shutil.which("prometheus") or (
        "/usr/bin/prometheus" if Path("/usr/bin/prometheus").exists() else None
    )


def render_config(targets: Mapping[str, Sequence[str]], interval: str) -> dict[str, Any]:
    """deploy/prometheus/prometheus.yml with each job's targets replaced by ``targets[job]``
    (``host:port``; every job of the file must be given) and ``interval`` as the scrape and
    evaluation interval. The jobs' labels and the rule files stay as deployed."""
    config: dict[str, Any] = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    config["global"]["scrape_interval"] = interval
    config["global"]["evaluation_interval"] = interval
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    if set(jobs) != set(targets):
        raise ValueError(f"targets for {sorted(targets)}, the config's jobs are {sorted(jobs)}")
    for name, job in jobs.items():
        (static,) = job["static_configs"]
        static["targets"] = list(targets[name])
    return config


class PrivatePrometheus:
    """One Prometheus of a test run: ``start``, query its HTTP API, ``stop``."""

    def __init__(
        self, run_dir: Path, targets: Mapping[str, Sequence[str]], *, interval: str = "1s"
    ) -> None:
        self.run_dir = run_dir
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.config = render_config(targets, interval)
        self.process: subprocess.Popen[bytes] | None = None

    def write(self) -> Path:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for rules in self.config.get("rule_files", []):
            shutil.copy(DEPLOY / rules, self.run_dir / rules)
        path = self.run_dir / "prometheus.yml"
        path.write_text(yaml.safe_dump(self.config, sort_keys=False), encoding="utf-8")
        return path

    def start(self, timeout: float = 30) -> None:
        found = binary()
        if found is None:
            raise RuntimeError("prometheus is missing: `make prometheus` installs Debian's package")
        config = self.write()
        command = [found, f"--config.file={config}", f"--web.listen-address={HOST}:{self.port}"]
        command += [f"--storage.tsdb.path={self.run_dir / 'data'}", "--log.level=warn"]
        log = (self.run_dir / "prometheus.log").open("ab")
        try:
            self.process = spawn(command, {}, output=log)
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while not self._ready():
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"prometheus exited with {self.process.returncode}: {self.log_tail()}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(f"prometheus was not ready in {timeout:.0f} s")
            time.sleep(0.1)

    def _ready(self) -> bool:
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{self.url}/-/ready", timeout=1) as answer,
        ):
            return bool(answer.status == 200)
        return False

    def log_tail(self) -> str:
        path = self.run_dir / "prometheus.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process, 10)
            self.process = None

    def api(self, path: str, **params: str) -> Any:
        """The ``data`` of a GET on the HTTP API (``/api/v1/<path>``)."""
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        with urllib.request.urlopen(f"{self.url}/api/v1/{path}{query}", timeout=10) as answer:
            body = json.load(answer)
        if body.get("status") != "success":
            raise RuntimeError(f"prometheus answered {body}")
        return body["data"]

    def query(self, expression: str) -> list[dict[str, Any]]:
        """The instant vector ``expression`` evaluates to now."""
        return list(self.api("query", query=expression)["result"])

    def targets(self) -> list[dict[str, Any]]:
        return list(self.api("targets", state="active")["activeTargets"])

    def alerts(self) -> list[dict[str, Any]]:
        """Pending and firing alerts, each with ``labels`` and ``state``."""
        return list(self.api("alerts")["alerts"])

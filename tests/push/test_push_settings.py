"""The VAPID keys and the test setting, as the server reads them at start."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import override_settings

from devtools.launcher import ROOT
from project.push.vapid import new_key_pair, vapid_check


def _manage(*arguments: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(extra)
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_vapid_keys_prints_a_pair_the_server_accepts() -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    assert set(lines) == {"VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"}
    assert len(lines["VAPID_PUBLIC_KEY"]) == 87 and lines["VAPID_PUBLIC_KEY"].startswith("B")
    with override_settings(**lines):
        vapid_check()
        # Half of another pair is refused.
        other = new_key_pair()
        with (
            override_settings(VAPID_PUBLIC_KEY=other.public_key),
            pytest.raises(ImproperlyConfigured, match="not the public half"),
        ):
            vapid_check()
        with (
            override_settings(VAPID_SUBJECT="ops@example.com"),
            pytest.raises(ImproperlyConfigured, match="VAPID_SUBJECT"),
        ):
            vapid_check()


def test_production_refuses_the_test_setting() -> None:
    result = _manage(
        "check",
        DJANGO_ENV="production",
        DJANGO_SECRET_KEY="p" * 20 + "-a-long-random-production-secret-" + "q" * 20,
        DJANGO_ALLOWED_HOSTS="scouting.example.com",
        PUSH_ALLOW_PRIVATE_ENDPOINTS="true",
    )
    assert result.returncode != 0
    assert "PUSH_ALLOW_PRIVATE_ENDPOINTS must not be set in production" in result.stderr

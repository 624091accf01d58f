"""docs/configuration.md is written from the settings' declarations, and every environment
variable the code reads is declared there exactly once."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from project.settings import document
from project.settings.env import declared, setting

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "configuration.md"


def test_the_page_is_the_one_the_declarations_write() -> None:
    assert PAGE.read_text() == document.render(), "run `make docs`"


def test_the_page_does_not_depend_on_the_environment() -> None:
    """Written under the production profile with services set, the page is the same."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": "k" * 64,
        "DATABASE_URL": "postgres://u@db.example:6432/x",
        "REDIS_URL": "redis://cache.example:6379/4",
        "S3_BUCKET": "avatars",
        "S3_ENDPOINT_URL": "http://minio.example:9000",
    }
    result = subprocess.run(
        [sys.executable, "-m", "project.settings.document", "--check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def _documented() -> set[str]:
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", PAGE.read_text(), re.MULTILINE))


def _read_in_code() -> set[str]:
    """Every upper-case variable name the project's code reads from ``os.environ`` by a literal
    (``os.environ.get("X")``, ``os.environ["X"]``, ``os.getenv("X")``), besides the ones the
    settings read through ``setting()``."""
    names: set[str] = set()
    for path in [*ROOT.glob("project/**/*.py"), *ROOT.glob("realtime/**/*.py")]:
        if path.parent.name == "settings" and path.parent.parent.name == "project":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            key: ast.expr | None = None
            if isinstance(node, ast.Call) and node.args:
                if ast.unparse(node.func) in {"os.environ.get", "_os.environ.get", "os.getenv"}:
                    key = node.args[0]
            elif (
                isinstance(node, ast.Subscript)
                and isinstance(node.ctx, ast.Load)
                and ast.unparse(node.value) in {"os.environ", "_os.environ"}
            ):
                key = node.slice
            if isinstance(key, ast.Constant) and re.fullmatch(r"[A-Z][A-Z0-9_]*", str(key.value)):
                names.add(str(key.value))
    # The server's own WSGI/ASGI environ keys are not deployment knobs.
    return names - {"PATH_INFO", "REQUEST_METHOD", "REMOTE_ADDR"}


def test_every_variable_read_is_documented_and_every_documented_one_is_read() -> None:
    names = {item.name for item in declared()}
    assert _documented() == names
    assert _read_in_code() - names == set(), "declare these in project/settings/"
    # An external declaration names a variable its reader reads itself (or a library: boto3).
    for item in declared():
        for reader in item.reader.split(", ") if item.reader.endswith(".py") else []:
            assert f'"{item.name}"' in (ROOT / reader).read_text(), (item.name, reader)


def test_a_setting_reads_the_environment_and_records_its_declaration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FACTS_PROBE_LIMIT", "7")
    monkeypatch.setenv("FACTS_PROBE_HOSTS", "a, b,")
    monkeypatch.setenv("FACTS_PROBE_ON", "")
    try:
        assert setting("FACTS_PROBE_LIMIT", 3, "A probe's limit.") == 7
        assert setting("FACTS_PROBE_HOSTS", ["x"], "A probe's hosts.") == ["a", "b"]
        # An empty bool counts as unset; an unset one is its default.
        assert setting("FACTS_PROBE_ON", True, "A probe's switch.") is True
        assert setting("FACTS_PROBE_UNSET", 0.5, "A probe's rate.") == 0.5
        probe = {item.name: item for item in declared()}["FACTS_PROBE_LIMIT"]
        assert (probe.default, probe.description, probe.module) == (
            "3",
            "A probe's limit.",
            __name__,
        )
    finally:
        from project.settings import env

        for name in ("LIMIT", "HOSTS", "ON", "UNSET"):
            env.DECLARATIONS.pop(f"FACTS_PROBE_{name}", None)


def test_a_variable_declared_in_two_modules_is_refused() -> None:
    code = (
        "import project.settings\n"
        "from project.settings.env import setting\n"
        "setting('REDIS_URL', '', 'again')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert "REDIS_URL is declared twice" in result.stderr


def test_readme_links_to_the_page_and_repeats_no_table_of_variables() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "docs/configuration.md" in readme
    assert "| variable |" not in readme
    assert "docs/configuration.md" in (ROOT / "deploy" / "README.md").read_text()

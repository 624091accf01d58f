"""The SPA's API types are generated from the server's OpenAPI schema, never written by hand:
the committed frontend/src/lib/api/schema.d.ts must be exactly what
openapi-typescript makes of the live schema. The schema's components also hold the live
socket's messages (realtime/event_payloads.py), so the SPA's event types (lib/live/protocol.ts)
are checked by the same comparison."""

from __future__ import annotations

import difflib
import json
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from realtime.events import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
GENERATOR = FRONTEND / "node_modules" / ".bin" / "openapi-typescript"
COMMITTED = FRONTEND / "src" / "lib" / "api" / "schema.d.ts"
REGENERATE = "Run `make types` and commit frontend/openapi.json and src/lib/api/schema.d.ts."
LIMITS = FRONTEND / "src" / "lib" / "api" / "limits.ts"
REF = "#/components/schemas/"


def test_committed_api_types_match_the_live_schema(tmp_path: Path) -> None:
    if not GENERATOR.exists():
        pytest.fail(
            f"{GENERATOR.relative_to(ROOT)} is missing: install the SPA's packages first "
            "(`make test` does it, or `cd frontend && npm ci`)."
        )
    assert COMMITTED.exists(), f"{COMMITTED.relative_to(ROOT)} does not exist. {REGENERATE}"
    schema = tmp_path / "openapi.json"
    call_command("export_openapi", output=str(schema))
    generated = tmp_path / "schema.d.ts"
    # From frontend/, like `npm run gen:types`, so the same configuration applies.
    result = subprocess.run(
        [str(GENERATOR), str(schema), "-o", str(generated)],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    expected = generated.read_text(encoding="utf-8")
    actual = COMMITTED.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            actual.splitlines(),
            expected.splitlines(),
            "committed schema.d.ts",
            "generated from the live schema",
            lineterm="",
            n=1,
        )
        excerpt = "\n".join(list(diff)[:60])
        pytest.fail(
            f"frontend/src/lib/api/schema.d.ts is out of date with the API. {REGENERATE}\n{excerpt}"
        )


def test_the_schema_describes_every_live_event_and_server_message(tmp_path: Path) -> None:
    """LiveEvent names one envelope per catalogued event type, each with its data's model;
    LiveServerMessage adds the control messages; LiveClientMessage what the SPA sends."""
    output = tmp_path / "openapi.json"
    call_command("export_openapi", output=str(output))
    schemas = json.loads(output.read_text(encoding="utf-8"))["components"]["schemas"]

    def mapping(name: str) -> dict[str, str]:
        union = schemas[name]
        assert union["discriminator"]["propertyName"] == "type"
        refs = [member["$ref"] for member in union["oneOf"]]
        assert sorted(refs) == sorted(union["discriminator"]["mapping"].values())
        return dict(union["discriminator"]["mapping"])

    events = mapping("LiveEvent")
    assert set(events) == set(CATALOGUE)
    for event_type, ref in events.items():
        envelope = schemas[ref.removeprefix(REF)]
        assert envelope["properties"]["type"]["const"] == event_type
        assert set(envelope["required"]) == {"type", "group", "seq", "data"}
        assert set(envelope["properties"]) == {"type", "group", "seq", "sport", "data"}
    controls = mapping("LiveControlMessage")
    assert set(controls) == {
        "hello",
        "subscribed",
        "resumed",
        "resync",
        "snapshot",
        "skipped",
        "presence.changed",
        "review.changed",
        "pong",
        "error",
    }
    assert mapping("LiveServerMessage") == {**events, **controls}
    assert set(mapping("LiveClientMessage")) == {"subscribe", "resume", "watch", "ping"}


def test_committed_field_limits_match_the_live_schema(tmp_path: Path) -> None:
    """frontend/src/lib/api/limits.ts (the bounds the SPA's forms check) is what
    scripts/gen-limits.mjs makes of the live schema: a limit changed on the server reaches the
    forms through `make types`, never by hand."""
    schema = tmp_path / "openapi.json"
    call_command("export_openapi", output=str(schema))
    result = subprocess.run(
        ["node", "scripts/gen-limits.mjs", str(schema), str(LIMITS), "--check"],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, f"{result.stderr}{REGENERATE} (and src/lib/api/limits.ts)"
    live = json.loads(schema.read_text())["components"]["schemas"]
    # The bounds the server's own validators check are in the schema, so they reach the forms.
    assert live["ProfileIn"]["properties"]["bio"]["anyOf"][0]["maxLength"] == 1000
    assert live["RegisterIn"]["properties"]["username"]["minLength"] == 3
    assert live["NominationIn"]["properties"]["age"]["minimum"] == 9

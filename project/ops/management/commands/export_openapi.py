from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Write the API's OpenAPI schema with the live socket's messages in its components "
        "(the source of the SPA's generated types)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--output", default="-", help="file path, or - for stdout")

    def handle(self, *args: Any, output: str, **options: Any) -> None:
        from project.api import api

        schema = api.get_openapi_schema()
        add_live_schemas(schema)
        text = json.dumps(schema, indent=2, sort_keys=True) + "\n"
        if output == "-":
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {output}")


def add_live_schemas(schema: dict[str, Any]) -> None:
    """The websocket's messages (realtime/event_payloads.py: LiveEvent, LiveServerMessage,
    LiveClientMessage and what they use) beside the REST shapes, rendered as ninja renders
    those: a read shape both use (NominationEventOut...) is one component."""
    from ninja.openapi.schema import REF_TEMPLATE
    from ninja.schema import NinjaGenerateJsonSchema

    from realtime.event_payloads import live_json_schemas

    components = schema.setdefault("components", {}).setdefault("schemas", {})
    live = live_json_schemas(ref_template=REF_TEMPLATE, schema_generator=NinjaGenerateJsonSchema)
    for name, body in live.items():
        if components.setdefault(name, body) != body:
            raise ValueError(f"The live schema {name} differs from the API's schema of that name")

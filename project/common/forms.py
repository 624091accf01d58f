"""Form helpers the admin's forms share with the API's validation."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from project.common.text import has_control_characters


def one_line_message(label: str) -> str:
    """What a one-line value (a name, a club) with a line break, a tab or another control
    character is told, in the API (``schemas.single_line``) and in the admin alike."""
    return f"{label} may not contain line breaks, tabs or other control characters"


class OneLineFieldsMixin(forms.BaseForm):
    """A model form of the admin whose fields in ``one_line`` (field: label) refuse line
    breaks, tabs and other control characters, as the API does: they reach emails' subjects
    and share cards."""

    one_line: ClassVar[dict[str, str]] = {}

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        for field, label in self.one_line.items():
            value = cleaned.get(field)
            if isinstance(value, str) and has_control_characters(value):
                self.add_error(field, one_line_message(label))
        return cleaned

"""What an operator does with parked deliveries (emails, pushes): the management command that
lists them and sends some or all again, and the Django admin's action that sends the selected
ones again. Each kind supplies its parked rows, its retry and how a row is listed."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from django.contrib import admin, messages
from django.core.management.base import BaseCommand, CommandError
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest

_M = TypeVar("_M", bound=models.Model)


class ParkedCommand(BaseCommand, Generic[_M]):
    """Lists the parked rows; ``--retry ID [ID ...]`` or ``--retry-all`` sends them again."""

    help = "List parked deliveries; --retry ID [ID ...] or --retry-all sends them again."

    def parked(self) -> QuerySet[_M]:
        raise NotImplementedError

    def retry(self, rows: list[_M]) -> int:
        raise NotImplementedError

    def line(self, row: _M) -> str:
        raise NotImplementedError

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--retry", nargs="+", type=int, default=[], metavar="ID")
        parser.add_argument("--retry-all", action="store_true")

    def handle(self, *args: Any, retry: list[int], retry_all: bool, **options: Any) -> None:
        parked = self.parked()
        if retry or retry_all:
            chosen = parked if retry_all else parked.filter(pk__in=retry)
            missing = set(retry) - set(chosen.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"Not parked: {', '.join(map(str, sorted(missing)))}")
            count = self.retry(list(chosen))
            self.stdout.write(f"Queued again: {count} delivery(ies).")
            return
        rows = list(parked)
        if not rows:
            self.stdout.write("No parked deliveries.")
        for row in rows:
            self.stdout.write(self.line(row))


class ParkedRetryAdmin(admin.ModelAdmin[_M]):
    """A delivery kind's admin: read-only rows and the action that sends the selected parked
    ones again, offered to those who may change the kind's rows."""

    actions = ["retry_parked"]

    def retry(self, rows: list[_M]) -> int:
        raise NotImplementedError

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Send the selected parked deliveries again", permissions=["change"])
    def retry_parked(self, request: HttpRequest, queryset: QuerySet[_M]) -> None:
        count = self.retry(list(queryset))
        self.message_user(request, f"Queued again: {count}.", messages.SUCCESS)

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from project.jobs.models import Delivery, PeriodicRun, WorkerHeartbeat
from project.jobs.parked import ParkedRetryAdmin
from project.jobs.services import deliveries_retry


@admin.register(Delivery)
class DeliveryAdmin(ParkedRetryAdmin[Delivery]):
    list_display = ("id", "key", "status", "attempts", "created_at", "next_attempt_at", "sent_at")
    list_filter = ("status",)
    search_fields = ("key",)
    ordering = ("-created_at",)
    readonly_fields = [f.name for f in Delivery._meta.fields]

    def retry(self, rows: list[Delivery]) -> int:
        return deliveries_retry(rows)


@admin.register(PeriodicRun)
class PeriodicRunAdmin(admin.ModelAdmin[PeriodicRun]):
    list_display = ("name", "period_start", "enqueued_at")
    list_filter = ("name",)
    ordering = ("-period_start",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ("worker_id", "hostname", "pid", "started_at", "last_seen")
    ordering = ("-last_seen",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

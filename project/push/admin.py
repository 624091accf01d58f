from __future__ import annotations

from django.contrib import admin

from project.jobs.parked import ParkedRetryAdmin
from project.push.models import PushDelivery, PushSubscription
from project.push.services import push_deliveries_retry


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ("id", "user", "created_at")
    raw_id_fields = ("user",)
    ordering = ("-created_at",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "created_at")


@admin.register(PushDelivery)
class PushDeliveryAdmin(ParkedRetryAdmin[PushDelivery]):
    list_display = ("id", "key", "status", "attempts", "created_at", "next_attempt_at", "sent_at")
    list_filter = ("status",)
    search_fields = ("key",)
    ordering = ("-created_at",)
    readonly_fields = [f.name for f in PushDelivery._meta.fields]

    def retry(self, rows: list[PushDelivery]) -> int:
        return push_deliveries_retry(rows)

from __future__ import annotations

from django.contrib import admin

from project.push.models import PushDelivery, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ("id", "user", "created_at")
    raw_id_fields = ("user",)
    ordering = ("-created_at",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "created_at")


@admin.register(PushDelivery)
class PushDeliveryAdmin(admin.ModelAdmin[PushDelivery]):
    list_display = ("id", "key", "status", "attempts", "created_at", "next_attempt_at", "sent_at")
    list_filter = ("status",)
    search_fields = ("key",)
    ordering = ("-created_at",)
    readonly_fields = [f.name for f in PushDelivery._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

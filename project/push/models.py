from __future__ import annotations

from django.conf import settings
from django.db import models

from project.jobs.models import DeliveryBase


class PushSubscription(models.Model):
    """A member's device: the push service's endpoint the browser gave, and the keys its
    messages are encrypted to (RFC 8291). The endpoint is unique: a browser that subscribes
    again for another member hands the row over."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=2048, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "created_at"], name="push_sub_user_created")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:60]}"


class PushWindow(models.Model):
    """When a member was last pushed about a nomination: the next push about it waits a
    minute after (``push_enqueue``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    nomination_id = models.BigIntegerField()
    last_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "nomination_id"], name="push_window_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} about {self.nomination_id} at {self.last_at:%H:%M:%S}"


class PushDeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    # The push service no longer knows the device (404/410) or its endpoint stopped being a
    # public address: the subscription is deleted and nothing is sent.
    DROPPED = "dropped", "Dropped"
    PARKED = "parked", "Parked"


class PushDelivery(DeliveryBase):
    """One push to one device, made by the worker at its first attempt. ``key`` is unique (the
    event's key and the device), so a task run again never sends twice; a push that keeps
    failing is parked here, with its member and message for an operator to send again."""

    # The base's status, with DROPPED besides.
    status = models.CharField(
        max_length=10, choices=PushDeliveryStatus.choices, default=PushDeliveryStatus.PENDING
    )
    subscription_id = models.BigIntegerField()
    # The member the push is for and its message: what a retry of a parked push sends. None
    # and empty on a row made before they were kept whose task was gone when they were added
    # (migration 0003): it cannot be sent again.
    user_id = models.BigIntegerField(null=True, blank=True)
    payload = models.JSONField(blank=True, default=dict)

    class Meta:
        verbose_name_plural = "push deliveries"
        indexes = [models.Index(fields=["status", "created_at"], name="push_delivery_status")]

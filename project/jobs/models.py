from __future__ import annotations

from django.db import models


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    PARKED = "parked", "Parked"


class DeliveryBase(models.Model):
    """What every channel's delivery row (an email, a push to one device) keeps for the
    delivery engine (``project/jobs/delivery.py``): ``key`` names what it delivers and is
    unique, so whatever runs its task again it is sent once; the status, attempts and lease
    of the attempt under way; when the next attempt is due; the last error; when it went.
    Each channel's table adds what its sending needs."""

    key = models.CharField(max_length=200, unique=True)
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    # While SENDING: until when the attempt under way owns it (a crashed attempt's ends).
    lease_until = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class Delivery(DeliveryBase):
    """One email, made by the worker at its first attempt. ``key`` names what it delivers (a
    notification, a takedown's confirmation): unique, so whatever runs its task again (a
    worker killed and its task run once more) the email is sent once, retried while it
    fails, and parked here for an admin after the last attempt."""

    recipients = models.JSONField()
    subject = models.CharField(max_length=300)
    body = models.TextField()
    # The HTML alternative (empty: plain text only) and extra headers (List-Unsubscribe).
    html = models.TextField(blank=True, default="")
    headers = models.JSONField(blank=True, default=dict)

    class Meta:
        verbose_name_plural = "deliveries"
        indexes = [models.Index(fields=["status", "created_at"], name="jobs_delivery_status")]

    @property
    def message_id(self) -> str:
        """The email's Message-ID: the same for every attempt, so a copy sent twice (a worker
        killed between the server's acceptance and the row's update) is recognisably one."""
        return f"<{self.key.replace(':', '.')}@scoutvote>"


class PeriodicRun(models.Model):
    """A periodic job enqueued for one period: unique, so schedulers racing enqueue it once."""

    name = models.CharField(max_length=100)
    period_start = models.DateTimeField()
    enqueued_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name", "period_start"], name="jobs_periodic_once")
        ]

    def __str__(self) -> str:
        return f"{self.name} @ {self.period_start:%Y-%m-%d %H:%M}"


class WorkerHeartbeat(models.Model):
    """A worker process and when it last said it was alive."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    hostname = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.worker_id} on {self.hostname} (pid {self.pid})"

"""Verified coaches: a member's request to be verified as a coach, its evidence (a public
roster or staff page, a work email confirmed by a signed link) and the admins' decision. The
endorsements verified coaches write are scouting's ``Endorsement`` rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import choices_check

USER = settings.AUTH_USER_MODEL


class CoachVerificationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    # An admin withdrew the badge of an approved coach: their endorsements leave every page.
    WITHDRAWN = "withdrawn", "Withdrawn"


class CoachVerification(models.Model):
    """A member's request to be a verified coach at a club or school. One open (pending)
    request per member; an approved one that is not withdrawn makes the member a verified
    coach."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="coach_verifications")
    organization = models.CharField(max_length=200)
    role_title = models.CharField(max_length=100)
    evidence_url = models.CharField(max_length=500, blank=True, default="")
    work_email = models.CharField(max_length=254, blank=True, default="")
    # When the member opened the signed link sent to ``work_email``.
    email_confirmed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=16,
        choices=CoachVerificationStatus.choices,
        default=CoachVerificationStatus.PENDING,
    )
    decided_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("status", CoachVerificationStatus, "coach_verification_status_valid"),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="coach_verification_one_open",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="approved"),
                name="coach_verification_one_approved",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created_at"], name="coach_verif_status_created"),
        ]

    def __str__(self) -> str:
        return f"Coach verification {self.pk} of user {self.user_id} ({self.status})"

"""The moderation log: one append-only row per admin action."""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models

from project.common.choices import choices_check

APPEND_ONLY = "The moderation log is append-only"


class ModlogAction(models.TextChoices):
    NOMINATION_APPROVE = "nomination_approve"
    NOMINATION_REJECT = "nomination_reject"
    PLAYER_VERIFY = "player_verify"
    PLAYER_UNVERIFY = "player_unverify"
    PLAYER_EDIT = "player_edit"
    PLAYER_RESTORE = "player_restore"
    USER_ROLE_CHANGE = "user_role_change"
    USER_DELETE = "user_delete"
    REPORT_RESOLVE = "report_resolve"
    TAKEDOWN_DECIDE = "takedown_decide"
    VOTES_VOID = "votes_void"
    VOTES_RESTORE = "votes_restore"
    CLAIM_APPROVE = "claim_approve"
    CLAIM_REJECT = "claim_reject"
    CLAIM_TRANSFER = "claim_transfer"
    CLAIM_REVOKE = "claim_revoke"
    PLAYER_UPDATE_APPROVE = "player_update_approve"
    PLAYER_UPDATE_REJECT = "player_update_reject"
    COACH_APPROVE = "coach_approve"
    COACH_REJECT = "coach_reject"
    COACH_WITHDRAW = "coach_withdraw"
    COMMENT_APPROVE = "comment_approve"
    COMMENT_REMOVE = "comment_remove"
    COMMENT_RESTORE = "comment_restore"
    CLUB_MERGE = "club_merge"


class ModlogTarget(models.TextChoices):
    NOMINATION = "nomination"
    PLAYER = "player"
    USER = "user"
    TAKEDOWN = "takedown"
    ENDORSEMENT = "endorsement"
    COMMENT = "comment"
    CLUB = "club"


class ModlogQuerySet(models.QuerySet["ModlogEntry"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise TypeError(APPEND_ONLY)

    def delete(self) -> NoReturn:
        raise TypeError(APPEND_ONLY)


class ModlogEntry(models.Model):
    """Who did what to which target, why, and the changed fields' before/after. The actor
    and target are plain ids with their names copied at the time: the record outlives a
    deleted user or player, and deleting them never rewrites it."""

    actor_id = models.BigIntegerField(db_index=True)
    actor_name = models.CharField(max_length=150)
    action = models.CharField(max_length=32, choices=ModlogAction.choices)
    target_type = models.CharField(max_length=16, choices=ModlogTarget.choices)
    target_id = models.BigIntegerField()
    target_label = models.CharField(max_length=200, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    # {field: [before, after]} of what the action changed.
    changes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ModlogQuerySet.as_manager()

    class Meta:
        constraints = [
            choices_check("action", ModlogAction, "modlog_action_valid"),
            choices_check("target_type", ModlogTarget, "modlog_target_type_valid"),
        ]
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="modlog_created"),
            models.Index(fields=["target_type", "target_id", "-created_at"], name="modlog_target"),
        ]

    def __str__(self) -> str:
        return f"{self.action} on {self.target_type} {self.target_id} by {self.actor_name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError(APPEND_ONLY)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(APPEND_ONLY)

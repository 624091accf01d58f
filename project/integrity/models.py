"""Vote integrity: flags raised by live detection, and who opened which voter list."""

from __future__ import annotations

from django.db import models

from project.common.choices import choices_check


class FlagRule(models.TextChoices):
    # (a) at least INTEGRITY_PREFIX_ACCOUNTS accounts of one IP cluster voted one nomination
    # within an hour.
    SHARED_PREFIX = "shared_prefix"
    # (b) a voter with at least 10 votes gave more than half of them to one nominator.
    ONE_NOMINATOR = "one_nominator"
    # (c) at least INTEGRITY_NEW_ACCOUNT_BURST votes of new (untrusted) accounts on one
    # nomination within an hour.
    NEW_ACCOUNT_BURST = "new_account_burst"
    # (d) two nominators vote for each other's nominations.
    RECIPROCAL = "reciprocal"


class FlagStatus(models.TextChoices):
    OPEN = "open"
    VOIDED = "voided"  # an admin voided its votes (a restore opens it again)


EXPLANATIONS = {
    FlagRule.SHARED_PREFIX: "{accounts} accounts from one network (cluster {cluster}) voted "
    "for this nomination within {windowMinutes} minutes",
    FlagRule.ONE_NOMINATOR: "Voter {voter} gave {toNominator} of their {votes} votes "
    "({sharePercent}%) to nominations of one nominator ({nominator})",
    FlagRule.NEW_ACCOUNT_BURST: "{accounts} accounts younger than {trustHours} hours voted "
    "for this nomination within {windowMinutes} minutes",
    FlagRule.RECIPROCAL: "Nominators {first} and {second} vote for each other: {firstToSecond} "
    "and {secondToFirst} votes",
}


def _figure(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


class IntegrityFlag(models.Model):
    """One suspicion about a set of votes, kept up to date as its evidence grows: at most one
    open flag per rule and subject (the nomination and cluster, the voter and nominator, the
    pair of nominators)."""

    rule = models.CharField(max_length=24, choices=FlagRule.choices)
    subject = models.CharField(max_length=64)
    status = models.CharField(max_length=8, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    # The nomination voted (rules a and c); None when the subject is a set of nominators.
    nomination = models.ForeignKey(
        "scouting.Nomination", null=True, blank=True, on_delete=models.CASCADE
    )
    # The accounts whose votes the flag is about (voters; for b and d the nominators too).
    accounts = models.JSONField(default=list)
    # The nominators whose nominations received those votes (rules b and d).
    nominators = models.JSONField(default=list)
    # The numbers that matched the rule, for the admin to read ({"accounts": 8, ...}).
    evidence = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            choices_check("rule", FlagRule, "integrity_flag_rule_valid"),
            choices_check("status", FlagStatus, "integrity_flag_status_valid"),
            models.UniqueConstraint(
                fields=["rule", "subject"],
                condition=models.Q(status="open"),
                name="integrity_flag_open_once",
            ),
        ]
        indexes = [models.Index(fields=["-updated_at", "-id"], name="integrity_flag_updated")]

    def __str__(self) -> str:
        return f"{self.rule} {self.subject} ({self.status})"

    @property
    def explanation(self) -> str:
        """The rule and its numbers, in words, for the admin (a whole float reads as the whole
        number: "24 hours", not "24.0 hours")."""
        figures = {key: _figure(value) for key, value in self.evidence.items()}
        try:
            return EXPLANATIONS[FlagRule(self.rule)].format(**figures)
        except (KeyError, ValueError):
            return str(self.rule)


class VoterListView(models.Model):
    """Who opened which voter list, and when: voter lists are sensitive."""

    viewer_id = models.BigIntegerField()
    viewer_name = models.CharField(max_length=150)
    # "nomination" or "user": whose votes were listed.
    target_type = models.CharField(max_length=16)
    target_id = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["target_type", "target_id", "-created_at"], name="voter_list_seen")
        ]

    def __str__(self) -> str:
        return f"{self.viewer_name} viewed {self.target_type} {self.target_id}"

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import Sport, choices_check

USER = settings.AUTH_USER_MODEL


class NominationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    # An admin removed it after a report: seen, with the reason, by its nominator and admins.
    REMOVED = "removed", "Removed"
    # Its player is taken down (a takedown request, pending review): only admins see it;
    # ``status_before_hidden`` keeps the status a restore puts back.
    HIDDEN = "hidden", "Hidden"


# Nominations the community sees; rejected and removed ones only their
# nominator and admins, hidden ones only admins.
LIVE_STATUSES = (NominationStatus.PENDING, NominationStatus.APPROVED)


class NotificationType(models.TextChoices):
    NOMINATION_SUBMITTED = "nomination_submitted"
    NOMINATION_APPROVED = "nomination_approved"
    NOMINATION_REJECTED = "nomination_rejected"
    VOTE_RECEIVED = "vote_received"
    RANK_CHANGED = "rank_changed"
    NEW_FOLLOWER = "new_follower"
    PLAYER_UPDATE = "player_update"
    ENDORSEMENT_RECEIVED = "endorsement_received"
    QUEST_COMPLETED = "quest_completed"
    REFERRAL_JOINED = "referral_joined"
    NOMINATION_REMOVED = "nomination_removed"
    MODERATION_WARNING = "moderation_warning"
    COMMENT_RECEIVED = "comment_received"
    # A followed club has a new approved nomination (project/clubs).
    CLUB_NOMINATION = "club_nomination"


class ActivityType(models.TextChoices):
    NOMINATION_CREATED = "nomination_created"
    VOTE_CAST = "vote_cast"
    PLAYER_CLAIMED = "player_claimed"
    ENDORSEMENT_GIVEN = "endorsement_given"
    PLAYER_UPDATE = "player_update"
    FOLLOW = "follow"
    QUEST_COMPLETED = "quest_completed"


class Club(models.Model):
    """A club players belong to: made or matched from a player's free-text club by
    project/clubs, which keeps ``Player.club_ref`` and ``name_key``."""

    name = models.CharField(max_length=200)
    # The name folded as the search folds it, without spaces (project/clubs: ``club_key``):
    # "F.C. Porto" and "fc porto" are one club of the sport.
    name_key = models.CharField(max_length=200, blank=True, default="", db_default="")
    sport = models.CharField(max_length=32, choices=Sport.choices, default=Sport.FOOTBALL)
    type = models.CharField(max_length=64, blank=True, default="")
    location = models.CharField(max_length=200, blank=True, default="")
    description = models.TextField(blank=True, default="")
    logo_url = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [choices_check("sport", Sport, "club_sport_valid")]
        indexes = [models.Index(fields=["sport", "name_key"], name="club_sport_key")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """An athlete; its ``normalized_identity`` keeps one player per athlete."""

    name = models.CharField(max_length=200)
    age = models.PositiveSmallIntegerField(null=True, blank=True)
    graduation_year = models.PositiveSmallIntegerField(null=True, blank=True)
    position = models.CharField(max_length=100)
    nationality = models.CharField(max_length=100)
    club = models.CharField(max_length=200)
    club_ref = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        db_column="club_id",
    )
    sport = models.CharField(max_length=32, choices=Sport.choices, default=Sport.FOOTBALL)
    skills = models.TextField(blank=True, default="")
    video_link = models.CharField(max_length=500, blank=True, default="")
    verified = models.BooleanField(default=False)
    claimed_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="claimed_players"
    )
    normalized_identity = models.CharField(max_length=400, db_index=True)
    # The searched fields folded (name|position|nationality|club), kept by the services: a
    # search folds its text the same way and looks for it here, on every database alike.
    search_key = models.TextField(blank=True, default="")
    # Set while the player is taken down (a takedown request or an admin's decision): its
    # profile, nominations and the activity about it are hidden from everyone but admins.
    hidden_at = models.DateTimeField(null=True, blank=True)
    # Set while a confirmed takedown request waits for a full decision: the public (signed-out
    # visitors, crawlers' link previews, share cards) does not see the player, and members
    # see its page marked under review (project/moderation/services/takedowns.py).
    under_review_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("sport", Sport, "player_sport_valid"),
            models.CheckConstraint(
                condition=models.Q(age__isnull=True) | models.Q(age__gte=9, age__lte=50),
                name="player_age_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Nomination(models.Model):
    """A scout's nomination of a player in a sport, with its counters and review state."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="nominations")
    nominated_by = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="nominations")
    # Denormalized from the player so community lists filter and sort on one index.
    sport = models.CharField(max_length=32, choices=Sport.choices, default=Sport.FOOTBALL)
    status = models.CharField(
        max_length=16, choices=NominationStatus.choices, default=NominationStatus.PENDING
    )
    reviewed_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="reviewed_nominations"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    rejection_reason = models.TextField(blank=True, default="")
    # Why an admin removed it after a report (shown to its nominator).
    removal_reason = models.TextField(blank=True, default="")
    # The status a takedown hid (restored with the player); blank when not hidden.
    status_before_hidden = models.CharField(
        max_length=16, choices=NominationStatus.choices, blank=True, default=""
    )
    # Kept equal to the number of active (not voided) vote rows by the vote services, in the
    # vote's transaction: the specification's raw count (docs/specification.md §3), trusted or not.
    vote_count = models.PositiveIntegerField(default=0)
    # Its published comments (project/comments keeps it in the comment's transaction).
    comment_count = models.PositiveIntegerField(default=0, db_default=0)
    # The active votes that count on the ranked boards (trusted accounts' votes): the votes
    # behind ``trend``, so the last one's removal empties it.
    counted_votes = models.PositiveIntegerField(default=0, db_default=0)
    # Raised by one in the same UPDATE as vote_count, and carried by vote.changed, so a client
    # never applies a count older than the one it shows (events may leave out of commit order).
    version = models.PositiveBigIntegerField(default=0)
    # Trending score: log(sum(exp(lambda * t_vote))) over the counted votes (t in seconds since
    # the Unix epoch, lambda = ln 2 / BOARD_TRENDING_HALF_LIFE), NULL without any. Every
    # nomination decays at the same rate, so ordering by this column is the trending order at
    # any moment and nothing is ever recomputed (project/scouting/boards/maths.py).
    trend = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("status", NominationStatus, "nomination_status_valid"),
            choices_check("sport", Sport, "nomination_sport_valid"),
            models.CheckConstraint(
                condition=models.Q(vote_count__gte=0), name="nomination_vote_count_gte_0"
            ),
        ]
        indexes = [
            models.Index(
                fields=["status", "sport", "-created_at"], name="nom_status_sport_created"
            ),
            models.Index(fields=["sport", "-created_at"], name="nom_sport_created"),
            models.Index(fields=["sport", "-vote_count", "id"], name="nom_sport_votes"),
            models.Index(fields=["nominated_by", "-created_at"], name="nom_by_created"),
            models.Index(fields=["-created_at"], name="nom_created"),
            models.Index(
                fields=["sport", "-created_at"],
                condition=models.Q(vote_count__lt=5, status__in=["pending", "approved"]),
                name="nom_needing_votes",
            ),
            # The player leaderboard over every sport (bench/reads.py).
            models.Index(
                fields=["-vote_count", "id"],
                condition=models.Q(status__in=["pending", "approved"]),
                name="nom_live_votes",
            ),
            # Trending boards, per sport and across sports.
            models.Index(
                fields=["sport", "-trend", "id"],
                condition=models.Q(status__in=["pending", "approved"], trend__isnull=False),
                name="nom_sport_trend",
            ),
            models.Index(
                fields=["-trend", "id"],
                condition=models.Q(status__in=["pending", "approved"], trend__isnull=False),
                name="nom_live_trend",
            ),
        ]

    def __str__(self) -> str:
        return f"Nomination {self.pk} of {self.player_id}"


class VoteStatus(models.TextChoices):
    ACTIVE = "active"
    # Voided by an admin (project/integrity): out of every count, board and points, kept so
    # the decision can be undone; its voter still sees it as their vote.
    VOID = "void"


class Vote(models.Model):
    """One member's vote for a nomination, with its trust decided when it was cast."""

    nomination = models.ForeignKey(Nomination, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="votes")
    created_at = models.DateTimeField(auto_now_add=True)
    # Whether the vote counts on the ranked boards and in the nominator's points (the voter's
    # account was old enough when it was cast: TRUST_ACCOUNT_AGE_HOURS). Stored, so that its
    # removal undoes exactly what casting it did, whatever the account's age by then.
    counted = models.BooleanField(default=True, db_default=True)
    status = models.CharField(
        max_length=8, choices=VoteStatus.choices, default=VoteStatus.ACTIVE, db_default="active"
    )
    # IP-cluster id: a keyed hash of the voter's /24 or /48 (project/common/addresses.py),
    # never the address; cleared after VOTE_PREFIX_RETENTION_DAYS (purge_vote_prefixes).
    ip_prefix = models.CharField(max_length=16, blank=True, default="", db_default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["nomination", "user"], name="vote_once_per_user"),
            choices_check("status", VoteStatus, "vote_status_valid"),
        ]
        indexes = [
            models.Index(fields=["user", "nomination"], name="vote_user"),
            # Live detection: one nomination's recent votes, and those of one cluster.
            models.Index(fields=["nomination", "created_at"], name="vote_nomination_time"),
            models.Index(
                fields=["nomination", "ip_prefix", "created_at"],
                condition=~models.Q(ip_prefix=""),
                name="vote_nomination_prefix",
            ),
            # The retention purge reads the oldest votes that still hold a cluster id.
            models.Index(
                fields=["created_at"], condition=~models.Q(ip_prefix=""), name="vote_prefix_kept"
            ),
        ]

    def __str__(self) -> str:
        return f"Vote {self.user_id} -> {self.nomination_id}"


class NominationWeek(models.Model):
    """Counted votes a nomination received in one week (the Monday that starts the ISO week
    in BOARD_WEEK_TIME_ZONE), kept in the vote transaction: a vote adds one to the week it is
    cast in, its removal takes one from that same week. A new week is a new key: no job."""

    nomination = models.ForeignKey(Nomination, on_delete=models.CASCADE, related_name="weeks")
    # Denormalized from the nomination so the weekly board reads one index per sport.
    sport = models.CharField(max_length=32, choices=Sport.choices, default=Sport.FOOTBALL)
    week = models.DateField()
    votes = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["nomination", "week"], name="nomination_week_once"),
            models.CheckConstraint(
                condition=models.Q(votes__gte=0), name="nomination_week_votes_gte_0"
            ),
        ]
        indexes = [
            models.Index(fields=["sport", "week", "-votes", "nomination"], name="nomweek_board"),
            models.Index(fields=["week", "-votes", "nomination"], name="nomweek_all"),
        ]

    def __str__(self) -> str:
        return f"{self.nomination_id} in week {self.week}: {self.votes}"


class Follow(models.Model):
    """A member following a scout, a player or a club."""

    follower = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="following")
    followed_user = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.CASCADE, related_name="followers"
    )
    followed_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="followers"
    )
    followed_club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(
                        followed_user__isnull=False,
                        followed_player__isnull=True,
                        followed_club__isnull=True,
                    )
                    | models.Q(
                        followed_user__isnull=True,
                        followed_player__isnull=False,
                        followed_club__isnull=True,
                    )
                    | models.Q(
                        followed_user__isnull=True,
                        followed_player__isnull=True,
                        followed_club__isnull=False,
                    )
                ),
                name="follow_exactly_one_target",
            ),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed_user")),
                name="follow_not_self",
            ),
            models.UniqueConstraint(
                fields=["follower", "followed_user"],
                condition=models.Q(followed_user__isnull=False),
                name="follow_user_once",
            ),
            models.UniqueConstraint(
                fields=["follower", "followed_player"],
                condition=models.Q(followed_player__isnull=False),
                name="follow_player_once",
            ),
            models.UniqueConstraint(
                fields=["follower", "followed_club"],
                condition=models.Q(followed_club__isnull=False),
                name="follow_club_once",
            ),
        ]
        indexes = [models.Index(fields=["follower", "-created_at"], name="follow_follower")]

    def __str__(self) -> str:
        return f"Follow by {self.follower_id}"


class Activity(models.Model):
    """One entry of the feed: something a member did, in a sport."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="activities")
    activity_type = models.CharField(max_length=32, choices=ActivityType.choices)
    related_user = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    related_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    related_nomination = models.ForeignKey(
        Nomination, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    metadata = models.JSONField(default=dict, blank=True)
    # The sport the activity belongs to, so the feed reads one index per sport.
    sport = models.CharField(max_length=32, choices=Sport.choices, default=Sport.FOOTBALL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "activities"
        constraints = [
            choices_check("activity_type", ActivityType, "activity_type_valid"),
            choices_check("sport", Sport, "activity_sport_valid"),
        ]
        indexes = [
            models.Index(fields=["sport", "-created_at", "-id"], name="activity_sport_created"),
            # The feed over every sport, newest first (bench/reads.py).
            models.Index(fields=["-created_at", "-id"], name="activity_created"),
            models.Index(fields=["user", "-created_at"], name="activity_user_created"),
        ]

    def __str__(self) -> str:
        return f"{self.activity_type} by {self.user_id}"


class Notification(models.Model):
    """A message to one member, read or unread."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="notifications")
    message = models.TextField()
    type = models.CharField(max_length=32, choices=NotificationType.choices)
    read = models.BooleanField(default=False)
    related_nomination = models.ForeignKey(
        Nomination, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [choices_check("type", NotificationType, "notification_type_valid")]
        indexes = [
            models.Index(fields=["user", "-created_at", "-id"], name="notification_user_created"),
            models.Index(
                fields=["user"],
                condition=models.Q(read=False),
                name="notification_user_unread",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.type} for {self.user_id}"


class Endorsement(models.Model):
    """A verified coach's endorsement of a player: one per coach and player. Written and read
    through project/coaches; shown while its coach is verified, the claimant has not hidden it
    and no moderator removed it on reports."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="endorsements")
    endorser = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="endorsements")
    content = models.TextField(blank=True, default="")
    rating = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The claimant took it off the player's page.
    hidden_at = models.DateTimeField(null=True, blank=True)
    # A moderator removed it on reports (moderation's reports_resolve).
    removed_at = models.DateTimeField(null=True, blank=True)
    removal_reason = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "endorser"], name="endorsement_once"),
            models.CheckConstraint(
                condition=models.Q(rating__isnull=True) | models.Q(rating__gte=1, rating__lte=5),
                name="endorsement_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Endorsement {self.pk}"

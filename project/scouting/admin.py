from django import forms
from django.contrib import admin

from project.common.forms import OneLineFieldsMixin
from project.scouting import models


class ClubForm(OneLineFieldsMixin, forms.ModelForm):
    one_line = {"name": "Name", "location": "Location"}


class PlayerForm(OneLineFieldsMixin, forms.ModelForm):
    one_line = {
        "name": "Name",
        "position": "Position",
        "nationality": "Nationality",
        "club": "Club",
    }


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    form = ClubForm
    list_display = ("name", "sport", "type", "location", "created_at")
    list_filter = ("sport",)
    search_fields = ("name", "location")


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ("name", "sport", "position", "club", "verified", "created_at")
    list_filter = ("sport", "verified")
    search_fields = ("name", "club", "normalized_identity")
    raw_id_fields = ("club_ref", "claimed_by")


@admin.register(models.Nomination)
class NominationAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "nominated_by", "sport", "status", "vote_count", "created_at")
    list_filter = ("status", "sport")
    search_fields = ("player__name", "nominated_by__username")
    raw_id_fields = ("player", "nominated_by", "reviewed_by")
    # The vote services keep vote_count equal to the vote rows.
    readonly_fields = ("vote_count",)


@admin.register(models.Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ("id", "nomination", "user", "created_at")
    raw_id_fields = ("nomination", "user")

    def has_add_permission(self, request, obj=None):
        return False  # votes go through the vote service that keeps counters exact

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("id", "follower", "followed_user", "followed_player", "followed_club")
    raw_id_fields = ("follower", "followed_user", "followed_player", "followed_club")


@admin.register(models.Activity)
class ActivityAdmin(admin.ModelAdmin):
    list_display = ("id", "activity_type", "user", "sport", "created_at")
    list_filter = ("activity_type", "sport")
    raw_id_fields = ("user", "related_user", "related_player", "related_nomination")


@admin.register(models.Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "type", "read", "created_at")
    list_filter = ("type", "read")
    raw_id_fields = ("user", "related_nomination")


@admin.register(models.Endorsement)
class EndorsementAdmin(admin.ModelAdmin):
    list_display = ("player", "endorser", "rating", "created_at")
    raw_id_fields = ("player", "endorser")

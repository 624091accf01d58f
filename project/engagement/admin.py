from django.contrib import admin

from project.engagement import models


@admin.register(models.Quest)
class QuestAdmin(admin.ModelAdmin):
    list_display = ("name", "type", "period", "points_reward", "target_count", "active")
    list_filter = ("type", "active")


@admin.register(models.UserQuest)
class UserQuestAdmin(admin.ModelAdmin):
    list_display = ("user", "quest", "period_start", "progress", "completed_at", "expires_at")
    raw_id_fields = ("user", "quest")


@admin.register(models.Referral)
class ReferralAdmin(admin.ModelAdmin):
    list_display = ("referrer", "referred", "state", "reason", "created_at", "decided_at")
    list_filter = ("state", "reason")
    raw_id_fields = ("referrer", "referred")

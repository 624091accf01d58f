from django.contrib import admin

from project.coaches import models


@admin.register(models.CoachVerification)
class CoachVerificationAdmin(admin.ModelAdmin):
    list_display = ("user", "organization", "role_title", "status", "created_at")
    list_filter = ("status",)
    raw_id_fields = ("user", "decided_by")

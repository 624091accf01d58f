from django.contrib import admin

from project.claims import models


@admin.register(models.Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ("player", "claimant", "relationship", "birth_year", "status", "created_at")
    list_filter = ("status", "relationship")
    raw_id_fields = ("player", "claimant", "decided_by")

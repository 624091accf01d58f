from django.contrib import admin

from project.comments.models import Comment, CommentReport


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "nomination", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("content",)
    raw_id_fields = ("user", "nomination", "player", "decided_by")


@admin.register(CommentReport)
class CommentReportAdmin(admin.ModelAdmin):
    list_display = ("id", "comment", "reporter", "weight", "outcome", "created_at")
    raw_id_fields = ("comment", "reporter")

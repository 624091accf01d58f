from django.contrib import admin

from project.media.models import AvatarUpload


@admin.register(AvatarUpload)
class AvatarUploadAdmin(admin.ModelAdmin):
    list_display = ("key", "user", "created_at", "expires_at", "used_at", "content_type")
    list_select_related = ("user",)
    search_fields = ("key", "user__username")
    readonly_fields = ("key", "user", "created_at", "expires_at", "used_at", "content_type")

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm

from project.accounts.models import User, UserSettings
from project.accounts.throttle import forget_login_attempts, register_login_attempt
from project.common.errors import Throttled


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    """The Django admin's sign-in behind the product's login throttle: the same counters per
    user name (its key) and per client address as POST /api/auth/login, so the admin page is
    no way around them."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        if self.request is not None and username:
            try:
                register_login_attempt(self.request, username)
            except Throttled as exc:
                raise forms.ValidationError(exc.message, code="throttled") from None
        cleaned = super().clean()
        if self.request is not None and username:
            forget_login_attempts(self.request, username)
        return cleaned


admin.site.login_form = ThrottledAdminAuthenticationForm


class UserCreationByKeyForm(AdminUserCreationForm):
    """The admin's "add user" refuses a name confusable with an existing one (same key or
    skeleton), as registration does, instead of failing on a unique column."""

    def clean_username(self) -> str:
        username: str = super().clean_username()
        if username and User.objects.confusable_with(username).exists():
            raise forms.ValidationError("Username is already taken", code="unique")
        return username


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    add_form = UserCreationByKeyForm
    list_display = ("username", "name", "email", "role", "points", "current_streak", "created_at")
    list_filter = ("role", "is_active")
    search_fields = ("username", "name", "email")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (
            "Scouting",
            {
                "fields": (
                    "name",
                    "role",
                    "points",
                    "referral_code",
                    "referred_by",
                    "current_streak",
                    "longest_streak",
                    "last_activity_date",
                    "avatar_url",
                    "bio",
                    "location",
                    "favorite_sport",
                    "phone_number",
                )
            },
        ),
    )
    raw_id_fields = ("referred_by",)


@admin.register(UserSettings)
class UserSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "profile_visibility", "allow_discoverability", "updated_at")
    raw_id_fields = ("user",)

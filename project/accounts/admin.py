from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from project.accounts.models import User, UserSettings
from project.common.forms import OneLineFieldsMixin


class UserCreationByKeyForm(AdminUserCreationForm):
    """The admin's "add user" refuses a name confusable with an existing one (same key or
    skeleton), as registration does, instead of failing on a unique column."""

    def clean_username(self) -> str:
        username: str = super().clean_username()
        if username and User.objects.confusable_with(username).exists():
            raise forms.ValidationError("Username is already taken", code="unique")
        return username


class UserChangeOneLineForm(OneLineFieldsMixin, UserChangeForm):
    """The admin's user form: the member's names are one line, as the API keeps them."""

    one_line = {"name": "Name", "first_name": "First name", "last_name": "Last name"}


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    add_form = UserCreationByKeyForm
    form = UserChangeOneLineForm
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

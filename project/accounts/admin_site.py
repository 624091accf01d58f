"""The Django admin (/admin-django/) behind the product's sign-in rules: the login throttle, the
second factor of an account that has one, and ``ADMIN_2FA_REQUIRED``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.db import transaction
from django.http import HttpRequest

from project.accounts.models import User
from project.accounts.throttle import forget_login_attempts, register_login_attempt
from project.accounts.two_factor import INVALID_CODE, second_factor_check, two_factor_enabled
from project.common.errors import Throttled
from project.common.second_factor import admin_session_allowed, second_factor_passed


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    """The Django admin's sign-in behind the product's login throttle (the same counters per
    user name and per client address as POST /api/auth/login) and the account's second
    factor, so the admin page is no way around either."""

    code = forms.CharField(
        label="Authenticator or recovery code",
        required=False,
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}),
    )

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        if self.request is not None and username:
            try:
                register_login_attempt(self.request, username)
            except Throttled as exc:
                raise forms.ValidationError(exc.message, code="throttled") from None
        cleaned = super().clean()
        user = self.get_user()
        if isinstance(user, User) and two_factor_enabled(user):
            with transaction.atomic():
                if not second_factor_check(user=user, code=cleaned.get("code") or ""):
                    # Asked only once the password is right (super().clean() refuses a wrong
                    # one first, in the same words for every account), so it may say so.
                    raise forms.ValidationError(
                        {"code": forms.ValidationError(INVALID_CODE, code="invalid_code")}
                    )
            if self.request is not None:
                # Kept through login(), which cycles the session key but keeps its data.
                second_factor_passed(self.request.session, user.pk)
        if self.request is not None and username:
            forget_login_attempts(self.request, username)
        return cleaned


class ScoutAdminSite(admin.AdminSite):
    login_form = ThrottledAdminAuthenticationForm
    login_template = "accounts/admin_login.html"

    def has_permission(self, request: HttpRequest) -> bool:
        # Django's own rule (an active staff member: the admin role keeps is_staff in step,
        # and a superuser made by createsuperuser has it) and the session's second factor.
        user_id = request.user.pk
        if not super().has_permission(request) or user_id is None:
            return False
        return admin_session_allowed(request.session, user_id)

"""Managing other accounts: changing a role, deleting an account."""

from __future__ import annotations

from django.db import transaction

from project.accounts.models import Role, User
from project.accounts.services import admins_lock, refuse_last_admin, user_delete
from project.common.errors import NotFound, ValidationFailed
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from realtime.publish import close_user_sockets

USER_NOT_FOUND = "User not found"
CANNOT_DELETE_SELF = "You cannot delete your own account here"
CANNOT_CHANGE_OWN_ROLE = "You cannot change your own role"


def _other_user(*, admin: User, user_id: int, self_message: str) -> User:
    if user_id == admin.pk:
        raise ValidationFailed(self_message, code="own_account")
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise NotFound(USER_NOT_FOUND)
    return user


@transaction.atomic
def user_role_change(*, admin: User, user_id: int, role: str) -> User:
    """Make a user a scout or an admin (never oneself). Their sockets close, so they
    reconnect with the rights of the new role."""
    user = _other_user(admin=admin, user_id=user_id, self_message=CANNOT_CHANGE_OWN_ROLE)
    admins = admins_lock(caller=admin)
    user.refresh_from_db(fields=["role", "is_staff"])
    if role != Role.ADMIN:
        refuse_last_admin(admins, user.pk)
    if user.role != role:
        modlog_record(
            actor=admin,
            action=ModlogAction.USER_ROLE_CHANGE,
            target_type=ModlogTarget.USER,
            target_id=user.pk,
            target_label=f"{user.name} (@{user.username})",
            changes={"role": [user.role, role]},
        )
        user.role = role
        user.is_staff = role == Role.ADMIN
        user.save(update_fields=["role", "is_staff"])
        close_user_sockets(user.pk, reason="role_changed")
    return user


@transaction.atomic
def admin_user_delete(*, admin: User, user_id: int, reason: str = "") -> None:
    """Delete another user with everything that is theirs (see ``user_delete``)."""
    user = _other_user(admin=admin, user_id=user_id, self_message=CANNOT_DELETE_SELF)
    refuse_last_admin(admins_lock(caller=admin), user.pk)
    modlog_record(
        actor=admin,
        action=ModlogAction.USER_DELETE,
        target_type=ModlogTarget.USER,
        target_id=user.pk,
        target_label=f"{user.name} (@{user.username})",
        reason=reason,
    )
    user_delete(user=user)

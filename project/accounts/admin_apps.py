from django.contrib.admin.apps import AdminConfig


class ScoutAdminConfig(AdminConfig):
    """The Django admin, on the site that keeps the product's sign-in rules."""

    default_site = "project.accounts.admin_site.ScoutAdminSite"

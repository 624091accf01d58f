from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Commands that operate the whole product (serve it, seed demo data, export the API
    schema): the one place allowed to import every domain app."""

    name = "project.ops"
    label = "ops"

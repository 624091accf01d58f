from django.apps import AppConfig


class JobsConfig(AppConfig):
    """Background work: emails (one delivery row each, its idempotency key unique), the periodic
    jobs' schedule, and the worker that runs them on Django's tasks API (database backend)."""

    name = "project.jobs"
    label = "jobs"
    verbose_name = "Background work"

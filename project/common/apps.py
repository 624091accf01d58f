from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "project.common"
    label = "common"

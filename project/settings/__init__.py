"""Settings: every deployment knob is an environment variable, declared once.

Each module holds one concern; each variable is read through ``project.settings.env.setting``
with its default and description, and docs/configuration.md is written from those
declarations (``make docs``). A new setting goes into the module of its concern:

    MY_LIMIT = setting("MY_LIMIT", 10, "What it limits, in one line.")

A new concern is a new module, imported below in order.
"""

# ruff: noqa: F403
# isort: skip_file
from project.settings.base import *
from project.settings.database import *
from project.settings.live import *
from project.settings.accounts import *
from project.settings.budgets import *
from project.settings.privacy import *
from project.settings.boards import *
from project.settings.sharing import *
from project.settings.comments import *
from project.settings.media import *
from project.settings.email import *
from project.settings.jobs import *
from project.settings.push import *
from project.settings.engagement import *
from project.settings.security import *
from project.settings.operations import *

from tests.scouting.conftest import events  # noqa: F401  (the live-event recorder fixture)

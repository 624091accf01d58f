"""What the live socket says, as pydantic models: each event type's ``data``, the event
envelope, the protocol's other server messages and the client's messages.

The SPA's types are generated from these (``manage.py export_openapi`` writes them into the
OpenAPI document's components, ``npm run gen:types`` turns them into TypeScript), so the wire
and the SPA cannot drift apart silently.

The live layer imports no domain app, so the payloads that are a domain read shape (a
nomination, an activity, a flag...) are registered by the app that owns the shape, from its
``ready()``, through :func:`realtime.publish.register_payloads`; the payloads the live layer
defines itself are here. In DEBUG and in the tests (``REALTIME_VALIDATE_EVENTS``) every
published payload is checked against its model, so a publisher drifting from it fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

from django.conf import settings
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.alias_generators import to_camel
from pydantic.json_schema import GenerateJsonSchema, SkipJsonSchema

from realtime.events import CATALOGUE


class Wire(BaseModel):
    """camelCase on the wire, like the REST shapes; unknown keys are an error (drift)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


Cursors = dict[str, int]


# --- Payloads the live layer defines ------------------------------------------------------


class VoteCount(Wire):
    """A nomination's vote count at its version (the version rises by one per change)."""

    nomination_id: int
    vote_count: int
    version: int


class VoteChangedData(Wire):
    """The counts that changed in the sport's merge window, the latest of each nomination."""

    votes: list[VoteCount]


class VoteOwnData(VoteCount):
    """The reader's own vote, for their other tabs (their user group only)."""

    has_voted: bool


class FollowOwnData(Wire):
    """The reader's own follow or unfollow, for their other tabs: one of the ids is set."""

    player_id: int | None
    user_id: int | None
    club_id: int | None = None
    following: bool


class NominationRemovedData(Wire):
    id: int


class ProfileChangedData(Wire):
    points: int
    current_streak: int
    longest_streak: int


_payloads: dict[str, Any] = {
    "vote.changed": VoteChangedData,
    "vote.own": VoteOwnData,
    "follow.own": FollowOwnData,
    "nomination.removed": NominationRemovedData,
    "profile.changed": ProfileChangedData,
}
_adapters: dict[str, TypeAdapter[Any]] = {}


def register_payloads(payloads: Mapping[str, Any]) -> None:
    """Name the model (or annotated union) of each event type's ``data``. The app that owns a
    read shape registers it from its ``ready()``; registering another model for a type that
    has one is an error."""
    for event_type, model in payloads.items():
        if event_type not in CATALOGUE:
            raise ValueError(f"Unknown live event type {event_type!r}: add it to the catalogue")
        registered = _payloads.get(event_type)
        if registered is not None and registered is not model:
            raise ValueError(f"{event_type} already has a payload model: {registered!r}")
        _payloads[event_type] = model


def payload_models() -> dict[str, Any]:
    """Event type -> the model of its ``data``, in catalogue order (those registered)."""
    return {kind: _payloads[kind] for kind in CATALOGUE if kind in _payloads}


def validation_enabled() -> bool:
    return bool(getattr(settings, "REALTIME_VALIDATE_EVENTS", settings.DEBUG))


def validate_payload(event_type: str, data: Any) -> None:
    """Raise ``ValueError`` unless ``data`` is what ``event_type``'s model describes."""
    adapter = _adapters.get(event_type)
    if adapter is None:
        model = _payloads.get(event_type)
        if model is None:
            raise ValueError(f"{event_type} has no payload model: register one")
        adapter = _adapters[event_type] = TypeAdapter(model)
    try:
        value = adapter.validate_python(data)
    except ValueError as error:  # pydantic's ValidationError is one
        raise ValueError(f"{event_type} payload does not match its model: {error}") from error
    # A key the model does not know (or one it would add) is drift too, even in a model that
    # ignores unknown keys when reading (the REST shapes).
    stray = _stray_key(adapter.dump_python(value, by_alias=True), data, event_type)
    if stray:
        raise ValueError(f"{event_type} payload does not match its model: {stray}")


def _stray_key(model: Any, sent: Any, path: str) -> str | None:
    if isinstance(model, dict) and isinstance(sent, dict):
        if model.keys() != sent.keys():
            extra, missing = sorted(sent.keys() - model.keys()), sorted(model.keys() - sent.keys())
            return f"at {path}: keys not in the model {extra}, keys of the model not sent {missing}"
        found = (_stray_key(model[key], sent[key], f"{path}.{key}") for key in model)
        return next(filter(None, found), None)
    if isinstance(model, list) and isinstance(sent, list):
        found = (
            _stray_key(a, b, f"{path}[{i}]")
            for i, (a, b) in enumerate(zip(model, sent, strict=True))
        )
        return next(filter(None, found), None)
    return None


# --- The protocol's messages (realtime/README.md) -----------------------------------------


class PresenceCount(Wire):
    """ "N watching": how many sockets watch a nomination or a sport (counts, never who)."""

    scope: Literal["nomination", "sport"]
    id: int | str
    watching: int


class ReviewMark(Wire):
    """Which pending nomination another admin has open."""

    nomination_id: int
    name: str


class ReviewsData(Wire):
    reviews: list[ReviewMark]


class HelloMessage(Wire):
    type: Literal["hello"]
    epoch: str | None
    groups: Cursors


class SubscribedMessage(Wire):
    type: Literal["subscribed"]
    sport: str
    groups: Cursors


class ResumedMessage(Wire):
    type: Literal["resumed"]
    groups: Cursors


class ResyncMessage(Wire):
    type: Literal["resync"]
    groups: list[str]
    cursors: Cursors


class SkippedMessage(Wire):
    """Stands for a board or stats event replaced by a newer one: move the cursor only."""

    type: Literal["skipped"]
    group: str
    seq: int


class PresenceChangedMessage(Wire):
    type: Literal["presence.changed"]
    data: PresenceCount


class ReviewChangedMessage(Wire):
    type: Literal["review.changed"]
    data: ReviewsData


class PongMessage(Wire):
    type: Literal["pong"]


class ErrorMessage(Wire):
    type: Literal["error"]
    message: str


class SubscribeMessage(Wire):
    """``cursor``: the client's last seq of the sport's group, when it holds one (the server
    replays from it, then ``resumed``; or ``resync`` past the horizon)."""

    type: Literal["subscribe"]
    sport: str
    cursor: int | None = None


class ResumeMessage(Wire):
    type: Literal["resume"]
    cursors: Cursors


class WatchMessage(Wire):
    type: Literal["watch"]
    nomination_id: int | None


class PingMessage(Wire):
    type: Literal["ping"]


LiveClientMessage = Annotated[
    Union[SubscribeMessage, ResumeMessage, WatchMessage, PingMessage],  # noqa: UP007
    Field(discriminator="type"),
]


def _model_name(event_type: str) -> str:
    """vote.changed -> VoteChanged"""
    return "".join(part[:1].upper() + part[1:] for part in event_type.replace(".", "_").split("_"))


# Typing's forms, applied to types known only at run time (the registered payloads).
_literal: Any = Literal
_union: Any = Union
_annotated: Any = Annotated


def _one_of(members: list[Any]) -> Any:
    """The members as one union told apart by their ``type`` (oneOf + discriminator)."""
    return _annotated[_union[tuple(members)], Field(discriminator="type")]


_dict: Any = dict


def _model(name: str, doc: str | None, base: type[Wire] = Wire, **fields: Any) -> type[BaseModel]:
    model: type[BaseModel] = create_model(name, __base__=base, __doc__=doc, **fields)
    return model


class _Envelope(Wire):
    """What every event has around its data; ``sport`` only on a sport's events."""

    group: str
    seq: int
    sport: str | SkipJsonSchema[None] = None


def event_model(event_type: str) -> type[BaseModel]:
    """The envelope of one event type: type, group, seq, sport (sport events only), data."""
    return _model(
        f"{_model_name(event_type)}Event",
        None,
        _Envelope,
        type=(_literal[event_type], ...),
        data=(_payloads[event_type], ...),
    )


def protocol_types() -> dict[str, Any]:
    """The protocol's named types, built from the registered payloads: ``LiveEvent`` (every
    event, by ``type``), ``LiveControlMessage`` (every other server message),
    ``LiveServerMessage`` (either) and ``LiveClientMessage``."""
    missing = sorted(set(CATALOGUE) - set(_payloads))
    if missing:
        raise ValueError(f"Live event types without a payload model: {missing}")
    events = [event_model(event_type) for event_type in CATALOGUE]
    snapshot_data = _model(
        "SnapshotData",
        "A sport's boards (by kind, each as leaderboard.changed carries it) and stats.",
        leaderboards=(_dict[str, _payloads["leaderboard.changed"]], ...),
        stats=(_payloads["stats.changed"], ...),
    )
    snapshot = _model(
        "SnapshotMessage",
        "The sport's boards and stats, first after subscribe or a resync.",
        type=(Literal["snapshot"], ...),
        group=(str, ...),
        seq=(int, ...),
        data=(snapshot_data, ...),
    )
    controls: list[Any] = [
        HelloMessage,
        SubscribedMessage,
        ResumedMessage,
        ResyncMessage,
        snapshot,
        SkippedMessage,
        PresenceChangedMessage,
        ReviewChangedMessage,
        PongMessage,
        ErrorMessage,
    ]
    return {
        "LiveEvent": _one_of(events),
        "LiveControlMessage": _one_of(controls),
        "LiveServerMessage": _one_of(events + controls),
        "LiveClientMessage": LiveClientMessage,
    }


def server_message_adapter() -> TypeAdapter[Any]:
    """Validates any message the server sends on the socket (tests)."""
    return TypeAdapter(protocol_types()["LiveServerMessage"])


def live_json_schemas(
    *,
    ref_template: str,
    schema_generator: type[GenerateJsonSchema] = GenerateJsonSchema,
) -> dict[str, Any]:
    """Named JSON schemas of the protocol's types and of every model they use, for the
    OpenAPI document's components (``ref_template`` points into them)."""
    named: dict[str, Any] = {}
    for name, annotated in protocol_types().items():
        schema = TypeAdapter(annotated).json_schema(
            by_alias=True,
            ref_template=ref_template,
            schema_generator=schema_generator,
            mode="serialization",
        )
        for definition, body in schema.pop("$defs", {}).items():
            _add(named, definition, body)
        _add(named, name, {"title": name, **schema})
    return named


def _add(named: dict[str, Any], name: str, body: Any) -> None:
    if named.setdefault(name, body) != body:
        raise ValueError(f"Two different live schemas are both named {name}")

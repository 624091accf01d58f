"""Encodes an event once per group and hands it to the channel layer."""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from realtime.publish import Event


def broadcast(event: Event) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group in event.groups():
        envelope = {"type": event.type, "data": event.data}
        if event.sport:
            envelope["sport"] = event.sport
        text = json.dumps(envelope, separators=(",", ":"), default=str)
        async_to_sync(layer.group_send)(group, {"type": "event.message", "text": text})

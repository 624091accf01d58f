"""A real SMTP server for the tests (aiosmtpd on a loopback port): it records what it accepts,
and can be told to answer an error or to take its time."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller

from devtools.launcher import HOST, free_port


@dataclass
class Received:
    sender: str
    recipients: list[str]
    message: Message

    @property
    def message_id(self) -> str:
        return str(self.message["Message-ID"])

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    def part(self, content_type: str) -> str | None:
        """The decoded part of this type (the message itself when it is not multipart)."""
        for part in self.message.walk():
            if part.get_content_type() == content_type:
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                return payload.decode(part.get_content_charset() or "utf-8")
        return None

    @property
    def body(self) -> str:
        text = self.part("text/plain")
        assert text is not None
        return text

    @property
    def html(self) -> str | None:
        return self.part("text/html")


@dataclass
class Handler:
    received: list[Received] = field(default_factory=list)
    # An SMTP reply to every RCPT TO instead of accepting it ("451 ...", "550 ...").
    refuse_with: str | None = None
    # Seconds to wait before answering each RCPT TO (before any message data is sent).
    delay: float = 0.0
    # RCPT TO commands begun: one more than the messages received while one is in flight.
    recipients_begun: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        with self.lock:
            self.recipients_begun += 1
        if self.delay:
            time.sleep(self.delay)  # the server's loop waits too: one client at a time
        if self.refuse_with:
            return self.refuse_with
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            message = message_from_bytes(envelope.content)
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self) -> None:
        self.handler = Handler()
        self.port = free_port()
        self.controller = Controller(self.handler, hostname=HOST, port=self.port)

    @property
    def received(self) -> list[Received]:
        with self.handler.lock:
            return list(self.handler.received)

    def sending(self) -> bool:
        """Whether a client is in the middle of a message (past RCPT TO, before its data)."""
        with self.handler.lock:
            return self.handler.recipients_begun > len(self.handler.received)

    @property
    def url(self) -> str:
        return f"smtp://{HOST}:{self.port}"

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()

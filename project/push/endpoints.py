"""Push endpoints are URLs a client supplies and the server then posts to: only https URLs
whose host resolves to public addresses pass (PUSH_ALLOW_PRIVATE_ENDPOINTS, for tests, lets
http and local addresses through)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

ENDPOINT_INVALID = "Push endpoint must be a valid URL"
ENDPOINT_NOT_HTTPS = "Push endpoint must use https"
ENDPOINT_PORT = "Push endpoint must use the default https port"
ENDPOINT_UNRESOLVED = "Push endpoint's host could not be resolved"
ENDPOINT_PRIVATE = "Push endpoint must be on a public address"
MAX_ENDPOINT_LENGTH = 2048

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Ranges ipaddress counts as global that a push service never is on: IPv4 multicast and
# the NAT64 prefix (its last 32 bits an IPv4 address, checked as one).
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class EndpointRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Endpoint:
    url: str
    scheme: str
    host: str
    port: int
    target: str  # path and query, as sent in the request line

    @property
    def origin(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}" + ("" if self.port == default else f":{self.port}")


def endpoint_parse(url: str) -> Endpoint:
    """The endpoint's parts, or EndpointRefused (not a URL, not https, credentials in it)."""
    local = settings.PUSH_ALLOW_PRIVATE_ENDPOINTS
    if not isinstance(url, str) or not url or len(url) > MAX_ENDPOINT_LENGTH:
        raise EndpointRefused(ENDPOINT_INVALID)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise EndpointRefused(ENDPOINT_INVALID) from error
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise EndpointRefused(ENDPOINT_INVALID)
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise EndpointRefused(ENDPOINT_INVALID)
    if any(c.isspace() or ord(c) < 0x21 for c in url):
        raise EndpointRefused(ENDPOINT_INVALID)
    if parts.scheme != "https" and not local:
        raise EndpointRefused(ENDPOINT_NOT_HTTPS)
    default = 443 if parts.scheme == "https" else 80
    if port not in (None, default) and not local:
        raise EndpointRefused(ENDPOINT_PORT)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return Endpoint(
        url=url,
        scheme=parts.scheme,
        host=parts.hostname,
        port=port or default,
        target=target,
    )


def address_is_public(address: IPAddress) -> bool:
    """Whether ``address`` is on the public internet: not loopback, private, link-local (the
    cloud metadata service 169.254.169.254 among them), shared (CGNAT 100.64/10), unique
    local (fd00:ec2::254 among them), multicast, reserved or unspecified; an IPv6 address
    carrying an IPv4 one (mapped, 6to4, NAT64) is judged by that."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            return address_is_public(embedded)
    return not (
        address.is_multicast
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_unspecified
        or not address.is_global
    )


def endpoint_addresses(endpoint: Endpoint) -> list[IPAddress]:
    """The addresses the endpoint's host resolves to, every one of them public (else
    EndpointRefused); checked at subscription and again before each send, whose connection
    goes to the first of them (a name that resolves elsewhere later is not followed)."""
    try:
        infos = socket.getaddrinfo(endpoint.host, endpoint.port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as error:
        raise EndpointRefused(ENDPOINT_UNRESOLVED) from error
    addresses: list[IPAddress] = []
    for info in infos:
        # An IPv6 address may carry a zone ("fe80::1%eth0"): link-local, refused below.
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise EndpointRefused(ENDPOINT_UNRESOLVED)
    if not settings.PUSH_ALLOW_PRIVATE_ENDPOINTS and not all(map(address_is_public, addresses)):
        raise EndpointRefused(ENDPOINT_PRIVATE)
    return addresses

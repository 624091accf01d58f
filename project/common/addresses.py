"""Client addresses, never stored: keyed hashes of an address or of its network prefix.

The key is derived from SECRET_KEY, so the hashes cannot be reversed by enumerating the
address space without it, and they change when the secret does.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from django.conf import settings

# Bits of the prefix that clusters votes: a /24 holds one household, office or small
# provider pool in IPv4; a /48 is one site in IPv6.
IPV4_PREFIX = 24
IPV6_PREFIX = 48
# Bits of an IPv6 address that are one client for per-address limits: a subscriber's /64.
IPV6_CLIENT_PREFIX = 64
# Hex digits kept of a prefix key (64 bits: collisions between real prefixes are negligible).
PREFIX_KEY_LENGTH = 16


def _secret() -> bytes:
    return hashlib.sha256(b"scoutvote-address-key:" + settings.SECRET_KEY.encode()).digest()


def client_of(address: str) -> str:
    """What per-address limits count as one client: an IPv4 address (an IPv4-mapped IPv6 one
    too), or the /64 network of an IPv6 address, since one subscriber is given a whole /64 and
    picks any address in it at will. Anything that is not an address is taken as it is."""
    text = address.strip()
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(ip)


def address_key(address: str) -> str:
    """A keyed hash of one client (``client_of``: an IPv4 address or an IPv6 /64); budgets and
    throttles per address use it as their subject."""
    return hmac.new(_secret(), client_of(address).encode(), hashlib.sha256).hexdigest()[:32]


def prefix_of(address: str) -> str | None:
    """The /24 (IPv4) or /48 (IPv6) network of an address; None when it is not an address or
    is loopback (this machine, or a proxy missing from TRUSTED_PROXIES: clustering every vote
    under it would flag everyone)."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return None
    bits = IPV4_PREFIX if ip.version == 4 else IPV6_PREFIX
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def prefix_key(address: str) -> str:
    """A keyed hash of the address's /24 or /48 (its IP-cluster id); "" when the address is
    not a client's network (``prefix_of``)."""
    prefix = prefix_of(address)
    if prefix is None:
        return ""
    digest = hmac.new(_secret(), b"prefix:" + prefix.encode(), hashlib.sha256).hexdigest()
    return digest[:PREFIX_KEY_LENGTH]

"""Who a request comes from, behind the proxies the operator trusts (``VIGIL_TRUSTED_PROXIES``).

X-Forwarded-For is a list anyone can start: ``client, proxy1, proxy2``, each proxy appending
the address it received the request from. Only the entries added by trusted proxies can be
believed, so the client is found from the right: past the connection's peer (when trusted),
skip every trusted proxy; the first address that is not one is the client. A request that did
not come through a trusted proxy is its peer, whatever its headers say.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address, nets: Sequence[Network]
) -> bool:
    return any(address in net for net in nets)


def client_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[Network]
) -> str | None:
    """The client's address: ``peer`` unless it is a trusted proxy, in which case the last
    untrusted address of the X-Forwarded-For header(s) (``forwarded_for``, in order)."""
    if peer is None or not trusted:
        return peer
    current = _address(peer)
    if current is None or not _trusted(current, trusted):
        return peer
    hops = [hop for header in forwarded_for for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            # garbage before a trusted hop: the last address we can vouch for is the client
            return str(current)
        current = address
        if not _trusted(address, trusted):
            return str(address)
    # every hop is a trusted proxy: the first of them is as far as we can see
    return str(current)

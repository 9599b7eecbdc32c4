"""The studio's door: who may ask, and the security headers on every answer.

``Guard`` stands in front of every route: a request must carry the session token (the URL
the server printed, as Jupyter does), name this server in ``Host`` (and ``Origin``, when
sent), and stay under the loader's 1 MiB (a feed or an image: its own limit); every answer
carries a strict Content-Security-Policy, so that no map text can run as script in the page,
and neither another web site nor another local program can read or change the map.
"""

from __future__ import annotations

import hmac
from typing import Any
from urllib.parse import parse_qs

from starlette.responses import Response

from mapkit.mapfile import MAX_FILE_BYTES
from mapkit.studio.routes.tools import UPLOADS
from mapkit.studio.web import Json, error, too_large

TOKEN_HEADER = "x-mapkit-token"

PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page: its own script and style files only, no inline script, style or handler."""
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox"
"""A sheet opened on its own: a picture, never a document that runs anything."""
DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"


class Guard:
    """ASGI middleware: the token, Host, Origin and size checks, and the security headers."""

    def __init__(self, app: Any, hosts: set[str], token: str) -> None:
        self.app, self.hosts, self.token = app, hosts, token
        self.origins = {f"http://{h}" for h in hosts}

    def refusal(self, scope: dict[str, Any]) -> Json | Response | None:
        """The answer to a request that may not pass, or None when it may."""
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            return error(
                403, f"refused: this server answers only as {' or '.join(sorted(self.hosts))}"
            )
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return error(403, f"refused: requests from {origin} are not allowed")
        if headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return error(403, "refused: requests from other sites are not allowed")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = headers.get(TOKEN_HEADER) or (query.get("token") or [""])[0]
        if scope["path"] == "/favicon.ico":
            return None
        if not given:
            why = "refused: this request lacks the studio's session token"
        elif not hmac.compare_digest(given.encode("latin-1"), self.token.encode("latin-1")):
            why = "refused: wrong session token (from an earlier run of mapkit studio?)"
        else:
            limit, refuse = UPLOADS.get(scope["path"], (MAX_FILE_BYTES, too_large))
            length = headers.get("content-length", "")
            if length.isdigit() and int(length) > limit:
                exc = refuse()
                return error(exc.status, exc.message)
            return None
        why += "; open the address mapkit studio printed when it started (it ends in ?token=...)"
        if scope["path"].startswith("/api/"):
            return error(403, why)
        return Response(why + "\n", status_code=403, media_type="text/plain")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": secure_headers(message.get("headers", []))}
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            await refused(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def secure_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with the policy for their content type and no caching, so that nothing the
    studio answers can be framed, sniffed, read by another site or kept after the session."""
    kept = [(k, v) for k, v in headers if k != b"cache-control"]
    ctype = dict(kept).get(b"content-type", b"")
    if ctype.startswith(b"text/html"):
        csp = PAGE_CSP
    elif ctype.startswith(b"image/svg"):
        csp = SVG_CSP
    else:
        csp = DATA_CSP
    return [
        *kept,
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
        (b"cache-control", b"no-store"),
    ]

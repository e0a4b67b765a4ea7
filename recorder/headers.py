"""The security headers of every answer, as a plain ASGI middleware: unlike Starlette's
BaseHTTPMiddleware it adds nothing per chunk of a streamed body, so hundreds of open event
streams cost no extra task or copy per update."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# 'wasm-unsafe-eval' lets a page compile WebAssembly (Pyodide, which runs the engine on the
# dealer's tablet while offline), and nothing else: no eval of JavaScript.
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
       "script-src 'self' 'wasm-unsafe-eval'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")

HSTS = "max-age=31536000"  # a year (no includeSubDomains: the room's other hosts are not ours)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")
        # Over HTTPS (served with --certfile, or behind a proxy trusted to say so): browsers
        # are told to come back only over HTTPS, so a later visit cannot be downgraded.
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", CSP)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "no-referrer")
                if api:
                    headers.setdefault("Cache-Control", "no-store")
                if secure:
                    headers.setdefault("Strict-Transport-Security", HSTS)
            await send(message)

        await self.app(scope, receive, send_with_headers)

"""The session's cookies: HTTP-only and SameSite=Strict; over HTTPS `Secure` and named with the
`__Host-` prefix (the browser then refuses them from any other host or path)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from handlog.recorder.auth import (
    CSRF_COOKIE,
    DEVICE_COOKIE,
    SESSION_COOKIE,
    Auth,
    Session,
    cookie_name,
)

DEVICE_DAYS = 30


def is_secure(request: Request) -> bool:
    # (the scope's scheme, as request.url's: without building the URL, at every request)
    return str(request.scope.get("scheme", "http")).lower() == "https"


def cookie_of(request: Request, name: str) -> str | None:
    return request.cookies.get(cookie_name(name, is_secure(request)))


def set_session_cookies(request: Request, response: Response, auth: Auth,
                        session: Session) -> None:
    """The session token (HTTP-only), its CSRF token (the page reads it) and, after a PIN
    sign-in, the known-device cookie (its own guess budget next time)."""
    secure = is_secure(request)
    response.set_cookie(cookie_name(SESSION_COOKIE, secure), session.token, httponly=True,
                        samesite="strict", secure=secure, path="/")
    response.set_cookie(cookie_name(CSRF_COOKIE, secure), session.csrf, httponly=False,
                        samesite="strict", secure=secure, path="/")
    if session.role != "viewer":
        response.set_cookie(cookie_name(DEVICE_COOKIE, secure), auth.device_cookie(session),
                            httponly=True, samesite="strict", secure=secure, path="/",
                            max_age=DEVICE_DAYS * 24 * 3600)


def delete_session_cookies(request: Request, response: Response) -> None:
    secure = is_secure(request)
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(cookie_name(name, secure), path="/", secure=secure,
                               samesite="strict")

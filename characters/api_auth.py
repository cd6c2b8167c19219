"""`Authorization: Bearer TOKEN` for scripts (docs/api.md). Only views marked with
`accepts_api_token` take a token (the check, export and import endpoints, and the API under
/api/, characters/api.py): there the token's user is the request's user, with the same
permissions, and no CSRF token is asked, since a token is never sent by a browser on its own.
No session is read or written, so a token request sets no cookie. A wrong or revoked token,
or a token sent anywhere else, gets a 401 with a JSON error; too many requests with one
token, a 429.

One address, a character's Foundry actor, may also be read from the pages of the Foundry VTT
servers the admin lists (settings.FOUNDRY_ORIGINS): the pull macro of docs/foundry.md runs
there. Only with a token: no cookie is ever allowed across origins."""

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, ngettext

from characters.services.api_tokens import api_token_authenticate
from characters.throttle import Throttle


def per_token() -> Throttle:
    # Read at each request: API_TOKEN_THROTTLE is a setting (FAIRSHEET_API_RATE).
    return Throttle("api-token", *settings.API_TOKEN_THROTTLE, "requests with this token")


def accepts_api_token(view):
    """Mark a view as one a Bearer token may call."""
    view.accepts_api_token = True
    return view


def readable_from_foundry(view):
    """Mark the one view a listed Foundry server's page may call (with a token)."""
    view.readable_from_foundry = True
    return view


class FoundryOriginsMiddleware:
    """Cross-origin reads (CORS) of a `readable_from_foundry` view by a listed origin: the
    browser's preflight is answered here, before any login or token check it could not pass
    (it carries no credentials); the read's answer, refused or not, names the origin."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.foundry_origin = None  # None: not that view; "": not a listed origin
        response = self.get_response(request)
        if request.foundry_origin is not None:
            patch_vary_headers(response, ("Origin",))  # a cache keeps one answer per origin
        if request.foundry_origin:
            response["Access-Control-Allow-Origin"] = request.foundry_origin
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(view_func, "readable_from_foundry", False):
            return None
        origin = request.headers.get("Origin", "")
        listed = origin.rstrip("/").lower() in settings.FOUNDRY_ORIGINS
        if request.method == "OPTIONS":
            response = HttpResponse(status=204 if listed else 403)
            patch_vary_headers(response, ("Origin",))
            if listed:
                response["Access-Control-Allow-Methods"] = "GET"
                response["Access-Control-Allow-Headers"] = "Authorization"
                response["Access-Control-Max-Age"] = "600"
                response["Access-Control-Allow-Origin"] = origin
            return response
        request.foundry_origin = origin if listed else ""
        return None


class ApiTokenMiddleware:
    """Placed before CsrfViewMiddleware and LoginRequiredMiddleware: their checks run after
    this one has put the token's user on the request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.api_token = None
        response = self.get_response(request)
        if request.api_token is not None:
            patch_vary_headers(response, ("Authorization",))
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return None
        if not getattr(view_func, "accepts_api_token", False):
            return _refuse(
                gettext(
                    "This address does not take API tokens; they work for the check, export and "
                    "import endpoints and under /api/ (docs/api.md)."
                )
            )
        token = api_token_authenticate(raw=raw.strip())
        if token is None:
            return _refuse(
                gettext(
                    "The API token is wrong or has been revoked: make a new one on your account "
                    "page."
                )
            )
        wait = per_token().take(token.digest)  # every request counts, refused or not
        if wait:
            response = JsonResponse(
                {
                    "error": ngettext(
                        "Too many requests with this token: try again in {seconds} second.",
                        "Too many requests with this token: try again in {seconds} seconds.",
                        wait,
                    ).format(seconds=wait)
                },
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response
        request.user = token.user
        request.auser = _auser(token.user)
        request.api_token = token
        request._dont_enforce_csrf_checks = True
        return None


def _refuse(message: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=401)
    response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return response


def _auser(user):
    async def auser():
        return user

    return auser

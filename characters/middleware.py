"""Responses Django leaves bare: headers it has no setting for, a 405 with no words."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render


class PermissionsPolicyMiddleware:
    """Sends settings.PERMISSIONS_POLICY as the Permissions-Policy header: `camera=()` turns
    the camera off for the page and every frame in it, `fullscreen=(self)` allows it for the
    site's own pages only."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(allowed)})"
            for feature, allowed in settings.PERMISSIONS_POLICY.items()
        )

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.header)
        return response


class MethodNotAllowedPageMiddleware:
    """Django's 405 (require_POST, require_safe) has an empty body: a browser shows a blank
    page. This one says which methods the address takes, as a page, or as JSON to an API
    token (docs/api.md); the Allow header stays."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        allowed = response.get("Allow", "")
        message = f"This address does not take a {request.method}: it takes {allowed}."
        if getattr(request, "api_token", None) is not None:
            answer = JsonResponse({"error": message}, status=405)
        else:
            answer = render(request, "405.html", {"message": message}, status=405)
        answer["Allow"] = allowed
        return answer

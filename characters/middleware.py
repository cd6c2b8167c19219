"""Response headers Django has no setting for."""

from django.conf import settings


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

"""Responses Django leaves bare: headers it has no setting for, a 405 with no words; and the
language a signed-in person chose; a clean slate of campaign words for each request."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from characters import languages, rules_content


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
        message = _("This address does not take a {method}: it takes {allowed}.").format(
            method=request.method, allowed=allowed
        )
        if getattr(request, "api_token", None) is not None:
            answer = JsonResponse({"error": message}, status=405)
        else:
            answer = render(request, "405.html", {"message": message}, status=405)
        answer["Allow"] = allowed
        return answer


class AccountLanguageMiddleware:
    """A signed-in person's chosen language (characters.languages: in the session since they
    logged in or chose it) wins over the cookie and the browser's that LocaleMiddleware went
    by; the cookie is set to it too, so the pages stay in it after logging out."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = request.session.get(languages.SESSION_KEY)
        if language and languages.supported(language):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            languages.set_cookie(response, language)
        return response


class GmWordsMiddleware:
    """A request starts with no campaign's translations (characters.rules_content): a thread
    serves many requests, and the last one's campaign must not say this one's names."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rules_content.use_gm_words(None)
        return self.get_response(request)

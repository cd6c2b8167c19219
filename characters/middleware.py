"""Responses Django leaves bare: headers it has no setting for, a 405 with no words, its
technical error pages under DEBUG; the language a signed-in person chose; and a clean slate
of campaign words for each request."""

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import Resolver404, get_resolver, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.debug import ExceptionReporter

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


class VaryOnHtmxMiddleware:
    """Many addresses answer an htmx request with a fragment and a plain one with the whole
    page (the audit's diff, the builder's picker, the advancement panel): `Vary: HX-Request`
    on every answer keeps a browser's or a proxy's cache from giving one for the other, as a
    reload after the audit's version pickers put their choice in the address would."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
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


def site_pages_wanted() -> bool:
    """Under DEBUG, unless DJANGO_DEBUG_PAGES=1 asks for Django's technical pages."""
    return settings.DEBUG and not settings.DEBUG_PAGES


class SiteErrorPagesMiddleware:
    """Under DEBUG (`make run`) Django answers a missing page with its technical page, the
    site's URL patterns and all, which a development server shows to whoever it serves: a
    player trying the demo, a visitor on a revoked share link. Here the site's own 404 page
    (config.urls' handler404) answers instead, as in production: for an address no pattern
    takes (nor, with APPEND_SLASH, the same with a slash: CommonMiddleware redirects there)
    and for a view's Http404. Errors: SiteErrorReporter. Off without DEBUG, where Django
    does the same itself, and with DJANGO_DEBUG_PAGES=1."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if site_pages_wanted() and not _taken(request.path_info):
            return self.not_found(request, Http404(request.path_info))
        return self.get_response(request)

    def process_exception(self, request, exception):
        if site_pages_wanted() and isinstance(exception, Http404):
            return self.not_found(request, exception)
        return None

    @staticmethod
    def not_found(request, exception):
        return get_resolver().resolve_error_handler(404)(request, exception=exception)


def _taken(path: str) -> bool:
    """Whether a URL pattern takes `path`, or the same with a slash (APPEND_SLASH)."""
    tried = [path, f"{path}/"] if settings.APPEND_SLASH and not path.endswith("/") else [path]
    for each in tried:
        try:
            resolve(each)
        except Resolver404:
            continue
        return True
    return False


class SiteErrorReporter(ExceptionReporter):
    """settings.DEFAULT_EXCEPTION_REPORTER: under DEBUG an error answers with the site's own
    500 page (templates/500.html), not the traceback, unless DJANGO_DEBUG_PAGES=1; the
    traceback still goes to the console (django.request's log). Without DEBUG Django's
    handler500 answers and this reports as Django's does (the mail to the admins)."""

    def get_traceback_html(self):
        if site_pages_wanted():
            return render_to_string("500.html")
        return super().get_traceback_html()

    def get_traceback_text(self):
        if site_pages_wanted():
            return _("Fairsheet could not answer that request.") + "\n"
        return super().get_traceback_text()

"""Which language a person reads the pages in (docs/translations.md). Django's LocaleMiddleware
picks the language cookie, else the browser's Accept-Language, else English. A signed-in
person's own choice, kept on their profile, wins over both: it is copied into the session
at each log-in (views.accounts.LoginView) and by the language form, and
middleware.AccountLanguageMiddleware activates it; the cookie follows it, so the pages stay
in that language after logging out."""

from django.conf import settings

# The session key of the signed-in person's chosen language (cleared by logging out, which
# flushes the session).
SESSION_KEY = "fairsheet_language"


def supported(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def remember(request, response, language: str) -> None:
    """Keep `language` for this browser (the cookie) and, signed in, for this session."""
    if request.user.is_authenticated:
        request.session[SESSION_KEY] = language
    set_cookie(response, language)


def set_cookie(response, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )

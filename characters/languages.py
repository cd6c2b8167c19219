"""Which language a person reads the pages in (docs/translations.md). Django's LocaleMiddleware
picks the language cookie, else the browser's Accept-Language, else English. A signed-in
person's own choice, kept on their profile, wins over both: it is copied into the session
at each log-in (views.accounts.LoginView) and by the language form, and
middleware.AccountLanguageMiddleware activates it; the cookie follows it, so the pages stay
in that language after logging out."""

from django.conf import settings
from django.utils.translation import trans_real

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


def drop_empty_fallbacks(**_signal) -> None:
    """Loads each language's catalogue and unlinks the empty ones chained behind it. At the
    start of each request (the walk is a few links: Django may have read the catalogues
    again since, when a setting they depend on changed).

    Django merges every app's catalogue into one per language, but keeps as fallbacks the
    catalogues Python's gettext found behind them: for British English, the "en" file of
    each of Django's own apps, which holds nothing but its header. Every English string
    (all of them, in en-gb) missed through those four before it came back untranslated:
    3,700 lookups in a 20-character party page, 8.6 µs each instead of 2.9 (issue 40). An
    empty catalogue answers nothing, so dropping it changes no word."""
    for code, _name in settings.LANGUAGES:
        link = trans_real.translation(code)
        while (behind := getattr(link, "_fallback", None)) is not None:
            catalogue = getattr(behind, "_catalog", None)
            if isinstance(catalogue, dict) and set(catalogue) <= {""}:  # its header only
                link._fallback = behind._fallback
            else:
                link = behind

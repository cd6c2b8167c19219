"""{% csrf_token %}'s value, masked once a request: a context processor over Django's own
(settings.TEMPLATES; Django's runs first and this one's value replaces it).

Django masks the token afresh each time a render asks for it, and a builder edit's answer is
several renders (its row, the budget panels with Undo, its news). Masking draws 32 random
characters from the system, one call each: 0.1 to 0.2 ms a mask on this machine. A page drawn
in one render already had one mask; now an answer does too. Each response still carries a
mask of its own (the point of masking, BREACH), and a token the request rotates (a log-in) is
masked again."""

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject


def csrf(request) -> dict:
    def token() -> str:
        kept = request.__dict__.get("_csrf_masked")  # (the secret, its mask)
        if kept is None or kept[0] != request.META.get("CSRF_COOKIE"):
            masked = get_token(request)  # sets the secret where the request had none
            kept = request._csrf_masked = (request.META["CSRF_COOKIE"], masked)
        return kept[1]

    return {"csrf_token": SimpleLazyObject(token)}

"""The share link's setting: which sites may show the shared sheet in a frame."""

import re
from urllib.parse import urlsplit

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_FRAME_ORIGINS = 10
# A host name's labels (letters, digits, hyphens; already IDNA-encoded) or an IPv4 address:
# nothing that could end a Content-Security-Policy source (a space, ";", ",", "*", quotes).
LABEL = r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
HOST = re.compile(rf"(?=.{{1,253}}$){LABEL}(\.{LABEL})*")


class FrameOriginsForm(forms.Form):
    """The builder's share section draws its one field (templates/characters/builder.html)."""

    origins = forms.CharField(required=False, max_length=2000, widget=forms.Textarea)

    def clean_origins(self) -> list[str]:
        found = []
        for line in self.cleaned_data["origins"].splitlines():
            if line.strip():
                origin = frame_origin(line.strip())
                if origin not in found:
                    found.append(origin)
        if len(found) > MAX_FRAME_ORIGINS:
            raise ValidationError(
                _("At most {count} sites may frame the sheet.").format(count=MAX_FRAME_ORIGINS)
            )
        return found


def frame_origin(text: str) -> str:
    """An https origin as the Content-Security-Policy names it, "https://www.owlbear.rodeo"
    (a port only when it is not 443); a ValidationError saying what is wrong with anything
    else: another scheme, a path, a query, a login, a wildcard."""
    try:
        parts = urlsplit(text)
        port = parts.port
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except (ValueError, UnicodeError):
        raise _not_an_origin(text) from None
    if parts.scheme.lower() != "https":
        raise ValidationError(
            _("{address}: only https sites may frame the sheet.").format(address=text)
        )
    if parts.username or parts.password or parts.query or parts.fragment:
        raise _not_an_origin(text)
    if parts.path not in ("", "/") or not HOST.fullmatch(host):
        raise _not_an_origin(text)
    return f"https://{host}" if port in (None, 443) else f"https://{host}:{port}"


def _not_an_origin(text: str) -> ValidationError:
    return ValidationError(
        _("{address} is not a site's address: give only https:// and the site's name.").format(
            address=text
        )
    )

"""The play page without a connection (docs/offline.md): its web manifest, the service
worker that keeps it, the page shown for everything else offline, and the endpoint that
takes the changes a phone queued meanwhile."""

import hashlib
import json
from functools import cache

from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.forms import offline as forms
from characters.models import PlayState
from characters.selectors.play import character_for_play
from characters.services.offline import QueuedWrite, play_offline_sync

THEME = "#0172ad"  # the favicon's blue
# What the play page loads, kept by the service worker when it installs.
PLAY_ASSETS = (
    "vendor/pico/pico.min.css",
    "css/fairsheet.css",
    "css/sheet.css",
    "css/play.css",
    "django_htmx/htmx-2.min.js",
    "js/fairsheet.js",
    "js/play.js",
    "js/offline.js",
    "favicon.svg",
    "icons/play-192.png",
)
ICONS = (
    ("icons/play-192.png", "192x192", "any"),
    ("icons/play-512.png", "512x512", "any"),
    ("icons/play-512-maskable.png", "512x512", "maskable"),
)


@login_not_required
@require_safe
def service_worker(request):
    """Served from the site's root so that its scope covers every page: the play pages it
    keeps, and the others, for which it shows the offline page. Never cached by the
    browser's HTTP cache (the browser checks it for updates at each visit); its text, and
    so the browser's copy, changes when a file it keeps does."""
    assets = [static(path) for path in PLAY_ASSETS]
    context = {
        "version": _assets_digest(),
        "assets": json.dumps(assets),
        "offline_url": json.dumps(reverse("offline_page")),
    }
    response = render(request, "offline/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _assets_digest() -> str:
    digest = hashlib.sha256()
    for path in PLAY_ASSETS:
        with open(finders.find(path), "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:16]


@login_not_required
@require_safe
def offline_page(request):
    """What the service worker shows for a page it does not keep, without a connection."""
    return render(request, "offline/offline.html")


@require_safe
def play_manifest(request, pk):
    """The play page of one character as an app of its own: installed, it opens there."""
    character = character_for_play(request.user, pk)
    play_url = reverse("character_play", args=[character.pk])
    manifest = {
        "id": play_url,
        "name": _("{name} at the table · Fairsheet").format(name=character.name),
        "short_name": character.name[:12],
        "description": _("The play page of {name}: it opens without a connection too.").format(
            name=character.name
        ),
        "lang": request.LANGUAGE_CODE,
        "start_url": play_url,
        "scope": play_url,
        "display": "standalone",
        "theme_color": THEME,
        "background_color": "#ffffff",
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return JsonResponse(manifest, content_type="application/manifest+json")


@require_POST
def play_offline(request, pk):
    """The changes queued offline, applied in order; a JSON answer for each."""
    character = character_for_play(request.user, pk)
    try:
        writes = forms.queued_writes(request.body)
    except forms.BatchRefused as error:
        return JsonResponse({"error": str(error)}, status=400)
    answers = play_offline_sync(
        character=character, actor=request.user, writes=[QueuedWrite(**w) for w in writes]
    )
    state = PlayState.objects.filter(character=character).first()
    return JsonResponse(
        {
            "answers": [{"key": str(a.key), "applied": a.applied, "said": a.said} for a in answers],
            "revision": state.revision if state else 0,
        }
    )

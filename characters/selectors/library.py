"""What the instance's library shows (services.library): the games GMs published, and the
four built-in rulesets, published by Fairsheet under the terms of the texts they come from."""

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from characters import vocabulary
from characters.models import PublishedGame
from characters.selectors.rulesets import rules_in_a_line
from rules.rulesets import BUILTIN

PUBLISHER = "Fairsheet"
# What each built-in's source text lets others do with it (the texts under
# shared/rules-sources): Fudge Basics and Mudge carry the "About Fudge" notice, which lets
# anyone give the material away with the notice and asks the author of Fudge for a
# royalty-free licence before charging for it; MicroFudged DIP v2 states no licence.
BUILTIN_LICENCES = {
    "fudge-basics": gettext_lazy(
        "Free to give away with the About Fudge notice (Fudge © 1992-1995 Steffan "
        "O'Sullivan; Fudge Basics collected by David Bruns, 2002); selling it needs a "
        "royalty-free licence from the author of Fudge"
    ),
    "mudge": gettext_lazy(
        'Free to give away with the About Fudge notice (Mudge © 2001 Warren "Mook" Wilson; '
        "Fudge © 1992-1995 Steffan O'Sullivan); selling it needs a royalty-free licence from "
        "the author of Fudge"
    ),
    "microfudged-dip": gettext_lazy(
        "No licence stated in the text (MicroFudged DIP v2, based on Steffan O'Sullivan's Fudge)"
    ),
    "microfudged-streamlined": gettext_lazy(
        "No licence stated in the text (Streamlined MicroFudged, from MicroFudged DIP v2, "
        "based on Steffan O'Sullivan's Fudge)"
    ),
}
BUILTIN_LANGUAGES = ("en-gb",)  # the texts are English; the pages say them in four languages


@dataclass(frozen=True)
class LibraryEntry:
    """One game in the library, as its list and its page show it."""

    name: str
    publisher: str
    description: str
    languages: list[str]  # the languages' names
    licence: str
    version: int | None  # None for a built-in ruleset
    url: str
    published: PublishedGame | None = None  # None for a built-in ruleset
    builtin: str = ""


def library_entries(*, language: str = "", name: str = "") -> list[LibraryEntry]:
    """The built-in rulesets, then the published games by name, those written in
    `language` whose name has `name` in it when they are given."""
    builtins = []
    if not language or language in BUILTIN_LANGUAGES:
        builtins = [builtin_entry(slug) for slug in BUILTIN]
        builtins = [e for e in builtins if name.casefold() in e.name.casefold()]
    games = PublishedGame.objects.filter(unpublished_at__isnull=True).select_related(
        "publisher", "version"
    )
    if language:
        # The list holds JSON strings: a language's code between quotes is one whole item.
        games = games.filter(languages__icontains=f'"{language}"')
    if name:
        games = games.filter(name__icontains=name)
    return builtins + [published_entry(game) for game in games.order_by("name", "pk")]


def builtin_entry(slug: str) -> LibraryEntry:
    ruleset = BUILTIN[slug]
    return LibraryEntry(
        name=vocabulary.term(ruleset.name, "ruleset"),
        publisher=PUBLISHER,
        description=rules_in_a_line(ruleset),
        languages=_language_names(BUILTIN_LANGUAGES),
        licence=str(BUILTIN_LICENCES[slug]),
        version=None,
        url=reverse("library_builtin", args=[slug]),
        builtin=slug,
    )


def published_entry(game: PublishedGame) -> LibraryEntry:
    return LibraryEntry(
        name=game.name,
        publisher=game.publisher.get_username(),
        description=game.description,
        languages=_language_names(game.languages),
        licence=game.licence_said,
        version=game.version.number,
        url=reverse("library_game", args=[game.pk]),
        published=game,
    )


def library_entry_for(user, *, pk=None, slug=None) -> LibraryEntry:
    """The entry at a library address: a published game's (`pk`) or a built-in's (`slug`)."""
    if slug is None:
        return published_entry(published_game_for(user, pk))
    return builtin_entry(builtin_for_library(slug))


def published_game_for(user, pk) -> PublishedGame:
    """A game in the library, or one `user` published and took out of it; a 404 for anyone
    else's unpublished game."""
    return get_object_or_404(
        PublishedGame.objects.filter(
            Q(unpublished_at__isnull=True) | Q(publisher=user)
        ).select_related("publisher", "version__ruleset"),
        pk=pk,
    )


def builtin_for_library(slug: str) -> str:
    if slug not in BUILTIN:
        raise Http404(gettext("No such game in the library."))
    return slug


def live_publications_of(designed) -> list[PublishedGame]:
    """The entry a designed game has in the library now (at most one)."""
    return list(
        PublishedGame.objects.filter(
            version__ruleset=designed, unpublished_at__isnull=True
        ).select_related("version")
    )


def _language_names(codes) -> list[str]:
    names = dict(settings.LANGUAGES)
    return [names[code] for code in codes if code in names]


def copy_origin(designed) -> LibraryEntry | None:
    """The library entry a designed game was copied from, if it was: still there or not."""
    if designed.copied_from_id is not None:
        game = PublishedGame.objects.select_related("publisher", "version").get(
            pk=designed.copied_from_id
        )
        return published_entry(game)
    if designed.copied_from_builtin in BUILTIN:
        return builtin_entry(designed.copied_from_builtin)
    return None

"""The instance's library of games (docs/ruleset-file.md, "The library"): a GM publishes a
version of a game they designed for other GMs to preview and copy; a copy is a new game of
the GM who takes it, whose first version's note and `copied_from` say where it came from.
Unpublishing hides the game from the library; the copies stay, and keep saying where they
came from. The four built-in rulesets are in the library too, published by Fairsheet."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.errors import ServiceError
from characters.models import Campaign, DesignedRuleset, Licence, PublishedGame, RulesetVersion
from characters.services.campaigns import campaign_create
from characters.services.rulesets import designed_ruleset_save
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import BUILTIN

SLUG_LENGTH = DesignedRuleset._meta.get_field("slug").max_length


@transaction.atomic
def published_game_publish(
    *,
    publisher,
    version: RulesetVersion,
    description: str,
    languages: list[str],
    licence: str,
    licence_own_words: str = "",
) -> PublishedGame:
    """Put `version` of the publisher's own game in the library. The game's earlier entry,
    if any, leaves the library: it shows one version of each game, the latest published."""
    if version.ruleset.owner_id != publisher.pk:
        raise ServiceError(_("Publish one of your own games."))
    description = (description or "").strip()
    if not description:
        raise ServiceError(_("Say what the game is."), field="description")
    known = dict(settings.LANGUAGES)
    if not languages or any(code not in known for code in languages):
        raise ServiceError(_("Choose the languages the game is written in."), field="languages")
    if licence not in Licence.values:
        raise ServiceError(_("Choose a licence."), field="licence")
    own_words = (licence_own_words or "").strip() if licence == Licence.OWN else ""
    if licence == Licence.OWN and not own_words:
        raise ServiceError(
            _("Say what others may do with it, or choose a licence."), field="licence_own_words"
        )
    now = timezone.now()
    PublishedGame.objects.select_for_update().filter(
        version__ruleset=version.ruleset, unpublished_at__isnull=True
    ).update(unpublished_at=now)
    return PublishedGame.objects.create(
        version=version,
        publisher=publisher,
        name=version.file.get("name") or version.ruleset.name,
        description=description,
        languages=[code for code, _name in settings.LANGUAGES if code in languages],
        licence=licence,
        licence_own_words=own_words,
    )


@transaction.atomic
def published_game_unpublish(*, publisher, published: PublishedGame) -> PublishedGame:
    """Take the game out of the library. Copies already taken stay their GMs' own."""
    published = PublishedGame.objects.select_for_update().get(pk=published.pk)
    if published.publisher_id != publisher.pk:
        raise ServiceError(_("Only its publisher takes a game out of the library."))
    if published.unpublished_at is None:
        published.unpublished_at = timezone.now()
        published.save(update_fields=["unpublished_at"])
    return published


@transaction.atomic
def designed_ruleset_copy_from_library(
    *, owner, published: PublishedGame | None = None, builtin: str = ""
) -> RulesetVersion:
    """A new game of `owner`'s whose version 1 is the published version's file (or a
    built-in ruleset's), under a slug of its own, saying where it came from."""
    if published is not None:
        published = PublishedGame.objects.select_for_update().get(pk=published.pk)
        if not published.is_published and published.publisher_id != owner.pk:
            raise ServiceError(_("This game is no longer in the library."))
        file = dict(published.version.file)
        note = _("copied from the library: {name}, version {number}, published by {publisher}")
        note = note.format(
            name=published.name,
            number=published.version.number,
            publisher=published.publisher.get_username(),
        )
    elif builtin in BUILTIN:
        file = ruleset_to_json(BUILTIN[builtin])
        note = _("copied from the library: {name}, built into Fairsheet").format(
            name=BUILTIN[builtin].name
        )
    else:
        raise ServiceError(_("This game is not in the library."))
    file["slug"] = _free_slug(owner, file["slug"])
    # A file that no longer reads is refused there, before anything is saved.
    version = designed_ruleset_save(owner=owner, file=file, note=note)
    designed = version.ruleset
    designed.copied_from = published
    designed.copied_from_builtin = builtin if published is None else ""
    designed.save(update_fields=["copied_from", "copied_from_builtin"])
    return version


@transaction.atomic
def library_campaign_start(
    *, gm, name: str, published: PublishedGame | None = None, builtin: str = ""
) -> Campaign:
    """A campaign run by `gm` on a copy of a game from the library, copied as
    designed_ruleset_copy_from_library copies it."""
    version = designed_ruleset_copy_from_library(owner=gm, published=published, builtin=builtin)
    return campaign_create(gm=gm, name=name, ruleset_version=version)


def _free_slug(owner, slug: str) -> str:
    """`slug`, or the first of slug-2, slug-3... that none of the owner's games has (a copy
    is a new game, never a version of one they already have); never a built-in's."""
    if slug in BUILTIN:
        slug = f"my-{slug}"[:SLUG_LENGTH]
    taken = set(DesignedRuleset.objects.filter(owner=owner).values_list("slug", flat=True))
    candidate, number = slug, 1
    while candidate in taken or candidate in BUILTIN:
        number += 1
        suffix = f"-{number}"
        candidate = slug[: SLUG_LENGTH - len(suffix)].rstrip("-") + suffix
    return candidate

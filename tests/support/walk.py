"""Every page the site serves, found from its URL patterns rather than listed by hand: each
pattern with its parameters filled from what a user can reach (their characters, their
campaigns, their games...), so a page added tomorrow is walked tomorrow.

`addresses(user)` gives each address with the name of its pattern (its page kind);
`unfilled()` names every pattern the walk cannot fill, which a test keeps at none."""

import re
from itertools import product

from django.urls import URLPattern, URLResolver, get_resolver

from characters.forms.designer import SECTIONS
from characters.models import (
    ApiToken,
    Campaign,
    CatalogEntry,
    Character,
    DesignedRuleset,
    Membership,
    Notification,
    PackJob,
    ShareLink,
)
from rules.rulesets import BUILTIN

PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")

# What a pattern's first folder says its <pk> is, by the model it names.
OWNERS = {
    "characters": "character",
    "campaigns": "campaign",
    "games": "game",
    "notifications": "notification",
    "accounts": "token",
}

# Answers for programs, not pages for people: files, schemas, the health check. A person
# reads what they hold in another shape (the sheet, the rules pages, the docs).
FOR_PROGRAMS = frozenset(
    {
        "healthz",
        "character_export",
        "character_export_foundry",
        "character_file_schema",
        "ruleset_file_schema",
        "ruleset_export",
        "campaign_pack_download",  # the pack: the sheets' PDF, walked one sheet at a time
        "character_portrait",  # a JPEG
        "logout",
        "language_set",
    }
)


def patterns(resolver=None, prefix: str = "") -> list[tuple[str, str]]:
    """(route, name) of every URL pattern, "characters/<int:pk>/sheet/"."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            found += patterns(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            found.append((prefix + str(pattern.pattern), pattern.name))
    return found


def _owners(kind: str, user) -> list:
    return {
        "character": lambda: list(
            (Character.objects.owned_by(user) | Character.objects.reviewed_by(user)).distinct()
        ),
        "campaign": lambda: [c for c in Campaign.objects.all() if c.has_member(user)],
        "game": lambda: list(DesignedRuleset.objects.filter(owner=user)),
        "notification": lambda: list(Notification.objects.filter(user=user)[:1]),
        "token": lambda: list(ApiToken.objects.filter(user=user)),
    }[kind]()


def _values(owner, user) -> dict[str, list]:
    """What each parameter may be, beside `owner`: its rows, the codes, the slugs."""
    values = {
        "slug": list(BUILTIN),
        "code": list(Campaign.objects.values_list("invite_code", flat=True)),
        "token": list(ShareLink.objects.values_list("token", flat=True)),
        "campaign_pk": [c.pk for c in _owners("campaign", user)],
    }
    if owner is None:
        return values
    values["pk"] = [owner.pk]
    if isinstance(owner, Character):
        values["trait_pk"] = list(owner.traits.values_list("pk", flat=True)[:1])
        values["item_pk"] = list(owner.equipment.values_list("pk", flat=True)[:1])
        values["entry_pk"] = list(owner.ledger.values_list("pk", flat=True)[:1])
        values["thread_pk"] = list(owner.threads.values_list("pk", flat=True)[:1])
        values["kind"] = ["skill"]
    elif isinstance(owner, Campaign):
        values["entry_pk"] = list(
            CatalogEntry.objects.filter(campaign=owner).values_list("pk", flat=True)[:1]
        )
        values["membership_pk"] = list(
            Membership.objects.filter(campaign=owner).values_list("pk", flat=True)[:1]
        )
        values["job_pk"] = list(
            PackJob.objects.filter(campaign=owner).values_list("pk", flat=True)[:1]
        )
        values["number"] = [owner.ruleset_version.number] if owner.ruleset_version else []
        values["kind"] = ["skill"]
    elif isinstance(owner, DesignedRuleset):
        values["number"] = list(owner.versions.values_list("number", flat=True)[:1])
        values["section"] = list(SECTIONS)
    return values


def addresses(user) -> list[tuple[str, str]]:
    """(address, pattern name) of every page `user` can be shown, for every pattern."""
    owners = {kind: _owners(kind, user) for kind in set(OWNERS.values())}
    values = {(kind, owner.pk): _values(owner, user) for kind in owners for owner in owners[kind]}
    values[None, None] = _values(None, user)
    found = []
    for route, name in patterns():
        if name in FOR_PROGRAMS:
            continue
        found += [(address, name) for address in fill(route, owners, values)]
    return found


def fill(route: str, owners: dict, all_values: dict) -> list[str]:
    names = PARAMETER.findall(route)
    kind = OWNERS.get(route.split("/")[0]) if "pk" in names else None
    filled = []
    for owner in owners[kind] if kind else [None]:
        values = all_values[kind, owner.pk if owner else None]
        if any(not values.get(name) for name in names):
            continue
        for chosen in product(*(values[name] for name in names)):
            address = route
            for name, value in zip(names, chosen, strict=True):
                address = re.sub(rf"<(?:\w+:)?{name}>", str(value), address, count=1)
            filled.append("/" + address)
    return filled

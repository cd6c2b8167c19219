"""Designed rulesets: a GM saves a game of their own (a ruleset file, docs/ruleset-file.md)
as a new numbered version, and moves a campaign from one version to another. A campaign keeps
the version its characters were approved under until its GM moves it; the move is recorded in
the campaign's history like a house-rule change, and previewed the same way
(selectors.campaigns.ruleset_move_preview)."""

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from characters.adapters import base_ruleset, normalized_house_rules
from characters.errors import RulesetRefused, ServiceError
from characters.models import Campaign, DesignedRuleset, RulesetVersion
from characters.services.audit import record_campaign_event
from rules.ruleset_file import RulesetFileError, read_ruleset, ruleset_to_json
from rules.rulesets import BUILTIN, Ruleset


def checked_ruleset(file) -> Ruleset:
    """The ruleset a file describes, or RulesetRefused with every problem it has."""
    try:
        ruleset = read_ruleset(file)
    except RulesetFileError as error:
        raise RulesetRefused(error.phrases) from None  # said in the reader's language
    if ruleset.slug in BUILTIN:
        raise RulesetRefused(
            [
                (
                    "slug",
                    _("'{slug}' is a built-in ruleset's: give your game a name of its own").format(
                        slug=ruleset.slug
                    ),
                )
            ]
        )
    return ruleset


@transaction.atomic
def designed_ruleset_save(*, owner, file: dict, note: str = "") -> RulesetVersion:
    """Save `file` as the next version of `owner`'s ruleset with its slug (the first, for a
    new slug). A file the same as the latest version makes no new version."""
    ruleset = checked_ruleset(file)
    file = ruleset_to_json(ruleset)  # as the reader understood it: one spelling of each value
    designed, _ = DesignedRuleset.objects.select_for_update().get_or_create(
        owner=owner, slug=ruleset.slug, defaults={"name": ruleset.name}
    )
    latest = designed.versions.order_by("-number").first()
    if latest is not None and latest.file == file:
        return latest
    if designed.name != ruleset.name:
        designed.name = ruleset.name
        designed.save(update_fields=["name"])
    number = (designed.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    return RulesetVersion.objects.create(
        ruleset=designed, number=number, file=file, note=(note or "").strip()[:500]
    )


@transaction.atomic
def campaign_move_ruleset(
    *, campaign: Campaign, actor, version: RulesetVersion, reason: str = ""
) -> Campaign:
    """Move the campaign onto another version of its designed ruleset. Its house rules are
    kept where the new version still takes them; characters are priced under it from their
    next report, and approved ones keep the snapshot they were approved with."""
    if campaign.ruleset_version_id is None:
        raise ServiceError(_("This campaign plays a built-in ruleset: it has no versions."))
    if version.ruleset_id != campaign.ruleset_version.ruleset_id:
        raise ServiceError(_("Choose a version of the campaign's own ruleset."))
    old = campaign.ruleset_version
    if version.pk == old.pk:
        return campaign
    campaign.ruleset_version = version
    campaign.house_rules = normalized_house_rules(base_ruleset(campaign), campaign.house_rules)
    campaign.save(update_fields=["ruleset_version", "house_rules"])
    record_campaign_event(
        campaign=campaign,
        actor=actor,
        action="ruleset_moved",
        target="ruleset",
        before={"ruleset_version": old.number},
        after={"ruleset_version": version.number},
        reason=(reason or "").strip(),
    )
    return campaign

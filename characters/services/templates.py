"""Mudge 6.4 templates: raise a character to a template's minimums in one recorded
change."""

from django.db import transaction
from django.utils.translation import gettext as _

from characters.adapters import (
    character_base,
    character_to_rules,
    ruleset_for,
    trait_state,
    trait_target,
)
from characters.errors import ServiceError
from characters.models import Character, Trait
from characters.recorded import TEMPLATE
from characters.services.audit import commit_change, record_event
from characters.services.characters import lock_for_edit
from characters.services.rows import ensure_room, next_position, save_trait
from characters.wording import said
from rules.charfile import write_character
from rules.templates import apply_template, race_taken, raised_to, scale_now, taken, templates_for
from rules.words import Name, Phrase, say

TEMPLATE_ROW_LISTS = ("attributes", "skills", "gifts", "faults")  # what a template may add to


@transaction.atomic
def character_apply_template(
    *, character: Character, actor, expected_version: int | None, slug: str
) -> list[str]:
    """Raise the character to a Mudge 6.4 template's minimums (and take a race's gifts,
    faults and Scale). Returns what changed, one line each, for the player's message, in the
    active language; the record keeps them in English."""
    locked = _locked_with_rows(character=character, expected_version=expected_version)
    ruleset = ruleset_for(locked)
    template = templates_for(ruleset).get(slug)
    if template is None:
        raise ServiceError(_("Choose one of the templates listed."))
    before = character_to_rules(locked)
    after = apply_template(before, template, ruleset)
    if after == before:
        return []
    ensure_room(
        locked,
        sum(len(getattr(after, k)) - len(getattr(before, k)) for k in TEMPLATE_ROW_LISTS),
    )
    reason = say(TEMPLATE, template=Name(template.name))
    events = []  # recorded after the version moves, so each carries the version after
    changed = []
    _raise_levels(
        locked, before, after, ladder=ruleset.ladder, reason=reason, events=events, changed=changed
    )
    _take_gifts_and_faults(locked, before, after, reason=reason, events=events, changed=changed)
    _take_details(locked, after, template=template, reason=reason, events=events, changed=changed)
    commit_change(
        locked,
        actor=actor,
        action="template_applied",
        target=f"template:{template.slug}",
        before={"file": write_character(before, character_base(locked).ladder)},
        after={"template": template.name, "changed": [str(line) for line in changed]},
        reason=reason,
        lines={"changed": changed},
    )
    for event in events:
        record_event(character=locked, actor=actor, **event)
    return [said(line) for line in changed]


def _locked_with_rows(*, character: Character, expected_version: int | None) -> Character:
    """The character locked for the edit, read again with its campaign and rows: a template
    is applied to the whole build."""
    build_before = lock_for_edit(
        character=character, expected_version=expected_version
    ).build_before
    locked = (
        Character.objects.select_related("campaign")
        .prefetch_related("traits", "equipment")
        .get(pk=character.pk)
    )
    locked.build_before = build_before  # its step in the undo history
    return locked


def _raise_levels(locked: Character, before, after, *, ladder, reason: Phrase, events, changed):
    """The attributes and skills the template raises, and those it adds at its level."""
    existing = {(t.kind, t.name.casefold()): t for t in locked.traits.all()}
    for kind, old_items, new_items in (
        (Trait.Kind.ATTRIBUTE, before.attributes, after.attributes),
        (Trait.Kind.SKILL, before.skills, after.skills),
    ):
        old_levels = {t.name.casefold(): t.level for t in old_items}
        for item in new_items:
            if old_levels.get(item.name.casefold()) == item.level:
                continue
            row = existing.get((kind, item.name.casefold()))
            old_state = trait_state(row) if row else None
            if row is None:
                row = Trait(
                    character=locked,
                    kind=kind,
                    name=item.name,
                    level=item.level,
                    difficulty=item.difficulty or "",
                    position=next_position(locked.traits.filter(kind=kind)),
                )
            row.level = item.level
            save_trait(row)
            events.append(
                dict(
                    action="trait_relevelled" if old_state else "trait_added",
                    target=trait_target(row),
                    before=old_state,
                    after=trait_state(row),
                    reason=reason,
                )
            )
            changed.append(raised_to(item.name, row.level, ladder))


def _take_gifts_and_faults(locked: Character, before, after, *, reason: Phrase, events, changed):
    """The gifts and faults the template (a race) brings, after the character's own."""
    for kind, old_items, new_items in (
        (Trait.Kind.GIFT, before.gifts, after.gifts),
        (Trait.Kind.FAULT, before.faults, after.faults),
    ):
        for item in new_items[len(old_items) :]:
            # No cost: the catalogue prices it (Mudge 1.33's starred ones at 2), else 1.
            position = next_position(locked.traits.filter(kind=kind))
            row = Trait(character=locked, kind=kind, name=item.name, position=position)
            save_trait(row)
            events.append(
                dict(
                    action="trait_added",
                    target=trait_target(row),
                    after=trait_state(row),
                    reason=reason,
                )
            )
            changed.append(taken(str(kind), item.name))


def _take_details(locked: Character, after, *, template, reason: Phrase, events, changed):
    """The race and Scale the template sets."""
    details = {
        key: getattr(after, key)
        for key in ("race", "scale_strength", "scale_mass")
        if getattr(after, key) != getattr(locked, key)
    }
    if not details:
        return
    events.append(
        dict(
            action="details_changed",
            before={key: getattr(locked, key) for key in details},
            after=details,
            reason=reason,
        )
    )
    for key, value in details.items():
        setattr(locked, key, value)
    locked.save(update_fields=list(details))
    if "race" in details:
        changed.append(race_taken(template.name))
    if {"scale_strength", "scale_mass"} & details.keys():
        changed.append(scale_now(after.scale_strength, after.scale_mass))

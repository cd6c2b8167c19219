"""The builder's undo history: each edit (adapters.BUILD_EDITS, a template counting as one)
keeps the build's rows as they were before it, so Undo puts them back exactly and Redo puts
back what Undo took. Each undo and redo is a change of its own on the audit trail.

The rows are kept as plain values (snapshot), not as a character file: two cheap queries on
the edit's hot path, and a restore that gives back every row in its place."""

from functools import cache

from django.db.models import Q, Subquery
from django.utils import translation
from django.utils.translation import gettext as _

from characters.adapters import (
    BUILD_EDITS,
    DETAIL_FIELDS,
    character_base,
    edit_label,
    edit_parts,
)
from characters.errors import ServiceError
from characters.models import BuildStep, Character, Equipment, Trait
from characters.selectors.history import HISTORY_STEPS, history_steps

# Each row keeps its id: a row put back is the same row (its forms, links and anchors).
TRAIT_FIELDS = (
    "id",
    "kind",
    "name",
    "level",
    "difficulty",
    "cost",
    "power_kind",
    "position",
    "defined_in_play",
    "foundry_id",
)
EQUIPMENT_FIELDS = (
    "id",
    "name",
    "kind",
    "damage",
    "armour",
    "notes",
    "quantity",
    "foundry_id",
    "position",
)


def snapshot(character: Character) -> dict:
    """The build as the character's rows hold it now: its details, traits and equipment.
    Rows the caller prefetched at the version it locked are the committed ones: read from
    them, no query (the builder's commonest write, services.rows.trait_update). A row keeps
    only what differs from its fields' defaults, which restore() gives back (Model(**row)):
    a 60-trait build's snapshot was 11.6 KB, half of it empty costs, kinds and ids, written
    at every edit."""
    prefetched = getattr(character, "_prefetched_objects_cache", {})
    traits = prefetched.get("traits")
    equipment = prefetched.get("equipment")
    # Unprefetched, the rows come in order from the database, only the kept fields read.
    traits = (
        Trait.objects.filter(character=character)
        .order_by("kind", "position", "id")
        .only(*TRAIT_FIELDS)
        if traits is None
        else sorted(traits, key=_trait_order)
    )
    equipment = (
        Equipment.objects.filter(character=character)
        .order_by("position", "id")
        .only(*EQUIPMENT_FIELDS)
        if equipment is None
        else sorted(equipment, key=_item_order)
    )
    return {
        "details": {key: getattr(character, key) for key in DETAIL_FIELDS},
        "traits": [_values(row, _defaults(Trait, TRAIT_FIELDS)) for row in traits],
        "equipment": [_values(row, _defaults(Equipment, EQUIPMENT_FIELDS)) for row in equipment],
    }


@cache
def _defaults(model, fields: tuple) -> dict:
    """Each of `fields` with the value a `model` row left without it is made with."""
    return {name: model._meta.get_field(name).get_default() for name in fields}


def _values(row, defaults: dict) -> dict:
    return {
        key: value for key, default in defaults.items() if (value := getattr(row, key)) != default
    }


def _trait_order(row: Trait):
    return (row.kind, row.position, row.id)


def _item_order(row: Equipment):
    return (row.position, row.id)


def restore(character: Character, build: dict) -> None:
    """Put the rows back as `build` (a snapshot) holds them, each with its id, in order."""
    character.traits.all().delete()
    character.equipment.all().delete()
    Trait.objects.bulk_create(Trait(character=character, **row) for row in build["traits"])
    Equipment.objects.bulk_create(
        Equipment(character=character, **row) for row in build["equipment"]
    )
    for key, value in build["details"].items():
        setattr(character, key, value)
    character.save(update_fields=list(build["details"]))


def history_step_new(
    character: Character, *, action: str, target: str = "", before=None, after=None
) -> BuildStep | None:
    """After an edit's version step: its new step on the history, unsaved (the caller
    inserts it with the edit's event, in one round trip: compiled.insert_rows), when the
    edit is one of the builder's and its service kept the build before it (services.
    characters.lock_for_edit). A new edit clears the steps that were undone (there is
    nothing to redo after it)."""
    build = character.__dict__.pop("build_before", None)
    if build is None or action not in BUILD_EDITS:
        return None
    # One delete: the steps undone (no redo after a new edit) and those past HISTORY_STEPS.
    # Not even that when the character was read saying it has no step undone and room for
    # this one (selectors.history.history_to_prune) and its copy is the one locked: the
    # history changes only with the version, which the lock found unchanged since that read.
    if getattr(character, "history_to_prune", True):
        steps = BuildStep.objects.filter(character=character)
        kept = steps.order_by("-id").values("id")[: HISTORY_STEPS - 1]
        steps.filter(Q(undone=True) | ~Q(id__in=Subquery(kept))).delete()
    character.history_to_prune = True  # what was read is out of date now: ask next time
    edit = edit_parts(action, before, after, character_base(character).ladder)
    with translation.override("en"):  # the label the audit trail keeps is English
        label = edit_label(edit)
    step = BuildStep(
        character=character,
        label=label[:300],
        edit=edit,
        target=target,
        before=build,
        version=character.version,
    )
    # What the buttons show now, so the page after the edit reads no history for them.
    character.history_now = (step, None)
    return step


def history_step(character: Character, *, redo: bool) -> BuildStep:
    """The step to undo or redo now, on the locked character, or why there is none."""
    undo_step, redo_step = history_steps(character)
    step = redo_step if redo else undo_step
    if step is None:
        raise ServiceError(
            _("There is nothing to redo: redo puts back what Undo took, until the next edit.")
            if redo
            else _(
                "There is nothing to undo: undo takes back the builder's edits, newest "
                "first, until something else changes the character. Change it back by hand."
            )
        )
    return BuildStep.objects.get(pk=step.pk)

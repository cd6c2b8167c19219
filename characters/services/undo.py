"""Undo and redo in the builder: take back the newest edit of the character's history, or
put back the last one taken back."""

from django.db import transaction
from django.utils.translation import gettext as _

from characters.adapters import edit_phrase, step_label
from characters.errors import ServiceError
from characters.models import Character
from characters.recorded import REDO, UNDO
from characters.services.audit import commit_change
from characters.services.characters import lock_for_edit
from characters.services.history import history_step, restore, snapshot
from rules.words import Phrase, say


@transaction.atomic
def character_undo_edit(
    *, character: Character, actor, expected_version: int | None, redo: bool = False
) -> str:
    """Take back the newest edit in the builder's history (services.history), or with
    `redo` put back the last one taken back: a new recorded change, so the audit trail
    keeps both. Returns what was undone or redone, in the active language."""
    locked = lock_for_edit(character=character, expected_version=expected_version)
    del locked.build_before  # an undo is not a step of its own
    if locked.owner_id != actor.pk:
        raise ServiceError(_("Only the character's player undoes or redoes an edit."))
    step = history_step(locked, redo=redo)
    now = snapshot(locked)
    restore(locked, step.after if redo else step.before)
    commit_change(
        locked,
        actor=actor,
        action="edit_redone" if redo else "edit_undone",
        target=step.target,
        after={"edit": step.label},
        reason=_reason(step, redo=redo),
        lines={"edit": [edit_phrase(step.edit)]} if step.edit else None,
    )
    if not redo:
        step.after = now
    step.undone = not redo
    step.version = locked.version
    step.save(update_fields=["after", "undone", "version"])
    return step_label(step)


def _reason(step, *, redo: bool) -> Phrase | str:
    """ "undo Climbing Fair → Good": a phrase, or the English of a step kept without its
    parts (BuildStep.edit), which its reader reads back."""
    if not step.edit:
        return f"{'redo' if redo else 'undo'} {step.label}"
    return say(REDO if redo else UNDO, edit=edit_phrase(step.edit))

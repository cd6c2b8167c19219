"""Issue 38: the lines Fairsheet stores for a person to read later keep their phrase
(characters.recorded), said in the reader's language when read.

1. A ledger entry keeps its reason's phrase, an audit event its reason's and its lines'
   (`phrases`, hashed and signed with the event when set: characters.audit_chain), a
   notification its message's, a play event its note's.
2. The ledger's existing reasons are read back against the templates that wrote them (a
   spend's label, a spend taken back, Fudge points converted) and keep the phrase found; a
   reason none of them says word for word (an award's, a GM's own words) stays as written.
   An undo step kept without its parts gets them from its English label the same way, a
   play event's note its phrase (selectors.play.note_phrase_of).
   Audit events are not rewritten: they are append-only, and their hash and MAC cover what
   they recorded. A page reads an older event's English back at read time
   (characters.recorded.EVENT_REASONS) with the same templates.
"""

from django.db import migrations, models

from characters.recorded import (
    ADDING,
    CHANGE_TO,
    CHANGE_TO_DETAILS,
    CONVERTED,
    EDITS,
    RELEVELLED,
    REMOVING,
    SPEND_LABELS,
    TAKEN_BACK,
    TEMPLATE,
    parse,
)
from characters.selectors.play import note_phrase_of
from rules.recorded import phrase_data
from rules.words import Level, Phrase


def ledger_templates(entry) -> tuple:
    """The templates that may have written a ledger entry's reason: a spend's label on a
    spend, the refund's on a spend taken back, a conversion on another gain (an award's
    reason is the GM's, which no template says but by chance)."""
    if entry.reverses_id is not None:
        return (TAKEN_BACK,)
    if entry.amount < 0:
        return SPEND_LABELS
    if entry.actor_id == entry.character.owner_id:  # the player's own gain: a conversion
        return (CONVERTED,)
    return ()


def ledger_phrases(apps, schema_editor):
    ExperienceEntry = apps.get_model("characters", "ExperienceEntry")
    changed = []
    entries = ExperienceEntry.objects.filter(reason_phrase__isnull=True).select_related(
        "character"
    )
    for entry in entries.iterator():
        phrase = parse(entry.reason, ledger_templates(entry))
        if phrase is not None:
            entry.reason_phrase = phrase_data(phrase)
            changed.append(entry)
    ExperienceEntry.objects.bulk_update(changed, ["reason_phrase"], batch_size=500)


def _word(value):
    """A level of a relevelled edit's label as its parts keep it, and whether it is on the
    standard ladder."""
    if isinstance(value, Phrase):  # "no level"
        return None, True
    if isinstance(value, Level):
        return str(value), True
    return value, False


def edit_parts_of(phrase) -> dict:
    """The parts adapters.edit_parts keeps for an edit, from its label's phrase."""
    values = dict(phrase.values)
    if phrase.text == ADDING:
        return {"action": "trait_added", "name": str(values["name"])}
    if phrase.text == REMOVING:
        return {"action": "trait_removed", "name": str(values["name"])}
    if phrase.text == RELEVELLED:
        (was, was_standard), (now, now_standard) = _word(values["was"]), _word(values["now"])
        return {
            "action": "trait_relevelled",
            "name": str(values["name"]),
            "was": was,
            "now": now,
            "standard": was_standard and now_standard,
        }
    if phrase.text == TEMPLATE:
        return {"action": "template_applied", "template": str(values["template"])}
    if phrase.text == CHANGE_TO_DETAILS:
        fields = [str(field).replace(" ", "_") for field in values["fields"]]
        return {"action": "details_changed", "fields": fields}
    assert phrase.text == CHANGE_TO
    return {"action": "trait_changed", "name": str(values["name"])}


def step_parts(apps, schema_editor):
    BuildStep = apps.get_model("characters", "BuildStep")
    changed = []
    for step in BuildStep.objects.filter(edit={}).iterator():
        phrase = parse(step.label, EDITS)
        if phrase is not None:
            step.edit = edit_parts_of(phrase)
            changed.append(step)
    BuildStep.objects.bulk_update(changed, ["edit"], batch_size=500)


def play_notes(apps, schema_editor):
    PlayEvent = apps.get_model("characters", "PlayEvent")
    changed = []
    for event in PlayEvent.objects.filter(note_phrase__isnull=True).exclude(note="").iterator():
        phrase = note_phrase_of(event.note)
        if phrase is not None:
            event.note_phrase = phrase_data(phrase)
            changed.append(event)
    PlayEvent.objects.bulk_update(changed, ["note_phrase"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0032_catalog_entry_translations"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaignevent",
            name="phrases",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="characterevent",
            name="phrases",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="experienceentry",
            name="reason_phrase",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="notification",
            name="message_phrase",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="playevent",
            name="note_phrase",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(ledger_phrases, migrations.RunPython.noop),
        migrations.RunPython(step_parts, migrations.RunPython.noop),
        migrations.RunPython(play_notes, migrations.RunPython.noop),
    ]

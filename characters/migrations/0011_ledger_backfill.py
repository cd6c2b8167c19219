"""Spends made before ledger entries recorded what they bought (0009) get it from the
events that applied them, so the creation build can undo them (spec, "Advancement")."""

from django.db import migrations

LISTS = {
    "attribute": "attributes",
    "skill": "skills",
    "gift": "gifts",
    "fault": "faults",
    "power": "powers",
}
APPLIED = ("experience_spent", "spend_accepted")


def bought_from(event) -> dict | None:
    before, after = event.before or {}, event.after or {}
    if "meta_points" in after:
        return {"meta_points": after["meta_points"] - before.get("meta_points", 0)}
    kind, _, name = event.target.partition(":")
    listed = LISTS.get(kind)
    if listed is None:
        return None
    traits = ("name", "level", "difficulty", "cost", "kind")
    if "level" in before and "level" in after:
        return {
            "raise": {"list": listed, "name": name, "from": before["level"], "to": after["level"]}
        }
    if "name" in before and "name" not in after:
        fault = {k: before[k] for k in traits if k in before}
        if "cost" in fault:
            fault["value"] = fault.pop("cost")
        return {"remove": {"list": listed, **fault}}
    if "name" in after and "name" not in before:
        return {"add": {"list": listed, **{k: after[k] for k in traits if k in after}}}
    return None


def backfill(apps, schema_editor):
    db = schema_editor.connection.alias
    ExperienceEntry = apps.get_model("characters", "ExperienceEntry")
    CharacterEvent = apps.get_model("characters", "CharacterEvent")
    unrecorded = ExperienceEntry.objects.using(db).filter(
        amount__lt=0, pending=False, bought__isnull=True
    )
    for character_id in unrecorded.values_list("character_id", flat=True).distinct():
        # Each applied spend wrote its entry and its event in one transaction, in order.
        entries = list(unrecorded.filter(character_id=character_id).order_by("id"))
        events = list(
            CharacterEvent.objects.using(db)
            .filter(character_id=character_id, action__in=APPLIED)
            .order_by("id")
        )
        # Those written before 0009 are the oldest of them.
        for entry, event in zip(entries, events, strict=False):
            bought = bought_from(event)
            if bought is not None:
                entry.bought = bought
                entry.save(update_fields=["bought"])


class Migration(migrations.Migration):
    dependencies = [("characters", "0010_campaign_event")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]

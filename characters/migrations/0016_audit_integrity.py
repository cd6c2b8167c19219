"""The audit trail nothing can go around (issue 31).

1. Every trigger function names its tables with their schema and runs with a fixed
   search_path (pg_catalog, then pg_temp last), so no table of another schema, a session's
   TEMP table above all, can stand in for one it reads: the runtime role deleted a recorded
   character by shadowing characters_characterevent with a TEMP table, which the old
   characters_character_keep_recorded (0006) looked up unqualified. The runtime role also
   loses TEMP and CREATE (characters.db_roles).
2. Both audit trails become hash chains (characters.audit_chain): each event carries the
   hash of the one before it and its own. The events already recorded are chained here, in
   id order per character and per campaign, with the append-only triggers off for that
   one UPDATE (as the tables' owner, in this migration's transaction).
3. An approved character's build is checked against the record (adapters.build_sha256):
   each approved character gets a `build_recorded` event with the digest its rows must
   have: its approval's snapshot's, or, when experience was spent or an uncommitted trait
   defined since (changes this migration cannot replay), the build as it stands.

created_at becomes a default rather than auto_now_add: the hash covers it, so it is set
before the save. SQLite rebuilds both event tables to add the columns, which drops their
triggers (0002, 0010): they are installed again at the end.
"""

import importlib
from fractions import Fraction

import django.utils.timezone
from django.db import migrations, models

from characters.adapters import build_sha256
from characters.audit_chain import chain_key, link
from rules import character as rc
from rules.charfile import CharacterFileError, read_character

EVENT_TABLES = ("characters_characterevent", "characters_campaignevent")
# Changes to an approved build that its approval's snapshot does not have.
BUILD_CHANGES = ("experience_spent", "spend_accepted", "uncommitted_defined")
BATCH = 1000
# The migrations whose SQLite triggers the table rebuilds below drop (or had to be dropped
# for them): installed again once the rebuilt tables are chained.
SQLITE_TRIGGERS = ("0002_audit_append_only", "0006_hardening", "0010_campaign_event")


def trigger_functions(schema: str) -> list[str]:
    """The three trigger functions, schema-qualified, with a fixed search_path."""
    fixed = "SET search_path = pg_catalog, pg_temp"
    append_only = """
        CREATE OR REPLACE FUNCTION {schema}.{table}_append_only() RETURNS trigger
        LANGUAGE plpgsql {fixed} AS $$
        BEGIN
            -- No percent-sign placeholder: the schema editor passes this through psycopg.
            RAISE EXCEPTION USING
                MESSAGE = '{what} ({table}) is append-only: ' || TG_OP || ' refused',
                ERRCODE = 'restrict_violation',
                HINT = 'Record a new event instead of changing an old one.';
        END;
        $$
    """
    return [
        append_only.format(
            schema=schema, table="characters_characterevent", what="the audit trail", fixed=fixed
        ),
        append_only.format(
            schema=schema,
            table="characters_campaignevent",
            what="the campaign audit trail",
            fixed=fixed,
        ),
        f"""
        CREATE OR REPLACE FUNCTION {schema}.characters_character_keep_recorded() RETURNS trigger
        LANGUAGE plpgsql {fixed} AS $$
        BEGIN
            IF EXISTS (
                SELECT 1 FROM {schema}.characters_characterevent WHERE character_id = OLD.id
            ) THEN
                RAISE EXCEPTION USING
                    MESSAGE = 'the audit trail names this character: archive it instead of '
                        || 'deleting it (character ' || OLD.id || ')',
                    ERRCODE = 'restrict_violation';
            END IF;
            RETURN OLD;
        END;
        $$
        """,
    ]


def qualify_trigger_functions(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return  # SQLite has no schemas, no search_path and no TEMP shadowing of a trigger's table
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_schema()")
        schema = connection.ops.quote_name(cursor.fetchone()[0])
    for sql in trigger_functions(schema):
        schema_editor.execute(sql)


def drop_keep_recorded_on_sqlite(apps, schema_editor):
    """SQLite rebuilds characters_characterevent to add its columns; renaming the rebuilt
    table fails while another table's trigger (0006's) names it. Installed again below."""
    if schema_editor.connection.vendor == "sqlite":
        importlib.import_module("characters.migrations.0006_hardening").uninstall(
            apps, schema_editor
        )


def chain_and_record(apps, schema_editor):
    connection = schema_editor.connection
    postgres = connection.vendor == "postgresql"
    if postgres:
        for table in EVENT_TABLES:
            schema_editor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    heads = {}
    for name in ("CharacterEvent", "CampaignEvent"):
        heads[name] = _chain(apps.get_model("characters", name), connection.alias)
    if postgres:
        for table in EVENT_TABLES:
            schema_editor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    else:
        for module in SQLITE_TRIGGERS:
            importlib.import_module(f"characters.migrations.{module}").install(apps, schema_editor)
    _record_approved_builds(apps, connection.alias, heads["CharacterEvent"])


def _chain(model, alias) -> dict:
    """Chain every event of `model`, oldest first per chain; the hash at each chain's end."""
    heads, batch = {}, []
    for event in model.objects.using(alias).order_by("id").iterator(chunk_size=BATCH):
        key = chain_key(event)
        link(event, heads.get(key, ""))
        heads[key] = event.record_hash
        batch.append(event)
        if len(batch) == BATCH:
            model.objects.using(alias).bulk_update(batch, ["previous_hash", "record_hash"])
            batch = []
    model.objects.using(alias).bulk_update(batch, ["previous_hash", "record_hash"])
    return heads


def _record_approved_builds(apps, alias, heads) -> None:
    Character = apps.get_model("characters", "Character")
    Approval = apps.get_model("characters", "Approval")
    CharacterEvent = apps.get_model("characters", "CharacterEvent")
    approved = (
        Character.objects.using(alias)
        .filter(state="approved")
        .select_related("campaign")
        .prefetch_related("traits", "equipment", "ledger")
    )
    for character in approved:
        approval = (
            Approval.objects.using(alias)
            .filter(character_id=character.pk)
            .order_by("-created_at", "-id")
            .first()
        )
        if approval is None:
            continue
        changed_since = (
            CharacterEvent.objects.using(alias)
            .filter(character_id=character.pk, action__in=BUILD_CHANGES)
            .filter(version__gt=approval.version)
            .exists()
        )
        approved_build = None if changed_since else _snapshot_build(approval.snapshot)
        if approved_build is None:
            digest = build_sha256(_build_of_rows(character))
            reason = (
                "Fairsheet began checking this build as it stood then: experience was spent "
                "on it (or a trait defined in play) after the GM approved it."
            )
        else:
            digest = build_sha256(approved_build)
            reason = "Fairsheet began checking this build against the one the GM approved."
        event = CharacterEvent(
            character_id=character.pk,
            actor_id=None,
            action="build_recorded",
            version=character.version,
            reason=reason,
            build_sha256=digest,
        )
        link(event, heads.get(character.pk, ""))
        event.save(using=alias)


def _snapshot_build(snapshot):
    """The approved build kept with an approval (its levels in standard words: no designed
    ladder existed before this migration), or None if it cannot be read."""
    try:
        return read_character(snapshot).character
    except CharacterFileError:
        return None


def _build_of_rows(character) -> rc.Character:
    """The build as the rows hold it, what adapters.character_to_rules reads of it, from
    this migration's models (the app's adapter may read fields later migrations add)."""
    traits = sorted(character.traits.all(), key=lambda t: (t.kind, t.position, t.pk))

    def of(kind):
        return [t for t in traits if t.kind == kind]

    def exact(value):
        return None if value is None else Fraction(value)

    def leveled(kind):
        return tuple(
            rc.Trait(t.name, t.level or 0, t.difficulty or None, t.defined_in_play) for t in of(kind)
        )

    equipment = sorted(character.equipment.all(), key=lambda e: (e.position, e.pk))
    return rc.Character(
        ruleset=character.ruleset,
        name=character.name,
        player=character.player,
        concept=character.concept,
        race=character.race,
        scale_strength=character.scale_strength,
        scale_mass=character.scale_mass,
        attributes=leveled("attribute"),
        skills=leveled("skill"),
        gifts=tuple(rc.Gift(t.name, exact(t.cost)) for t in of("gift")),
        faults=tuple(rc.Fault(t.name, exact(t.cost)) for t in of("fault")),
        powers=tuple(
            rc.Power(t.name, t.power_kind or None, t.level, t.difficulty or None, exact(t.cost))
            for t in of("power")
        ),
        equipment=tuple(
            rc.Equipment(e.name, e.kind, e.damage, e.armour, e.notes, e.quantity)
            for e in equipment
        ),
        notes=character.notes,
        personality=dict(character.personality or {}),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0015_interop_second_pass"),
    ]

    operations = [
        migrations.RunPython(drop_keep_recorded_on_sqlite, migrations.RunPython.noop),
        migrations.AddField(
            model_name="campaignevent",
            name="previous_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="campaignevent",
            name="record_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="characterevent",
            name="build_sha256",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="characterevent",
            name="previous_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="characterevent",
            name="record_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AlterField(
            model_name="campaignevent",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="characterevent",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.RunPython(qualify_trigger_functions, migrations.RunPython.noop),
        migrations.RunPython(chain_and_record, migrations.RunPython.noop),
    ]

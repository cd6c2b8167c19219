"""The protective triggers on SQLite, in one place: the migrations that add them (0002, 0006,
0010, 0030) install these statements, and every `manage.py migrate` installs again whichever
a table rebuild dropped.

SQLite alters most columns by rebuilding the table (create a new one, copy, drop the old,
rename), and dropping the old table drops its triggers: 0033 to 0042 altered
characters_character and characters_campaign, and a fresh database lost their keep_recorded
and keep_id triggers without a word. So that no migration has to remember them:

- post_migrate (`reinstall`): after every migrate (and every flush), each trigger whose
  migration is applied is created again if it is missing (CREATE TRIGGER IF NOT EXISTS).
  A trigger is tied to its migration, not to its table, so a database migrated back before
  0030 does not get 0030's triggers, and going forward again creates them without a clash.
- pre_migrate (`release`): a trigger that reads another table stops SQLite renaming that
  table ("error in trigger ...: no such table"), which is the last step of a rebuild: 0016
  and 0030 dropped characters_character_keep_recorded by hand before rebuilding
  characters_characterevent. It is dropped before any migration runs and put back after.

PostgreSQL needs none of this: ALTER TABLE keeps a table's triggers (after a fresh migrate,
pg_trigger holds every trigger 0002 to 0030 created, though 0033 to 0042 altered
characters_character), and its triggers stay in the migrations, which also define its
functions. On PostgreSQL these functions do nothing.

Each message begins as its PostgreSQL function's does, so a caller matches one text on
either database.
"""

from dataclasses import dataclass

from django.db import connections
from django.db.migrations.recorder import MigrationRecorder

APP = "characters"
APPEND_ONLY = {
    "characters_characterevent": "the audit trail (characters_characterevent) is append-only",
    "characters_campaignevent": (
        "the campaign audit trail (characters_campaignevent) is append-only"
    ),
    "characters_threadmessage": "thread messages (characters_threadmessage) are append-only",
}
KEEP_RECORDED = "the audit trail names this character: archive it instead of deleting it"
FIXED_ID_TABLES = ("characters_character", "characters_campaign", "characters_commentthread")


@dataclass(frozen=True)
class Trigger:
    name: str
    table: str
    migration: str  # the migration that adds it: it exists exactly while that one is applied
    body: str  # what follows "CREATE TRIGGER [IF NOT EXISTS] name"
    reads_other_tables: bool = False

    @property
    def create(self) -> str:
        return f"CREATE TRIGGER IF NOT EXISTS {self.name} {self.body}"

    @property
    def drop(self) -> str:
        return f"DROP TRIGGER IF EXISTS {self.name}"


def _append_only(table: str, migration: str, *, say_statement: bool = True) -> list[Trigger]:
    """BEFORE UPDATE and BEFORE DELETE, each refusing. RAISE(ABORT) takes a literal, not
    PostgreSQL's TG_OP: the event tables' triggers name their statement in the text."""
    return [
        Trigger(
            f"{table}_no_{verb.lower()}",
            table,
            migration,
            f"BEFORE {verb} ON {table} BEGIN SELECT RAISE(ABORT, "
            f"'{APPEND_ONLY[table]}{f': {verb} refused' if say_statement else ''}'); END",
        )
        for verb in ("UPDATE", "DELETE")
    ]


TRIGGERS: tuple[Trigger, ...] = (
    *_append_only("characters_characterevent", "0002_audit_append_only"),
    Trigger(
        "characters_character_keep_recorded",
        "characters_character",
        "0006_hardening",
        "BEFORE DELETE ON characters_character "
        "WHEN EXISTS (SELECT 1 FROM characters_characterevent WHERE character_id = OLD.id) "
        f"BEGIN SELECT RAISE(ABORT, '{KEEP_RECORDED}'); END",
        reads_other_tables=True,
    ),
    *_append_only("characters_campaignevent", "0010_campaign_event"),
    *_append_only("characters_threadmessage", "0030_audit_mac_and_fixed_ids", say_statement=False),
    *(
        Trigger(
            f"{table}_keep_id",
            table,
            "0030_audit_mac_and_fixed_ids",
            f"BEFORE UPDATE OF id ON {table} WHEN NEW.id IS NOT OLD.id "
            f"BEGIN SELECT RAISE(ABORT, 'the audit trail names rows of {table} by id'); END",
        )
        for table in FIXED_ID_TABLES
    ),
)


def creates(migration: str) -> list[str]:
    """The statements creating the triggers `migration` adds (those still there stay)."""
    return [trigger.create for trigger in TRIGGERS if trigger.migration == migration]


def drops(migration: str) -> list[str]:
    """The statements dropping them, newest first, for the migration unapplied (those a
    rebuild already dropped are not missed)."""
    return [trigger.drop for trigger in reversed(TRIGGERS) if trigger.migration == migration]


def release(*, using: str, plan, **kwargs) -> None:
    """pre_migrate: drop the triggers that would stop a table rebuild, if anything is to
    be migrated; `reinstall` puts them back."""
    connection = connections[using]
    if connection.vendor != "sqlite" or not plan:
        return
    with connection.cursor() as cursor:
        for trigger in TRIGGERS:
            if trigger.reads_other_tables:
                cursor.execute(trigger.drop)


def reinstall(*, using: str, verbosity: int = 1, **kwargs) -> list[str]:
    """post_migrate: create every trigger of an applied migration that is missing, and
    return their names."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return []
    recorded = MigrationRecorder(connection).applied_migrations()
    applied = {name for app, name in recorded if app == APP}
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        present = {name for (name,) in cursor.fetchall()}
        missing = [t for t in TRIGGERS if t.migration in applied and t.name not in present]
        for trigger in missing:
            cursor.execute(trigger.create)
    if missing and verbosity >= 2:
        print(f"  Installed again the SQLite triggers a rebuild dropped: {_names(missing)}")
    return [trigger.name for trigger in missing]


def _names(triggers) -> str:
    return ", ".join(trigger.name for trigger in triggers)

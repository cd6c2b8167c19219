"""The protective triggers on SQLite, in one place: the migrations that add them (0002, 0006,
0010, 0030) install these statements.

SQLite alters most columns by rebuilding the table (create a new one, copy, drop the old,
rename), and dropping the old table drops its triggers. Each trigger is created IF NOT EXISTS
and dropped IF EXISTS, so installing one again is safe, and migrating back past a rebuild
that already dropped one (0030's triggers, past 0033's rebuild of characters_character) no
longer fails with "no such trigger".

PostgreSQL's triggers stay in the migrations, which also define their functions.

Each message begins as its PostgreSQL function's does, so a caller matches one text on
either database.
"""

from dataclasses import dataclass

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


def of_migration(migration: str) -> list[Trigger]:
    return [trigger for trigger in TRIGGERS if trigger.migration == migration]


def install(schema_editor, migration: str) -> None:
    """For the migration that adds them: create its triggers (those still there stay)."""
    for trigger in of_migration(migration):
        schema_editor.execute(trigger.create)


def uninstall(schema_editor, migration: str) -> None:
    """For the migration that adds them, unapplied: drop its triggers (those a rebuild
    already dropped are not missed)."""
    for trigger in reversed(of_migration(migration)):
        schema_editor.execute(trigger.drop)

"""Between the database and the rules engine: model rows <-> rules.character values.

Callers prefetch `traits` and `equipment` (selectors do) so a conversion costs no query.
"""

import base64
import dataclasses
import hashlib
import json
from decimal import Decimal
from fractions import Fraction
from functools import cached_property, lru_cache, partial
from typing import NamedTuple

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from characters import recorded, rules_content, vocabulary
from characters.audit_chain import mac_holds
from characters.errors import HouseRulesRefused
from characters.models import (
    Approval,
    BuildStep,
    CatalogEntry,
    Character,
    Equipment,
    ExperienceEntry,
    Portrait,
    RulesetVersion,
    Trait,
)
from characters.wording import said
from rules import character as rc
from rules.catalog import (
    POWER_DETAILS,
    Catalog,
    CatalogEquipment,
    CatalogFault,
    CatalogGift,
    CatalogPower,
    CatalogSkill,
)
from rules.charfile import (
    character_file_with_ruleset,
    read_ledger_entry,
    write_character,
    write_entry,
)
from rules.content import NAME, TEXT
from rules.house_rules import (
    HouseRuleError,
    apply_house_rules,
    house_rule_problems,
    house_rules_to_json,
    json_number,
)
from rules.ladder import STANDARD, Ladder, LevelError, level_name, parse_level
from rules.plan import read_steps
from rules.recorded import phrase_data
from rules.ruleset_file import read_ruleset
from rules.rulesets import BUILTIN, FUDGE_BASICS, LEVELS, Ruleset, Terms
from rules.trades import amount_phrase
from rules.words import Name, Phrase, Term, say


def ruleset_for(character: Character) -> Ruleset:
    """The character's rules: its campaign's base ruleset, house rules and catalogue, or a
    built-in ruleset with its own catalogue."""
    campaign = character.campaign
    # What is shown of this character from here on says the GM's translations of the
    # campaign's catalogue (rules_content); a character of no campaign has none.
    speak_campaign(campaign)
    if campaign is None:
        if character.house_rules:
            return _house_ruled((character.ruleset,), _rules_key(character.house_rules))
        return BUILTIN[character.ruleset]
    return _with_catalog(
        _base_key(campaign),
        _rules_key(campaign.house_rules),
        _CatalogKey(campaign.pk, campaign.created_at, campaign.catalog_version),
    )


def campaign_ruleset(campaign) -> Ruleset:
    return _house_ruled(_base_key(campaign), _rules_key(campaign.house_rules))


# A campaign's ruleset is asked for several times a request (the form, the pricing before
# and after an edit, the rows' words) and by every request: parsing its house rules and
# wrapping its catalogue each time was work done again for the same answer (issue 40). So
# the process keeps it under everything it is made of: the base ruleset (a built-in's slug,
# or a designed version, which never changes), the house rules' text and the catalogue's
# version; a change to any of them is another key, so nothing stale is ever returned.
class _CatalogKey(NamedTuple):
    """What CampaignCatalog reads of a campaign, without holding the campaign's row."""

    pk: int
    created_at: object
    catalog_version: int


def _base_key(campaign) -> tuple:
    if campaign.ruleset_version_id is None:
        return (campaign.base_ruleset,)
    version = campaign.ruleset_version
    return (version.pk, version.created_at)


def _rules_key(house_rules) -> str:
    return json.dumps(house_rules or {}, sort_keys=True)


@lru_cache(maxsize=256)
def _house_ruled(base: tuple, rules: str) -> Ruleset:
    # House rules were validated when the GM saved them; a refusal is raised, not kept.
    ruleset = BUILTIN[base[0]] if len(base) == 1 else version_ruleset(*base)
    return apply_house_rules(ruleset, json.loads(rules))


@lru_cache(maxsize=256)
def _with_catalog(base: tuple, rules: str, catalog: _CatalogKey) -> Ruleset:
    return dataclasses.replace(_house_ruled(base, rules), catalog=CampaignCatalog(catalog))


def read_options(campaign) -> dict:
    """How a file is read for `campaign` (or for no campaign): parse_any's keywords, the
    ruleset an actor that names none takes and the campaign's designed ruleset, which a
    file may name."""
    base = base_ruleset(campaign) if campaign else None
    return {
        "default_ruleset": campaign.base_ruleset if campaign else FUDGE_BASICS.slug,
        "rulesets": {base.slug: base} if base and base.slug not in BUILTIN else None,
    }


def base_ruleset(campaign) -> Ruleset:
    """The ruleset a campaign plays before its house rules: the designed version it is on,
    or a built-in one."""
    if campaign.ruleset_version_id is None:
        return BUILTIN[campaign.base_ruleset]
    version = campaign.ruleset_version
    return version_ruleset(version.pk, version.created_at)


@lru_cache(maxsize=64)
def version_ruleset(version_pk: int, created_at) -> Ruleset:
    """A designed ruleset's version, read once per process: a version never changes (a
    change is a new version). created_at too, as campaign_catalog keys on it: test
    databases hand an id out again."""
    return read_ruleset(RulesetVersion.objects.values_list("file", flat=True).get(pk=version_pk))


def character_base(character: Character) -> Ruleset:
    """The ruleset the character's file names, before house rules."""
    if character.campaign is None:
        return BUILTIN[character.ruleset]
    return base_ruleset(character.campaign)


def designed_rulesets(character: Character) -> dict[str, Ruleset]:
    """What rules.charfile must be told to read this character's files back: its designed
    ruleset by slug, or nothing for a built-in one."""
    base = character_base(character)
    return {} if base.slug in BUILTIN and BUILTIN[base.slug] is base else {base.slug: base}


class CampaignCatalog:
    """A campaign's catalogue as the engine reads one (rules.catalog.Catalog): it prices a
    gift or fault given no cost, and names a skill's difficulty. Read on first use, so a
    request that asks nothing of it makes no query, and kept by the process under the
    campaign's catalog_version, so a request that does reads it once per change.
    `campaign`: the campaign, or what is read of it (a _CatalogKey)."""

    def __init__(self, campaign):
        self.campaign = campaign

    def __getattr__(self, name):
        return getattr(self.loaded, name)

    @cached_property
    def loaded(self) -> Catalog:
        campaign = self.campaign
        # created_at too: an id can come back (SQLite hands out a rolled-back insert's id
        # again, as every test database does), a campaign's creation time does not.
        return campaign_catalog(campaign.pk, campaign.created_at, campaign.catalog_version)


@lru_cache(maxsize=256)
def campaign_catalog(campaign_pk: int, created_at, version: int) -> Catalog:
    by_kind = {kind: [] for kind in CatalogEntry.Kind.values}
    for entry in CatalogEntry.objects.filter(campaign_id=campaign_pk):
        by_kind[entry.kind].append(entry)
    return Catalog(
        attributes=tuple(e.name for e in by_kind[CatalogEntry.Kind.ATTRIBUTE]),
        skills=tuple(
            CatalogSkill(e.name, e.difficulty or "average", e.note)
            for e in by_kind[CatalogEntry.Kind.SKILL]
        ),
        gifts=tuple(
            CatalogGift(e.name, _fraction(e.cost, 1), e.note)
            for e in by_kind[CatalogEntry.Kind.GIFT]
        ),
        faults=tuple(
            CatalogFault(e.name, _fraction(e.cost, 1), e.note)
            for e in by_kind[CatalogEntry.Kind.FAULT]
        ),
        equipment=tuple(
            CatalogEquipment(e.name, _equipment_kind(e), e.damage, e.armour, e.note)
            for e in by_kind[CatalogEntry.Kind.EQUIPMENT]
        ),
        power_kinds=tuple(e.name for e in by_kind[CatalogEntry.Kind.POWER_KIND]),
        powers=tuple(power_from_entry(e) for e in by_kind[CatalogEntry.Kind.POWER]),
    )


def speak_campaign(campaign) -> None:
    """From here on, rules names are said with `campaign`'s catalogue translations (or
    with none: None)."""
    rules_content.use_gm_words(None if campaign is None else partial(gm_words, campaign))


def gm_words(campaign) -> rules_content.GmWords:
    return campaign_words(campaign.pk, campaign.created_at, campaign.catalog_version)


@lru_cache(maxsize=256)
def campaign_words(campaign_pk: int, created_at, version: int) -> rules_content.GmWords:
    """The GM's translations of a campaign's catalogue, as rules_content looks them up:
    kept by the process under the catalogue's version, as campaign_catalog is."""
    words: dict[tuple[str, str], dict[str, str]] = {}
    entries = CatalogEntry.objects.filter(campaign_id=campaign_pk).exclude(translations={})
    for name, note, translations in entries.values_list("name", "note", "translations"):
        for language, own in translations.items():
            if own.get("name"):
                words.setdefault((NAME, name), {})[language] = own["name"]
            if note and own.get("note"):
                words.setdefault((TEXT, note), {})[language] = own["note"]
    return words


def power_from_entry(entry: CatalogEntry) -> CatalogPower:
    """A campaign's power line as the engine's catalogue has it."""
    details = entry.details if isinstance(entry.details, dict) else {}
    return CatalogPower(
        entry.name,
        entry.power_kind,
        difficulty=entry.difficulty,
        **{key: str(details.get(key, "")) for key in POWER_DETAILS},
    )


# The rules' list of each kind of trait row: rules.character.Character's field, the build
# report's pool, and the list a ledger entry names (spec).
TRAIT_LISTS = {
    Trait.Kind.ATTRIBUTE: "attributes",
    Trait.Kind.SKILL: "skills",
    Trait.Kind.GIFT: "gifts",
    Trait.Kind.FAULT: "faults",
    Trait.Kind.POWER: "powers",
}


def cost_pool(ruleset: Ruleset, kind: str, power_kind: str = "") -> str:
    """The budget pool a trait of `kind` is paid from, to name its cost's unit: tokens in
    MicroFudged; a power in skill levels or in gifts as its kind is priced (Mudge 2.1);
    any other trait in its own list's levels."""
    if ruleset.system != LEVELS:
        return "tokens"
    if kind == Trait.Kind.POWER:
        return "skills" if power_kind in ruleset.power_gifts else "gifts"
    return TRAIT_LISTS[kind]


def traits_by_kind(character: Character) -> dict[str, list[Trait]]:
    """The character's traits per kind, in the order the engine's lists (and its report)
    have them."""
    by_kind = {kind: [] for kind in Trait.Kind.values}
    for trait in character.traits.all():
        by_kind[trait.kind].append(trait)
    return by_kind


def character_to_rules(character: Character) -> rc.Character:
    by_kind = traits_by_kind(character)
    return rc.Character(
        # The slug only: building the ruleset (house rules, catalogue) for it is wasted work.
        ruleset=character.campaign.base_ruleset if character.campaign else character.ruleset,
        name=character.name,
        house_rules=(
            character.campaign.house_rules if character.campaign else character.house_rules
        ),
        player=character.player,
        concept=character.concept,
        race=character.race,
        scale_strength=character.scale_strength,
        scale_mass=character.scale_mass,
        attributes=tuple(_trait(t) for t in by_kind[Trait.Kind.ATTRIBUTE]),
        skills=tuple(_trait(t) for t in by_kind[Trait.Kind.SKILL]),
        gifts=tuple(
            rc.Gift(t.name, _fraction(t.cost), foundry_id=t.foundry_id)
            for t in by_kind[Trait.Kind.GIFT]
        ),
        faults=tuple(
            rc.Fault(t.name, _fraction(t.cost), foundry_id=t.foundry_id)
            for t in by_kind[Trait.Kind.FAULT]
        ),
        powers=tuple(
            rc.Power(
                name=t.name,
                kind=t.power_kind or None,
                level=t.level,
                difficulty=t.difficulty or None,
                cost=_fraction(t.cost),
                foundry_id=t.foundry_id,
            )
            for t in by_kind[Trait.Kind.POWER]
        ),
        equipment=tuple(
            rc.Equipment(e.name, e.kind, e.damage, e.armour, e.notes, e.quantity, e.foundry_id)
            for e in character.equipment.all()
        ),
        meta_points=character.meta_points,
        experience=character.experience,
        advancement=advancement_of(character),
        notes=character.notes,
        personality=dict(character.personality or {}),
        plan=plan_steps(character) or None,
        foundry_ids=dict(character.foundry_ids or {}),
        foundry_kept=dict(character.foundry_kept or {}),
        npc=(
            rc.Npc(group_size=character.group_size, budget=character.npc_budget)
            if character.is_npc
            else None
        ),
    )


def plan_steps(character: Character) -> tuple:
    """The character's experience plan as engine steps (rules.plan.Step)."""
    return read_steps(character.experience_plan or [])


# How a ledger row marks tokens carried from creation (MicroFudged): an award that is not.
CARRIED = {"carried": True}


def advancement_of(character: Character) -> tuple | None:
    """The experience ledger as the engine reads one (rules.ledger), oldest first: awards,
    and spends with what they bought. None for a character with no ledger yet, so its file
    and report are those of a plain build. Pending spends are not spent yet; a spend taken
    back and the entry that gave its experience back leave together (the trait lists no
    longer hold what it bought)."""
    entries = _standing_entries(character)
    if not entries:
        return None
    return tuple(read_ledger_entry(ledger_line(e)) for e in entries if ledger_line(e))


def ledger_rows_read(character: Character) -> list[ExperienceEntry]:
    """The ledger rows behind advancement_of's entries, in its order: the row of the
    report's "advancement[3]" is the fourth."""
    return [e for e in _standing_entries(character) if ledger_line(e)]


def _standing_entries(character: Character) -> list[ExperienceEntry]:
    ledger = [e for e in character.ledger.all() if not e.pending]
    taken_back = {e.reverses_id for e in ledger if e.reverses_id}
    return [e for e in ledger if not e.reverses_id and e.pk not in taken_back]


def ledger_line(entry: ExperienceEntry) -> dict | None:
    """A ledger row in its file form; None for a spend that does not say what it bought
    (written before spends recorded it): it cannot be undone, so it is left out."""
    note = {"note": entry.reason} if entry.reason else {}
    if entry.amount >= 0:
        kind = "carried" if entry.bought == CARRIED else "award"
        return {kind: entry.amount, **note}
    if entry.bought is None:
        return None
    return {"spend": -entry.amount, **entry.bought, **note}


def ledger_rows(character: Character, entries, *, actor) -> list[ExperienceEntry]:
    """Unsaved ledger rows for the engine's ledger entries (an imported file's). A note in the
    words Fairsheet writes a spend or a conversion in keeps its phrase (characters.recorded),
    said in the reader's language; any other as written."""
    rows = []
    for entry in entries:
        line = write_entry(entry)
        bought = {k: v for k, v in line.items() if k not in ("award", "carried", "spend", "note")}
        templates = recorded.SPEND_LABELS if entry.kind == "spend" else (recorded.CONVERTED,)
        phrase = recorded.parse(entry.note or "", templates)
        rows.append(
            ExperienceEntry(
                character=character,
                amount=-entry.amount if entry.kind == "spend" else entry.amount,
                reason=entry.note or "",
                reason_phrase=None if phrase is None else phrase_data(phrase),
                actor=actor,
                bought=bought or (CARRIED if entry.kind == "carried" else None),
            )
        )
    return rows


def rows_from_rules(character: Character, value: rc.Character):
    """Unsaved Trait and Equipment rows for `character` holding `value`'s traits."""
    traits = []
    for kind, items in (
        (Trait.Kind.ATTRIBUTE, value.attributes),
        (Trait.Kind.SKILL, value.skills),
    ):
        traits += [
            Trait(
                character=character,
                kind=kind,
                name=t.name,
                level=t.level,
                difficulty=t.difficulty or "",
                defined_in_play=t.defined_in_play,
                foundry_id=t.foundry_id,
                position=i,
            )
            for i, t in enumerate(items)
        ]
    traits += [
        Trait(
            character=character,
            kind=Trait.Kind.GIFT,
            name=g.name,
            cost=to_decimal(g.cost),
            foundry_id=g.foundry_id,
            position=i,
        )
        for i, g in enumerate(value.gifts)
    ]
    traits += [
        Trait(
            character=character,
            kind=Trait.Kind.FAULT,
            name=f.name,
            cost=to_decimal(f.value),
            foundry_id=f.foundry_id,
            position=i,
        )
        for i, f in enumerate(value.faults)
    ]
    traits += [
        Trait(
            character=character,
            kind=Trait.Kind.POWER,
            name=p.name,
            level=p.level,
            difficulty=p.difficulty or "",
            power_kind=p.kind or "",
            cost=to_decimal(p.cost),
            foundry_id=p.foundry_id,
            position=i,
        )
        for i, p in enumerate(value.powers)
    ]
    equipment = [
        Equipment(
            character=character,
            name=e.name,
            kind=e.kind,
            damage=e.damage,
            armour=e.armour,
            notes=e.notes,
            quantity=e.quantity,
            foundry_id=e.foundry_id,
            position=i,
        )
        for i, e in enumerate(value.equipment)
    ]
    return traits, equipment


def _equipment_kind(entry: CatalogEntry) -> str:
    """The kind the GM set, else (a line from before kinds were kept) what its values say."""
    if entry.equipment_kind:
        return entry.equipment_kind
    if entry.damage is not None:
        return Equipment.Kind.WEAPON
    return Equipment.Kind.ARMOUR if entry.armour is not None else Equipment.Kind.GEAR


def _trait(trait: Trait) -> rc.Trait:
    return rc.Trait(
        trait.name,
        trait.level if trait.level is not None else 0,
        trait.difficulty or None,
        trait.defined_in_play,
        trait.foundry_id,
    )


def _fraction(value: Decimal | None, default=None) -> Fraction | None:
    """A stored cost as the engine's Fraction; a missing one stays None ("not given": the
    catalogue prices it) unless a default is asked for."""
    if value is None:
        return None if default is None else Fraction(default)
    return Fraction(value)


def to_decimal(value: Fraction | int | None) -> Decimal | None:
    if value is None:
        return None
    value = Fraction(value)
    return Decimal(value.numerator) / Decimal(value.denominator)


# -- files, digests and the record's words --------------------------------------------------

REPORT_POOLS = {"skill level": "skills", "token": "tokens"}  # report unit -> amount() pool


def character_file(character: Character) -> dict:
    """The character as a version-1 character file (rules.charfile), as approvals keep it,
    its levels in its ruleset's ladder words."""
    return write_character(character_to_rules(character), character_base(character).ladder)


def exported_file(character: Character) -> dict:
    """The character file a player downloads: a designed ruleset's character carries its
    ruleset (ruleset_file), so any Fairsheet reads it with nothing else."""
    designed = designed_rulesets(character)
    if designed:
        return character_file_with_ruleset(character_to_rules(character), *designed.values())
    return character_file(character)


def file_sha256(data: dict) -> str:
    """SHA-256 over the canonical JSON of a character file: sorted keys, no spaces, UTF-8.
    The stored snapshot is a JSON column (PostgreSQL does not keep key order or spacing),
    so only a canonical form makes the digest reproducible from what was stored."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _exact(value) -> str | None:
    return None if value is None else str(Fraction(value))


def build_sha256(value: rc.Character) -> str:
    """SHA-256 of a character's build: what the GM approved, which afterwards only Fairsheet's
    own services change (a spend, an uncommitted trait), each recording the new digest in
    its event. Rows that hash to anything else were changed behind the app.

    A fixed projection of the engine's value, not the character file: a file's level words
    follow its ruleset's ladder and its format may grow, neither of which changes a build.
    Left out as not the build: the campaign's ruleset and house rules (on its own record),
    and what play and awards change (experience, the ledger, meta points). A field added to
    the build later joins this only with a migration that records every approved build
    again."""

    def traits(items):
        return [[t.name, t.level, t.difficulty, t.defined_in_play] for t in items]

    build = {
        "name": value.name,
        "player": value.player,
        "concept": value.concept,
        "race": value.race,
        "scale": [value.scale_strength, value.scale_mass],
        "attributes": traits(value.attributes),
        "skills": traits(value.skills),
        "gifts": [[g.name, _exact(g.cost)] for g in value.gifts],
        "faults": [[f.name, _exact(f.value)] for f in value.faults],
        "powers": [[p.name, p.kind, p.level, p.difficulty, _exact(p.cost)] for p in value.powers],
        "equipment": [
            [e.name, e.kind, e.damage, e.armour, e.notes, e.quantity] for e in value.equipment
        ],
        "notes": value.notes,
        "personality": value.personality,
    }
    return file_sha256(build)


def recorded_build_sha256(character: Character) -> str:
    """The digest an approved character's build must have: the newest one its trail records
    (its approval, or a change made through Fairsheet since). Read from the `build_events`
    that selectors.access.APPROVAL_RECORD prefetches, or with one query."""
    events = getattr(character, "build_events", None)
    if events is None:
        events = character.events.exclude(build_sha256="").order_by("-id").only("build_sha256")[:1]
    return next((event.build_sha256 for event in events), "")


def record_forged(character: Character) -> bool:
    """Whether an event an approved build stands on (an `approved` event, or one recording
    the build's digest) has no MAC the audit key gives it: written behind the app by a role
    that may INSERT events but holds no key, or rewritten by the tables' owner (issue 31).
    Read from the events selectors.access.APPROVAL_RECORD prefetches, or with one query."""
    approvals = getattr(character, "approval_events", None)
    builds = getattr(character, "build_events", None)
    if approvals is None or builds is None:
        events = character.events.filter(Q(action="approved") | ~Q(build_sha256=""))
    else:
        events = (*approvals, *builds)
    return not all(mac_holds(event) for event in events)


def build_changed(character: Character) -> bool:
    """Whether an approved character's rows no longer hash to the build its trail records, or
    its record of that build was forged (record_forged): changed behind the app (issue 31).
    Only approved characters are checked; callers prefetch the build's rows, as for pricing
    it."""
    if character.state != Character.State.APPROVED:
        return False
    if record_forged(character):
        return True
    recorded = recorded_build_sha256(character)
    return bool(recorded) and build_sha256(character_to_rules(character)) != recorded


def approval_summary(
    approval: Approval, override_reason: str | None = None, terms: Terms | None = None
) -> str:
    """One line for the sheet, in the active language: "approved", or what was overridden
    and why (override_summary)."""
    return override_summary(approval, override_reason, terms) or pgettext(
        "approval summary", "approved"
    )


def override_summary(
    approval: Approval, override_reason: str | None = None, terms: Terms | None = None
) -> str:
    """When the GM approved over broken rules, what was overridden and why, in the active
    language, e.g. "approved over budget by 2 skill levels: a veteran of the siege" (in the
    ruleset's `terms` where the caller has them); "" for a plain approval. The reason is as
    the GM wrote it, from the approval's event when the caller has it (the record that
    counts)."""
    reason = approval.override_reason if override_reason is None else override_reason
    if not reason:
        return ""
    report = approval.report
    balance = Fraction(str(report["balance"]))
    over = balance < 0
    others = len([e for e in report["errors"] if not (over and e["code"] == "over_budget")])
    # One sentence each, whole: another language orders its words otherwise.
    if over:
        over_by = said(amount_phrase(-balance, REPORT_POOLS[report["unit"]], terms))
        if not others:
            return _("approved over budget by {amount}: {reason}").format(
                amount=over_by, reason=reason
            )
        return ngettext(
            "approved over budget by {amount} and despite {count} other rule broken: {reason}",
            "approved over budget by {amount} and despite {count} other rules broken: {reason}",
            others,
        ).format(amount=over_by, count=others, reason=reason)
    if others:
        return ngettext(
            "approved despite {count} rule broken: {reason}",
            "approved despite {count} rules broken: {reason}",
            others,
        ).format(count=others, reason=reason)
    return _("approved : {reason}").format(reason=reason)


def trait_target(trait: Trait) -> str:
    """How an event or a review comment names a trait: "skill:Climbing"."""
    return f"{trait.kind}:{trait.name}"


def trait_state(trait: Trait) -> dict:
    """A trait as the audit trail records it (JSON, levels as ladder words)."""
    state = {"name": trait.name}
    if trait.level is not None:
        state["level"] = level_name(trait.level)
    if trait.difficulty:
        state["difficulty"] = trait.difficulty
    if trait.cost is not None:
        state["cost"] = json_number(trait.cost)
    if trait.power_kind:
        state["kind"] = trait.power_kind
    if trait.defined_in_play:
        state["defined_in_play"] = True
    return state


def recorded_level(word: str, ladder: Ladder) -> str:
    """A level as the record keeps it (trait_state: a standard ladder word, "Legendary" is
    +4) in a ruleset's `ladder` ("Heroic" on fudge-rpg's Extended ladder); a word that is no
    level, or none on that ladder, stays as it was written."""
    try:
        return ladder.name(STANDARD.parse(word))
    except LevelError:
        return word


def trait_fields(state: dict) -> dict:
    """A trait's model fields from its recorded state: trait_state's inverse."""
    return {
        "name": state["name"],
        "level": parse_level(state["level"]) if "level" in state else None,
        "difficulty": state.get("difficulty", ""),
        "cost": to_decimal(Fraction(str(state["cost"]))) if "cost" in state else None,
        "power_kind": state.get("kind", ""),
        "defined_in_play": state.get("defined_in_play", False),
    }


# The character's own fields the builder edits (services.characters.character_update_details).
DETAIL_FIELDS = (
    "name",
    "player",
    "concept",
    "race",
    "scale_strength",
    "scale_mass",
    "meta_points",
    "notes",
    "personality",
)

# The builder's edits: each one step of its undo history (services.history).
BUILD_EDITS = (
    "trait_added",
    "trait_removed",
    "trait_relevelled",
    "trait_changed",
    "equipment_added",
    "equipment_removed",
    "equipment_changed",
    "details_changed",
    "template_applied",
)


def edit_parts(
    action: str, before: dict | None, after: dict | None, ladder: Ladder = STANDARD
) -> dict:
    """What an edit changed, as its undo step keeps it (BuildStep.edit) for edit_label to
    say in any language: the action, the name, the levels in the words of the character's
    ruleset's `ladder` (and whether that ladder is the standard one, said in the reader's
    language, or a GM's own, said as written)."""
    if action in ("trait_added", "equipment_added"):
        return {"action": action, "name": after["name"]}
    if action in ("trait_removed", "equipment_removed"):
        return {"action": action, "name": before["name"]}
    if action == "trait_relevelled":
        was, now = (
            recorded_level(state["level"], ladder) if "level" in state else None
            for state in (before, after)
        )
        standard = vocabulary.ladder_is_standard(ladder.words)
        return {
            "action": action,
            "name": after["name"],
            "was": was,
            "now": now,
            "standard": standard,
        }
    if action == "template_applied":
        return {"action": action, "template": after["template"]}
    if action == "details_changed":
        return {"action": action, "fields": list(after)}
    return {"action": action, "name": after["name"]}


def edit_phrase(edit: dict) -> Phrase:
    """What an edit changed (edit_parts), for the Undo and Redo buttons and the reason of an
    undo: "Climbing Fair → Good", "adding Swimming", "the change to Dodge". Names are rules
    names (a built-in one said in the reader's language); a GM's own ladder words as written."""
    action = edit["action"]
    if action in ("trait_added", "equipment_added"):
        return say(recorded.ADDING, name=Name(edit["name"]))
    if action in ("trait_removed", "equipment_removed"):
        return say(recorded.REMOVING, name=Name(edit["name"]))
    if action == "trait_relevelled":
        was, now = (_edit_level(word, edit["standard"]) for word in (edit["was"], edit["now"]))
        return say(recorded.RELEVELLED, name=Name(edit["name"]), was=was, now=now)
    if action == "template_applied":
        return say(recorded.TEMPLATE, template=Name(edit["template"]))
    if action == "details_changed":
        fields = tuple(Term(key.replace("_", " "), "edited detail") for key in edit["fields"])
        return say(recorded.CHANGE_TO_DETAILS, fields=fields)
    return say(recorded.CHANGE_TO, name=Name(edit["name"]))


def _edit_level(word: str | None, standard: bool):
    if word is None:
        return say(recorded.NO_LEVEL)
    return recorded.said_level(word) if standard else word


def edit_label(edit: dict) -> str:
    """edit_phrase in the active language."""
    return said(edit_phrase(edit))


def step_label(step: BuildStep) -> str:
    """An undo step's label in the active language; a step whose label no edit's phrase
    says (one kept before steps kept their parts) shows its English label."""
    return edit_label(step.edit) if step.edit else step.label


_MISSING = object()  # a house-rule key one side lacks; None is a real value (no limit)


def changed_keys(old: dict, new: dict) -> tuple[dict, dict]:
    """The house-rule keys whose values differ, as (before, after); a key one side lacks
    (the base ruleset's value there) is left out of that side."""
    keys = [k for k in {**old, **new} if old.get(k, _MISSING) != new.get(k, _MISSING)]
    return (
        {k: old[k] for k in keys if k in old},
        {k: new[k] for k in keys if k in new},
    )


def normalized_house_rules(base: Ruleset, overrides: dict | None) -> dict:
    """The overrides as the character file writes them, without those equal to the base.
    Refused with every problem the overrides have, so a form can mark each field."""
    try:
        ruleset = apply_house_rules(base, overrides)
    except HouseRuleError:  # read them again for all their problems, not only the first
        problems = house_rule_problems(base, overrides)
        raise HouseRulesRefused([(problem.key, problem.phrase) for problem in problems]) from None
    return house_rules_to_json(ruleset, base)


# -- the portrait (issue 26): read by the sheet, the PDF and the Foundry export ----------------


def portrait_bytes(character: Character) -> bytes | None:
    """The character's portrait as kept: a square JPEG characters.images drew (never the
    uploaded file), or None."""
    content = (
        Portrait.objects.filter(character_id=character.pk).values_list("content", flat=True).first()
    )
    return bytes(content) if content is not None else None


def portrait_data_url(character: Character) -> str:
    """The portrait as a data: URL ("" without one): what the PDF prints (its renderer
    fetches nothing) and what a Foundry actor's `img` can carry."""
    content = portrait_bytes(character)
    if content is None:
        return ""
    return "data:image/jpeg;base64," + base64.b64encode(content).decode("ascii")


# The lists of a character whose entries are named by rules names (rules.content).
NAMED_LISTS = ("attributes", "skills", "gifts", "faults", "powers", "equipment")


def with_rules_keys(value: rc.Character, ruleset: Ruleset) -> rc.Character:
    """`value` with each trait and item named by its key: a file written in another language
    ("Escalade", "Force") names the same rules as the canonical file ("Climbing",
    "Strength"), and is kept as that file (docs/translations.md, "Rules content"). A trait
    or item may be any built-in entry; an attribute only one of `ruleset`'s own, so a game's
    own "Vigor" stays, though Spanish says MicroFudged's "Vigour" so."""
    attributes = _attribute_names(ruleset)

    def keyed(name: str, list_name: str) -> str:
        if list_name != "attributes":
            return rules_content.typed_key(name)
        if name.casefold() in attributes:
            return name
        key = rules_content.typed_key(name)
        return key if key.casefold() in attributes else name

    return dataclasses.replace(
        value,
        **{
            list_name: tuple(
                dataclasses.replace(entry, name=keyed(entry.name, list_name))
                for entry in getattr(value, list_name)
            )
            for list_name in NAMED_LISTS
        },
    )


def _attribute_names(ruleset: Ruleset) -> set[str]:
    """Every attribute `ruleset` has or a gift brings, casefolded."""
    names = {
        *(ruleset.attribute_names or ()),
        *ruleset.catalog.attributes,
        *(name for name, _level in ruleset.extra_attributes),
        *ruleset.attribute_gifts.values(),
    }
    return {name.casefold() for name in names}

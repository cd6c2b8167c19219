"""Fairsheet's data: campaigns and their members, characters and their traits, and the
record kept around a build (events, approvals, the experience ledger, review comments and
the threads between GM and player).

Models carry data and constraints; writes go through characters.services, which keep the
audit trail in the same transaction. The rules themselves live in the pure `rules` package.
"""

import secrets
from datetime import timedelta
from functools import cache, cached_property

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q, Subquery
from django.db.models.base import ModelState
from django.db.models.functions import Lower
from django.db.models.signals import post_init, pre_init
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, npgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from characters import states
from characters.print_options import PrintOptions
from characters.rules_content import rules_name
from rules.ladder import ABYSMAL, TOP
from rules.rulesets import BUILTIN, DIFFICULTIES, LEVELS_LISTS, STANDARD_TERMS

# A skill's difficulty as a form or a page offers it (Mudge 1.62): "Very hard".
DIFFICULTY_LABELS = {
    "easy": pgettext_lazy("difficulty", "Easy"),
    "average": pgettext_lazy("difficulty", "Average"),
    "hard": pgettext_lazy("difficulty", "Hard"),
    "very_hard": pgettext_lazy("difficulty", "Very hard"),
}
DIFFICULTY_CHOICES = [(d, DIFFICULTY_LABELS[d]) for d in DIFFICULTIES]
LEVEL_MIN, LEVEL_MAX = ABYSMAL, TOP  # Abysmal .. Legendary+20: bounds for stored levels


class ReadByTheScore(models.Model):
    """A model whose rows every builder page and edit reads by the score (a character and its
    sixty traits): a whole row from the database becomes an instance without Model.__init__,
    which sets each field through setattr and sends pre_init and post_init for every row (a
    trait edit spent 6% of its instructions there, issue 40). The instance is the one
    from_db would make: the same values under the same names, read from the database. A row
    read in part (only(), defer()) takes Django's own way, and so does every row while
    anything at all listens to the init signals (nothing in Fairsheet does; asking whether
    anything listens to this model's cost as much as the signals)."""

    class Meta:
        abstract = True

    @classmethod
    def from_db(cls, db, field_names, values, *, fetch_mode=None):
        if len(values) != len(_attnames(cls)) or pre_init.receivers or post_init.receivers:
            return super().from_db(db, field_names, values, fetch_mode=fetch_mode)
        row = cls.__new__(cls)
        row.__dict__.update(zip(_attnames(cls), values, strict=True))
        row._state = state = ModelState()
        state.adding, state.db = False, db
        if fetch_mode is not None:
            state.fetch_mode = fetch_mode
        return row


@cache
def _attnames(model) -> tuple[str, ...]:
    """The columns from_db is given for a whole row, in order: the concrete fields'."""
    return tuple(field.attname for field in model._meta.concrete_fields)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def validate_ruleset(slug: str) -> None:
    """A ruleset the engine knows, or one a GM designed. A validator, not `choices`: the list
    is the engine's data (rules.rulesets.BUILTIN), so a new ruleset needs no migration."""
    if slug not in BUILTIN and not DesignedRuleset.objects.filter(slug=slug).exists():
        raise ValidationError(
            _("Unknown ruleset %(slug)s: use one of %(known)s."),
            params={"slug": slug, "known": ", ".join(BUILTIN)},
            code="unknown_ruleset",
        )


def ruleset_name(slug: str) -> str:
    ruleset = BUILTIN.get(slug)
    return ruleset.name if ruleset else slug


class CampaignQuerySet(models.QuerySet):
    def run_by(self, user):
        return self.filter(gm=user)

    def joined_by(self, user):
        """Campaigns the user plays in or runs."""
        return self.filter(Q(memberships__user=user) | Q(gm=user)).distinct()

    def played_by(self, user):
        return self.filter(memberships__user=user)

    def current(self):
        return self.filter(archived_at__isnull=True)

    def archived(self):
        return self.filter(archived_at__isnull=False)

    def with_game(self):
        """Each with the version of the GM's own game it plays and that game, whose name
        get_base_ruleset_display says: a list of campaigns reads them with the list. The
        version's file, the whole game, is left unread: its rules are read once a process
        (adapters.version_ruleset), and each row would parse it again."""
        return self.select_related("ruleset_version__ruleset").defer("ruleset_version__file")


class DesignedRuleset(models.Model):
    """A GM's own game (docs/ruleset-file.md), kept as numbered versions: each save of the
    designer is a new version, and a campaign stays on the version its characters were
    approved under until its GM moves it on (services.rulesets)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="designed_rulesets"
    )
    slug = models.CharField(max_length=40)
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    # Where a copy taken from the library came from (services.library): the published game,
    # which stays in the database when its publisher unpublishes it, or a built-in's slug.
    copied_from = models.ForeignKey(
        "PublishedGame", on_delete=models.PROTECT, null=True, blank=True, related_name="copies"
    )
    copied_from_builtin = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "slug"], name="designed_ruleset_slug_once")
        ]

    def __str__(self):
        return self.name

    @property
    def latest(self) -> "RulesetVersion":
        return self.versions.order_by("-number").first()


class RulesetVersion(models.Model):
    """One saved version of a designed ruleset: the whole ruleset file, validated by
    rules.ruleset_file before it is saved, never changed after (a change is a new version)."""

    ruleset = models.ForeignKey(DesignedRuleset, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    file = models.JSONField()
    note = models.CharField(max_length=500, blank=True)  # what changed, in the GM's words
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ruleset", "number"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "number"], name="ruleset_version_once")
        ]

    def __str__(self):
        return gettext("{name}, version {number}").format(
            name=self.ruleset.name, number=self.number
        )


class Licence(models.TextChoices):
    """What a publisher lets other GMs do with a game in the library."""

    CC_BY = "cc-by-4.0", "CC BY 4.0"
    CC_BY_SA = "cc-by-sa-4.0", "CC BY-SA 4.0"
    CC0 = "cc0", "CC0"
    PLAY_ONLY = "play-only", _("All rights reserved — copies for play only")
    OWN = "own", _("In my own words")


class PublishedGame(models.Model):
    """A version of a designed game its GM put in the instance's library for other GMs to
    preview and copy (services.library). Unpublishing hides it; the row stays, so copies
    taken from it keep saying where they came from."""

    version = models.ForeignKey(
        RulesetVersion, on_delete=models.PROTECT, related_name="publications"
    )
    publisher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="published_games"
    )
    name = models.CharField(max_length=100)  # the version's name when it was published
    description = models.TextField(max_length=2000)
    # Codes of settings.LANGUAGES the game is written in.
    languages = models.JSONField(default=list)
    licence = models.CharField(max_length=20, choices=Licence.choices)
    licence_own_words = models.CharField(max_length=200, blank=True)  # when licence is OWN
    published_at = models.DateTimeField(auto_now_add=True)
    unpublished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name

    @property
    def is_published(self) -> bool:
        return self.unpublished_at is None

    @property
    def licence_said(self) -> str:
        if self.licence == Licence.OWN:
            return self.licence_own_words
        return str(self.get_licence_display())


class NpcRollMethod(models.TextChoices):
    FOUR_DF = "4df", pgettext_lazy("NPC roll method", "4dF, as for the players")
    ONE_D6 = "1d6", pgettext_lazy("NPC roll method", "1d6 (Fudge 4.5)")
    # Mudge 3.5 and 4.33 say these two and "no roll"; a label names no ruleset, since the
    # choice is offered under every ruleset (a Fudge Basics page never says "Mudge").
    ONE_DF = "1df", pgettext_lazy("NPC roll method", "1dF")
    TWO_DF = "2df", pgettext_lazy("NPC roll method", "2dF")
    NO_ROLL = "no-roll", pgettext_lazy("NPC roll method", "No roll: the level is the difficulty")


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    base_ruleset = models.CharField(max_length=40, validators=[validate_ruleset])
    # Overrides of the base ruleset's numbers, in the character file's house_rules form,
    # validated by rules.house_rules before they are saved.
    house_rules = models.JSONField(default=dict, blank=True)
    # A designed ruleset's version the campaign plays (then base_ruleset is its slug), or
    # none: base_ruleset is a built-in one.
    ruleset_version = models.ForeignKey(
        RulesetVersion,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="campaigns",
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    spends_need_approval = models.BooleanField(
        default=False, help_text=_("Experience spends wait for the GM before they apply.")
    )
    # One step up with every change to the catalogue: a process keeps the catalogue it read
    # under this number (characters.adapters), so a builder edit does not read it again.
    catalog_version = models.PositiveIntegerField(default=0, editable=False)
    # How the dice log rolls for the GM's NPCs (rules.npc: Fudge 1995 4.5, Mudge 4.33).
    npc_roll_method = models.CharField(
        max_length=10, choices=NpcRollMethod.choices, default=NpcRollMethod.FOUR_DF
    )
    # Fudge 1995 4.73: a GM may use damage thresholds for PCs and ignore them for NPCs.
    npc_damage_thresholds = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Archived by its GM: off every list and closed to new players, restored at will.
    archived_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_base_ruleset_display(self) -> str:
        if self.ruleset_version_id is not None:
            return str(self.ruleset_version)
        return ruleset_name(self.base_ruleset)

    def has_member(self, user) -> bool:
        """Whether `user` runs or plays in this campaign."""
        return self.gm_id == user.pk or self.memberships.filter(user=user).exists()


class Membership(models.Model):
    """A player's place in a campaign. The GM has none: Campaign.gm says who runs it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]


CAMPAIGN_NAME_MAX = Campaign._meta.get_field("name").max_length
FACTOR_RANGE = range(-20, 21)  # weapon and armour values: Mudge's run from -1 to +8


MAX_COPIES = 20  # separate NPCs a GM makes at once from one ("make 3 copies")


class NpcShown(models.TextChoices):
    HIDDEN = "hidden", pgettext_lazy("NPC shown to players", "Hidden")
    NAME = "name", pgettext_lazy("NPC shown to players", "Name only")
    SHEET = "sheet", pgettext_lazy("NPC shown to players", "Sheet")


class CharacterQuerySet(models.QuerySet):
    def with_game(self):
        """Each with its campaign, the version of the game it plays, which the rules of a
        character are read from (adapters.ruleset_for), and that game, whose name
        get_ruleset_display says: a list of characters on a GM's own game reads them with
        the list, not once a character. The version's file is left unread, as
        CampaignQuerySet.with_game leaves it."""
        return self.select_related("campaign__ruleset_version__ruleset").defer(
            "campaign__ruleset_version__file"
        )

    def visible_to(self, user):
        """Who may see what: a player their own characters, a GM every character in the
        campaigns they run, nobody anything else. An NPC is its GM's own (services.npcs
        makes it so), so no player reaches one through here, hidden or shown."""
        return self.filter(Q(owner=user) | Q(campaign__gm=user))

    def readable_by(self, user):
        """What `user` may read the sheet of: what they see, and the NPCs their GM showed
        them whole (NpcShown.SHEET) in a campaign they play in. Read only: every page that
        changes a character, or plays it, keeps to visible_to."""
        shown = Q(
            is_npc=True,
            npc_shown=NpcShown.SHEET,
            campaign__in=Membership.objects.filter(user=user).values("campaign"),
        )
        return self.filter(Q(owner=user) | Q(campaign__gm=user) | shown)

    def players(self):
        """The player characters: a campaign's party, its review queue."""
        return self.filter(is_npc=False)

    def npcs(self):
        return self.filter(is_npc=True)

    def named_to_players(self):
        """The NPCs the GM revealed, by name or whole: what a campaign's players may see
        named (a hidden NPC is named nowhere a player looks)."""
        return self.filter(is_npc=True).exclude(npc_shown=NpcShown.HIDDEN)

    def owned_by(self, user):
        return self.filter(owner=user)

    def reviewed_by(self, user):
        """The characters of the campaigns the user runs: the GM reviews them."""
        return self.filter(campaign__gm=user)


class CurrentCharacters(models.Manager.from_queryset(CharacterQuerySet)):
    """Characters that are not archived: what every page lists and finds (the default)."""

    def get_queryset(self):
        return super().get_queryset().filter(archived_at__isnull=True)


class UserSessionManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().select_related("user")


class UserSession(AbstractBaseSession):
    """A session whose row names its user (characters.sessions): read with the user in one
    statement. Deleting a user ends their sessions."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )

    objects = UserSessionManager()


class Character(ReadByTheScore):
    class State(models.TextChoices):  # their words: characters.states, on every page
        DRAFT = states.DRAFT, states.LABELS[states.DRAFT]
        SUBMITTED = states.SUBMITTED, states.LABELS[states.SUBMITTED]
        CHANGES_REQUESTED = states.CHANGES_REQUESTED, states.LABELS[states.CHANGES_REQUESTED]
        APPROVED = states.APPROVED, states.LABELS[states.APPROVED]

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="characters"
    )
    # For a character outside any campaign; a campaign character uses the campaign's rules.
    ruleset = models.CharField(max_length=40, validators=[validate_ruleset])
    name = models.CharField(max_length=200)
    player = models.CharField(max_length=200, blank=True)
    concept = models.CharField(max_length=1000, blank=True)
    race = models.CharField(max_length=200, blank=True)
    scale_strength = models.SmallIntegerField(default=0)
    scale_mass = models.SmallIntegerField(default=0)
    meta_points = models.SmallIntegerField(null=True, blank=True)
    experience = models.IntegerField(default=0)  # unspent EP/XP/tokens (ledger sum)
    # A character outside any campaign keeps the house rules its file came with (the
    # character file's form, validated by rules.house_rules on import); in a campaign the
    # campaign's apply.
    house_rules = models.JSONField(default=dict, blank=True)
    # The ids Foundry knows the actor and its attribute set by (rules.character.Character's
    # foundry_ids), so a re-export updates them rather than adding new ones.
    foundry_ids = models.JSONField(default=dict, blank=True)
    # What else the actor it came from held, given back to Foundry on export (rules.character.
    # Character's foundry_kept): item pictures and compendium links, the attribute set's and
    # trait ladder's names, the actor's picture and its token's settings.
    foundry_kept = models.JSONField(default=dict, blank=True)
    notes = models.TextField(blank=True, max_length=20_000)
    personality = models.JSONField(default=dict, blank=True)
    # The player's experience plan (rules.plan): its steps as the character file writes them,
    # levels in the standard ladder's words. Priced when read; never changes the character.
    experience_plan = models.JSONField(default=list, blank=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.DRAFT)
    # A non-player character: the GM's own (its owner is the campaign's GM), never in the
    # players' approval queue, and shown to the players only as far as `npc_shown` says.
    is_npc = models.BooleanField(default=False)
    npc_shown = models.CharField(max_length=10, choices=NpcShown.choices, default=NpcShown.HIDDEN)
    # A group made as one NPC (three pirates): one set of traits, a wound track each.
    group_size = models.PositiveSmallIntegerField(default=1)
    # An NPC priced against the creation budget, as a PC is: only when its GM asks
    # (rules.character.Npc; without, the build report holds it to no budget).
    npc_budget = models.BooleanField(default=False)
    # Optimistic lock: every write names the version it was made against (two tabs).
    version = models.PositiveIntegerField(default=1)
    # The record_hash of the newest event on the character's audit trail (services.audit):
    # the write that locks the row reads it with the version, so linking its event needs no
    # statement of its own. A head that disagrees with the trail shows as a broken link.
    audit_head = models.CharField(max_length=64, blank=True, default="", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Deleting a character archives it: the audit trail names it, so the row stays (and the
    # database refuses a DELETE while events name it, migration 0004).
    archived_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A draft its player deleted: archived for good (never listed nor restored), its rows
    # gone but for the record's (services.keeping.character_delete).
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    # Archived ones too, for the record.
    all_objects = models.Manager.from_queryset(CharacterQuerySet)()
    objects = CurrentCharacters()

    class Meta:
        ordering = ["name"]
        default_manager_name = "objects"  # related lists (a campaign's, a user's) skip archived
        constraints = [
            models.CheckConstraint(
                condition=Q(scale_strength__gte=-50, scale_strength__lte=50)
                & Q(scale_mass__gte=-50, scale_mass__lte=50),
                name="character_scale_in_range",
            ),
            models.CheckConstraint(
                condition=Q(experience__gte=0), name="character_experience_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(meta_points__isnull=True) | Q(meta_points__gte=0),
                name="character_meta_points_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(group_size__gte=1, group_size__lte=50),
                name="character_group_size_in_range",
            ),
            models.CheckConstraint(
                condition=Q(is_npc=True) | Q(group_size=1),
                name="character_group_only_for_npcs",
            ),
        ]

    def __str__(self):
        return self.name

    def get_ruleset_display(self) -> str:
        if self.ruleset not in BUILTIN and self.campaign_id is not None:
            # A GM's own game, by the name its GM gave it (a campaign's version of it).
            return self.campaign.ruleset_version.ruleset.name
        return ruleset_name(self.ruleset)

    @cached_property
    def latest_event(self) -> "CharacterEvent | None":
        """The newest entry of the audit trail, read once per instance. The write that
        records an event sets it here (services.audit.record_event), so the page shown
        after an edit needs no query for it."""
        return self.events.order_by("-id").first()

    @cached_property
    def latest_comments(self) -> list["ReviewComment"]:
        """The GM's comments of the latest review (one request for changes, or one
        approval): they share the version the review moved the character to. Read once per
        instance: the builder's rows and its review panel show the same ones."""
        # One statement, the latest version found in it: a page with comments read two.
        last = self.comments.order_by("-version").values("version")[:1]
        return list(self.comments.filter(version=Subquery(last)).order_by("id"))

    @cached_property
    def portrait_sha(self) -> str:
        """The portrait's SHA-256, "" without one: whether to show it, and the version its
        URL names (a list annotates it instead, in the same query)."""
        return (
            Portrait.objects.filter(character_id=self.pk).values_list("sha256", flat=True).first()
            or ""
        )

    @cached_property
    def live_share_link(self) -> "ShareLink | None":
        """The read-only link to the sheet its player made, if one works now."""
        return self.share_links.filter(revoked_at__isnull=True).first()

    @property
    def state_phrase(self) -> str:
        """The state in a sentence, "Brogo is <phrase>": "a draft", not "is draft"; lazy, in
        the reader's language."""
        return states.PHRASES[self.state]

    @property
    def is_locked(self) -> bool:
        """Submitted and approved builds are not edited directly (approval workflow)."""
        return self.state in (self.State.SUBMITTED, self.State.APPROVED)


# What a write to a character may change of its own row (not whose it is or where it plays):
# what the builder reads again after an edit.
CHARACTER_FIELDS = [
    f.attname for f in Character._meta.concrete_fields if not f.is_relation and not f.primary_key
]


class Trait(ReadByTheScore):
    """An attribute, skill, gift, fault or power of a character: one table so the builder
    loads every row with one query and edits every kind the same way."""

    class Kind(models.TextChoices):
        ATTRIBUTE = "attribute", pgettext_lazy("catalogue line", "attribute")
        SKILL = "skill", pgettext_lazy("catalogue line", "skill")
        GIFT = "gift", pgettext_lazy("catalogue line", "gift")
        FAULT = "fault", pgettext_lazy("catalogue line", "fault")
        POWER = "power", pgettext_lazy("catalogue line", "power")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=100)
    level = models.SmallIntegerField(null=True, blank=True)  # ladder offset, Fair = 0
    difficulty = models.CharField(max_length=10, choices=DIFFICULTY_CHOICES, blank=True)
    # gift cost / fault value / superpower cost, in gifts
    cost = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    power_kind = models.CharField(max_length=12, blank=True)
    position = models.PositiveIntegerField(default=0)
    # Mudge 1.7: one of the character's uncommitted traits, defined in play (not priced at
    # creation; the audit trail records who defined it).
    defined_in_play = models.BooleanField(default=False)
    foundry_id = models.CharField(max_length=16, blank=True)  # its Foundry item's id

    class Meta:
        ordering = ["kind", "position", "id"]
        constraints = [
            models.UniqueConstraint(
                "character", "kind", Lower("name"), name="trait_unique_name_per_kind"
            ),
            models.CheckConstraint(
                condition=Q(level__isnull=True) | Q(level__gte=LEVEL_MIN, level__lte=LEVEL_MAX),
                name="trait_level_on_ladder",
            ),
            models.CheckConstraint(
                condition=Q(cost__isnull=True) | Q(cost__gte=0), name="trait_cost_not_negative"
            ),
        ]


TRAIT_NAME_MAX = Trait._meta.get_field("name").max_length


class Equipment(ReadByTheScore):
    class Kind(models.TextChoices):
        WEAPON = "weapon", pgettext_lazy("equipment kind", "Weapon")
        ARMOUR = "armour", pgettext_lazy("equipment kind", "Armour")
        SHIELD = "shield", pgettext_lazy("equipment kind", "Shield")
        GEAR = "gear", pgettext_lazy("equipment kind", "Gear")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="equipment")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.GEAR)
    damage = models.SmallIntegerField(null=True, blank=True)
    armour = models.SmallIntegerField(null=True, blank=True)
    notes = models.CharField(max_length=1000, blank=True)
    quantity = models.PositiveIntegerField(default=1)
    foundry_id = models.CharField(max_length=16, blank=True)  # its Foundry item's id
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]


class PowerKind(models.TextChoices):
    """Mudge 2.5-2.9 and DIP VIII.1's kinds of power (spec: a power's `kind`), each named as
    a fact about a power ("spell", "sort"). Trait.power_kind and CatalogEntry.power_kind hold
    one of these, or nothing, which the rules read as a superpower (rules.report)."""

    SPELL = "spell", pgettext_lazy("power kind", "spell")
    PSI = "psi", pgettext_lazy("power kind", "psi")
    SUPERPOWER = "superpower", pgettext_lazy("power kind", "superpower")
    FIELD = "field", pgettext_lazy("power kind", "field")


class CatalogEntry(models.Model):
    """One line of a campaign's catalogue: an attribute, a skill with its difficulty, a gift
    or fault with its cost, a power kind, or a piece of equipment."""

    # Trait.Kind's kinds, words and all, then the catalogue's own two: a kind of power the
    # campaign allows, a piece of equipment.
    Kind = models.TextChoices(
        "Kind",
        [
            *((kind.name, (kind.value, kind.label)) for kind in Trait.Kind),
            ("POWER_KIND", ("power_kind", pgettext_lazy("catalogue line", "power kind"))),
            ("EQUIPMENT", ("equipment", pgettext_lazy("catalogue line", "equipment"))),
        ],
    )

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="catalog")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    name = models.CharField(max_length=100)
    difficulty = models.CharField(max_length=10, choices=DIFFICULTY_CHOICES, blank=True)
    cost = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    damage = models.SmallIntegerField(null=True, blank=True)
    armour = models.SmallIntegerField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True)
    # Equipment: weapon, armour, shield or gear (a shield has an armour value and is no armour).
    equipment_kind = models.CharField(max_length=10, blank=True)
    # Powers: spell, psi, superpower or field, and the rule text's lines (rules.catalog.
    # CatalogPower: section, cost, target, damage_factor, range, duration, effect, group).
    power_kind = models.CharField(max_length=12, blank=True)
    details = models.JSONField(default=dict, blank=True)
    # The GM's own translations of the name and note: {"fr": {"name": ..., "note": ...}}.
    # The name stays the entry's key (what characters and files name); a player reads the
    # words of their language, else the name (characters.rules_content).
    translations = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["kind", "name"]
        constraints = [
            models.UniqueConstraint(
                "campaign", "kind", Lower("name"), name="catalog_entry_unique_name"
            ),
            models.CheckConstraint(
                condition=Q(cost__isnull=True) | Q(cost__gte=0), name="catalog_cost_not_negative"
            ),
        ]


# Which of CatalogEntry's optional fields mean something for each kind of entry; the others
# are kept empty, so a skill never carries a stray cost.
ENTRY_FIELDS = {
    CatalogEntry.Kind.ATTRIBUTE: (),
    CatalogEntry.Kind.SKILL: ("difficulty",),
    CatalogEntry.Kind.GIFT: ("cost",),
    CatalogEntry.Kind.FAULT: ("cost",),
    CatalogEntry.Kind.POWER_KIND: (),
    CatalogEntry.Kind.POWER: ("power_kind", "difficulty", "details"),
    CatalogEntry.Kind.EQUIPMENT: ("equipment_kind", "damage", "armour"),
}
CATALOG_NAME_MAX = CatalogEntry._meta.get_field("name").max_length
CATALOG_NOTE_MAX = CatalogEntry._meta.get_field("note").max_length

# What an event or a comment is about when it names no trait (characters.services' targets).
TARGETS = {
    "": pgettext_lazy("about", "The build"),
    "house_rules": pgettext_lazy("about", "House rules"),
    "portrait": pgettext_lazy("about", "Portrait"),
    "ruleset": pgettext_lazy("about", "Ruleset"),
    "share_link": pgettext_lazy("about", "Share link"),
}
# ... and the kinds of what it names beside a ruleset's lists: "Equipment: Sword".
TARGET_KINDS = {
    "equipment": pgettext_lazy("about", "equipment"),
    "template": pgettext_lazy("about", "template"),
    "user": pgettext_lazy("about", "user"),
}


def target_label(target: str, terms=None) -> str:
    """What an event or a comment is about, for people, in the reader's language:
    "skill:Mimic Animal" is "Skill: Mimic Animal" (in a ruleset's `terms`, "Field of
    expertise: Mimic Animal"), "house_rules" is "House rules", and no target is the whole
    build. A list's noun is the catalogue's (characters.vocabulary's "list" words); a GM's own
    noun is said as written."""
    kind, _colon, name = target.partition(":")
    if not name:
        said = TARGETS.get(kind)
        return str(said) if said is not None else kind.replace("_", " ").capitalize()
    list_name = f"{kind}s"
    if kind in TARGET_KINDS:
        said = str(TARGET_KINDS[kind])
    elif list_name in LEVELS_LISTS:
        terms = terms or STANDARD_TERMS
        said = npgettext("list", terms.noun(list_name), terms.plural(list_name), 1)
    else:
        said = kind
    # A built-in trait's or item's name in the reader's language; a template's slug as kept.
    name = name if kind == "template" else rules_name(name)
    return gettext("{kind}: {name}").format(kind=f"{said[:1].upper()}{said[1:]}", name=name)


class CharacterEvent(models.Model):
    """The audit trail: one row per change, written by the service that makes the change,
    in its transaction. Append-only: database triggers refuse UPDATE and DELETE."""

    # DO_NOTHING without a database constraint: the record outlives a deleted character,
    # and the append-only triggers would refuse the cascade anyway.
    character = models.ForeignKey(
        Character, on_delete=models.DO_NOTHING, related_name="events", db_constraint=False
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    # Set before the save, not by it: the event's hash covers it (characters.audit_chain).
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    action = models.CharField(max_length=40)  # e.g. trait_added, state_changed, xp_awarded
    target = models.CharField(max_length=200, blank=True)  # e.g. "skill:Climbing"
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField()  # the character's version after the change
    reason = models.TextField(blank=True)
    # On an approved character, the SHA-256 of its build after this change (adapters.
    # build_sha256): what its rows must hash to until the next such event.
    build_sha256 = models.CharField(max_length=64, blank=True)
    # What the event records for a person to read, as phrases (characters.recorded): the
    # reason's, under "reason", and lines of `after` under their key ("changed",
    # "not_mapped"), said in the reader's language. Null on an event written before phrases
    # were kept: its English is read back. Hashed and signed with the event when set
    # (audit_chain.CHAINED_WHEN_SET).
    phrases = models.JSONField(null=True, blank=True)
    previous_hash = models.CharField(max_length=64, blank=True)  # characters.audit_chain
    record_hash = models.CharField(max_length=64, blank=True)
    key_id = models.CharField(max_length=20, blank=True)  # the audit key that signed it
    mac = models.CharField(max_length=64, blank=True)  # HMAC-SHA256 with that key

    class Meta:
        ordering = ["created_at", "id"]

    @property
    def target_label(self) -> str:
        return target_label(self.target)


class CampaignEvent(models.Model):
    """The campaign's audit trail: one row per change of its house rules, settings,
    catalogue, members or invite, written by the service that makes the change, in its
    transaction. Append-only like CharacterEvent: database triggers refuse UPDATE and
    DELETE (migration 0010)."""

    # DO_NOTHING without a database constraint, as CharacterEvent: the record outlives the
    # campaign, and the append-only triggers would refuse a cascade anyway.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.DO_NOTHING, related_name="events", db_constraint=False
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)  # hashed
    action = models.CharField(max_length=40)  # e.g. house_rules_changed, member_removed
    target = models.CharField(max_length=200, blank=True)  # e.g. "skill:Climbing"
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    phrases = models.JSONField(null=True, blank=True)  # as CharacterEvent.phrases
    previous_hash = models.CharField(max_length=64, blank=True)  # characters.audit_chain
    record_hash = models.CharField(max_length=64, blank=True)
    key_id = models.CharField(max_length=20, blank=True)  # the audit key that signed it
    mac = models.CharField(max_length=64, blank=True)  # HMAC-SHA256 with that key

    class Meta:
        ordering = ["created_at", "id"]

    @property
    def target_label(self) -> str:
        return target_label(self.target)


class Approval(models.Model):
    """A GM's approval: the build as a character file, its SHA-256, any override reason."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="approvals")
    version = models.PositiveIntegerField()
    snapshot = models.JSONField()
    sha256 = models.CharField(max_length=64)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    override_reason = models.TextField(blank=True)
    report = models.JSONField(default=dict)  # the build report at approval
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def recorded_event(self) -> CharacterEvent | None:
        """The `approved` event of this approval: the append-only record of its hash, GM and
        reason, which this row (an ordinary, editable one) must agree with."""
        return (
            CharacterEvent.objects.filter(
                character_id=self.character_id, action="approved", version=self.version
            )
            .select_related("actor")
            .first()
        )


class Submission(models.Model):
    """One submission of a build for the GM's review, and how it ended: what the review queue
    and "waiting since" read. The submitted build itself is kept in its `submitted` event,
    the append-only record."""

    class Outcome(models.TextChoices):
        WAITING = "waiting", _("Waiting for the GM")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        CHANGES_REQUESTED = states.CHANGES_REQUESTED, states.LABELS[states.CHANGES_REQUESTED]
        APPROVED = states.APPROVED, states.LABELS[states.APPROVED]

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField()  # the character's version once submitted
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=20, choices=Outcome.choices, default=Outcome.WAITING)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["submitted_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["character"],
                condition=Q(outcome="waiting"),
                name="one_waiting_submission_per_character",
            )
        ]


class ExperienceEntry(ReadByTheScore):
    """The experience ledger: awards (+) and spends (-); the character's unspent experience
    is their sum, kept in Character.experience under a row lock. A spend records what it
    bought as the character file's ledger writes it, so the creation build is the character
    with every spend undone (spec, "Advancement")."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="ledger")
    amount = models.IntegerField()
    reason = models.CharField(max_length=500)  # English: the character file's ledger note
    # The reason as a phrase (characters.recorded), said in the reader's language; null for
    # a person's own words (an award's reason), shown as written.
    reason_phrase = models.JSONField(null=True, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    pending = models.BooleanField(default=False)  # a spend waiting for the GM
    # A spend: {"raise": {...}}, {"add": {...}}, {"remove": {...}} or {"meta_points": N}.
    bought = models.JSONField(null=True, blank=True)
    # A pending spend: what it asks for (services.advancement.Priced), so the GM accepts
    # exactly what the player asked for. Kept once accepted: the GM acted on that spend.
    request = models.JSONField(null=True, blank=True)
    # A spend the player took back is answered by an award of the same amount that names it
    # (never deleted): the two leave the exported file together.
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


class ReviewComment(models.Model):
    """A GM's comment on a submitted build, on the whole build or on one trait."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    target = models.CharField(max_length=200, blank=True)  # "" or e.g. "skill:Climbing"
    body = models.TextField(max_length=5000)
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    @property
    def target_label(self) -> str:
        return target_label(self.target)


# -- a conversation: comment threads between the GM and the player (issue 26) -----------------


class CommentThread(models.Model):
    """A conversation between the campaign's GM and the character's player, on the whole
    build or on one trait or piece of equipment. Its messages are on the audit trail too
    (services.threads); this row and its messages are what the pages show.

    What it is about is kept twice: `target` as the row was named when the thread started
    ("skill:Sword"; "" for the whole build), and `row_pk`, the row's id, so a thread follows
    its row through a rename, an undo or a redo (which put rows back with their ids). A row
    that is gone leaves the thread reading "Sword (removed)" (selectors.threads)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="threads")
    target = models.CharField(max_length=200, blank=True)
    # The Trait's id, or the Equipment row's for an "equipment:" target; no foreign key: the
    # row may be deleted and put back, and the thread must outlive it.
    row_pk = models.PositiveBigIntegerField(null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["created_at", "id"]

    @property
    def is_resolved(self) -> bool:
        return self.resolved_at is not None


class ThreadMessage(models.Model):
    """One message of a thread, by the GM or the player."""

    thread = models.ForeignKey(CommentThread, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    body = models.TextField(max_length=5000)
    version = models.PositiveIntegerField()  # the character's version when it was written
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


THREAD_MESSAGE_MAX = ThreadMessage._meta.get_field("body").max_length


# -- notifications: what the GM did, for the player (issue 12) -------------------------------


class Notification(models.Model):
    """What the GM did that a player should know: a build approved or sent back, experience
    awarded; and a thread's news, for the GM as well. Counted in the header until read;
    e-mailed too when its reader gave an address (services.notifications)."""

    class Kind(models.TextChoices):
        APPROVED = "approved", _("Approved")
        CHANGES_REQUESTED = "changes_requested", _("Changes requested")
        EXPERIENCE = "experience", _("Experience awarded")
        SPEND_ACCEPTED = "spend_accepted", _("Request accepted")
        SPEND_REFUSED = "spend_refused", _("Request refused")
        # A thread's news goes to whichever side did not make it: the GM hears of it too.
        MESSAGE = "message", _("Message")
        THREAD_RESOLVED = "thread_resolved", _("Thread resolved")
        THREAD_REOPENED = "thread_reopened", _("Thread reopened")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    # The mail that tells of it, if its reader gave an address: one mail may tell of several
    # (a party award: one per player, naming each of their characters).
    mail = models.ForeignKey(
        "OutgoingMail",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="notifications",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    message = models.CharField(max_length=500)  # as its reader's language said it then
    # The message as a phrase (characters.recorded), said in the language its reader reads
    # the list in; null on a notification written before phrases were kept.
    message_phrase = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]


class OutgoingMail(models.Model):
    """One e-mail in the outbox: written with what it tells of, in the same transaction, and
    sent by `manage.py send_mail_outbox` (services.mail_outbox). A sender claims a due row
    for `lease_until`; a row still SENDING after its lease lost its sender (killed
    mid-send) and is claimed again. A failed send waits `next_attempt_at`, longer each time,
    until it is sent or given up with `last_error` as the reason."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Not delivered yet")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Delivered")
        GIVEN_UP = "given_up", _("Given up")

    # The sender's own reasons for giving a mail up, stored in English like a mail server's
    # error and said in the reader's language (a server's error is shown as it came).
    NOT_AN_ADDRESS = gettext_noop("not an e-mail address")
    SENDERS_STOPPED = gettext_noop("its sender stopped every time it sent it")

    address = models.CharField(max_length=254)
    subject = models.CharField(max_length=600)
    body = models.TextField()
    language = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    lease_until = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The senders' question: what is due (queued and its time come, or leased out
            # to a sender that is gone). Sent and given-up rows are not in it.
            models.Index(
                fields=["next_attempt_at"],
                name="outgoing_mail_due",
                condition=Q(status__in=["queued", "sending"]),
            )
        ]

    @property
    def reason_said(self) -> str:
        """Why the last try failed, in the reader's language when the words are Fairsheet's."""
        if self.last_error in (self.NOT_AN_ADDRESS, self.SENDERS_STOPPED):
            return gettext(self.last_error)
        return self.last_error


# -- interop: API tokens (issue 14; docs/api.md) ------------------------------------------------


class ApiToken(models.Model):
    """A personal token for scripts: `Authorization: Bearer TOKEN` acts as its user on the
    check, export and import endpoints. Only the SHA-256 of the token is stored (the token is
    shown once); `prefix` is its first characters, to tell tokens apart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


# -- at the table: play state, its record and the campaign's dice log (issue 15) --------------
# Play never writes to the build: a character's version, traits, approval and snapshot stay
# as the GM approved them (docs/play.md).


CONDITIONS_MAX = 8  # a character's short conditions at the table ("stunned")
CONDITION_LENGTH = 60


class PlayState(models.Model):
    """What changes during a game: marked wounds, points spent and regained at the table,
    field-of-power potential used, short conditions. Every write names the revision it
    was made against, so a player and the GM clicking at once cannot overwrite each other."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="play_state")
    # Per level of the harm track, the level of each blow marked there (rules.play).
    wounds = models.JSONField(default=list, blank=True)
    points_spent = models.PositiveIntegerField(default=0)
    points_regained = models.PositiveIntegerField(default=0)
    potential_used = models.JSONField(default=dict, blank=True)  # field of power -> points used
    conditions = models.JSONField(default=list, blank=True)  # "stunned", "-1 until healed"
    # A group NPC's other members (the second, the third...): each its own track, as
    # `wounds` is the first member's (rules.play.fit_group).
    group_wounds = models.JSONField(default=list, blank=True)
    # A designed game's trackers (rules.game_parts.Tracker), key -> value; a key not here is
    # at its start (rules.trackers.tracker_value), which follows the character's build.
    trackers = models.JSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)


class PlayEvent(models.Model):
    """One change of a play state: who, when, what, before and after. Written by the service
    that makes the change, in its transaction; nothing updates or deletes these rows."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="play_events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)  # e.g. wound_marked, points_spent, rested
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    revision = models.PositiveIntegerField()  # the play state's revision after the change
    note = models.CharField(max_length=300, blank=True)  # English, as the engine says it
    # The note as a phrase (characters.recorded), said in the reader's language.
    note_phrase = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]


# A line of the dice log the players may not read: the GM's secret (`gm_only`), or one naming
# an NPC the GM has not revealed.
HIDDEN_FROM_PLAYERS = Q(gm_only=True) | Q(
    character__is_npc=True, character__npc_shown=NpcShown.HIDDEN
)


class DiceRollQuerySet(models.QuerySet):
    def shown_to_players(self):
        """The lines every player of the campaign may read (selectors.play.visible_log), and
        what may leave the site for the table's channel (services.webhooks)."""
        return self.exclude(HIDDEN_FROM_PLAYERS)


class DiceRoll(models.Model):
    """A line of the dice log: a 4dF roll made on the server (or on a phone offline, sent
    later: rolled_offline_at), or the start of a session.
    A campaign's log is seen by everyone in it; a character outside any campaign keeps its
    own. The words are copied in, so the log reads the same after a rename."""

    class Kind(models.TextChoices):
        ROLL = "roll", pgettext_lazy("dice log line", "roll")
        SESSION = "session", pgettext_lazy("dice log line", "session")
        # The GM's: one roll for several NPCs against a lone PC (Fudge 1995 4.64), and a
        # stranger's reaction (Fudge 1995 4.9).
        GROUP = "group", pgettext_lazy("dice log line", "group roll")
        REACTION = "reaction", pgettext_lazy("dice log line", "reaction roll")

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="dice_log"
    )
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, null=True, blank=True, related_name="rolls"
    )
    roller = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    subject = models.CharField(max_length=200)  # who rolled: the character, or the GM's NPC
    trait = models.CharField(max_length=100, blank=True)
    level = models.SmallIntegerField(default=0)
    penalty = models.SmallIntegerField(default=0)  # the wound penalty applied
    penalty_reason = models.CharField(max_length=40, blank=True)  # "Hurt"
    modifier = models.SmallIntegerField(default=0)
    dice = models.JSONField(default=list, blank=True)  # four of -1, 0, +1; the last: damage die
    result = models.SmallIntegerField(default=0)
    against = models.SmallIntegerField(null=True, blank=True)
    chance = models.SmallIntegerField(null=True, blank=True)  # of reaching `against`, in 81ths
    weapon = models.CharField(max_length=100, blank=True)
    damage = models.SmallIntegerField(null=True, blank=True)
    damage_note = models.CharField(max_length=300, blank=True)  # "2 + 3 - 2 = 3: Hurt"
    # How the roll was made (Campaign.npc_roll_method for an NPC's), and whether only the GM
    # sees it (a secret reaction roll, Fudge 1995 4.9).
    method = models.CharField(max_length=10, blank=True)
    gm_only = models.BooleanField(default=False)
    # What a GM's roll found beyond one result (services.npc_rolls): a group roll's NPCs and
    # lone PC, a reaction's modifiers, the rule section. Empty for a player's roll.
    detail = models.JSONField(default=dict, blank=True)
    # Rolled on the player's phone without a connection, at this time by the phone's clock,
    # and sent when the network came back (docs/offline.md); None for a roll made here.
    rolled_offline_at = models.DateTimeField(null=True, blank=True)

    objects = DiceRollQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(campaign__isnull=False) | Q(character__isnull=False),
                name="dice_roll_has_a_log",
            ),
        ]


class OfflineWrite(models.Model):
    """A write the play page queued on a phone without a connection, once the server has
    answered it: applied or refused, and why. Its key, made on the phone, makes a batch
    sent twice (an answer lost on a flaky network) change nothing the second time: the
    stored answer is given again (services.offline)."""

    key = models.UUIDField(unique=True)
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    applied = models.BooleanField()
    said = models.CharField(max_length=500)  # the answer, in the sender's language


# -- print: rendered sheets kept for the next download, campaign packs rendered in the background

WORKER_NOTICES = timedelta(seconds=20)  # a running worker takes a queued pack within this


class SheetPDF(models.Model):
    """An approved character's printed sheet, kept so an unchanged sheet is not rendered
    again. One per (character, print options): a newer render replaces it."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    options = models.CharField(max_length=40)  # characters.pdf.PrintOptions.key
    # SHA-256 of everything printed (the approval's SHA-256 among it) and of the renderer.
    digest = models.CharField(max_length=64)
    content = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["character", "options"], name="one_sheet_pdf_per_options"
            )
        ]


class PackJob(models.Model):
    """A campaign pack rendered by a background worker (services.printing): its progress
    while it runs, then the PDF, a file in the "packs" storage (settings.STORAGES)."""

    class State(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("campaign pack", "Queued")
        RUNNING = "running", pgettext_lazy("campaign pack", "Rendering")
        DONE = "done", pgettext_lazy("campaign pack", "Ready")
        FAILED = "failed", pgettext_lazy("campaign pack", "Failed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="pack_jobs")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    options = models.CharField(max_length=40)  # characters.pdf.PrintOptions.key
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    steps_done = models.PositiveIntegerField(default=0)
    steps = models.PositiveIntegerField(default=0)  # sheets to lay out, and the writing
    characters = models.PositiveIntegerField(default=0)
    problem = models.CharField(max_length=500, blank=True)  # why it failed, for the GM
    # The finished PDF's name in storages["packs"]: tens of MB for a large party, too much
    # for a row a web worker would hold whole to send it.
    file_name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The worker rendering it says it is alive at every step (and between, on a timer): a
    # running job whose heartbeat is older than its lease lost its worker (services.printing).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)  # workers that took it

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(steps_done__lte=models.F("steps")), name="pack_progress_in_range"
            )
        ]

    @property
    def is_finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)

    @property
    def print_options(self) -> PrintOptions:
        return PrintOptions.from_key(self.options)

    @property
    def waited_long(self) -> bool:
        """Queued for longer than a worker takes to notice: likely no worker is running."""
        return self.state == self.State.QUEUED and timezone.now() - self.created_at > WORKER_NOTICES


# -- keeping characters: a portrait, a share link (issue 26) -----------------------------------


class Portrait(models.Model):
    """A character's picture: the square JPEG characters.images drew from an upload (never
    the uploaded bytes), served back, printed on the sheet and exported with the actor."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="portrait")
    content = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    updated_at = models.DateTimeField(auto_now=True)


def new_share_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits: a link nobody guesses


class ShareLink(models.Model):
    """A read-only link to a character's sheet (HTML and PDF) that needs no account. Revoked
    links stay, so the record says who shared what and when; a revoked or unknown token is a
    plain 404."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_opened_at = models.DateTimeField(null=True, blank=True)
    opened_count = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The sites whose pages may show the shared sheet in a frame (a virtual tabletop's token
    # link: Owlbear Rodeo), as https origins, "https://www.owlbear.rodeo"; none: no site may
    # (docs/exports.md, "Embedding the shared sheet").
    frame_origins = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["character"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_share_link_per_character",
            )
        ]


# -- hardening, second pass (issue 31) ----------------------------------------------------------


class ThrottleCount(models.Model):
    """One throttle's count for one key (characters/throttle.py): raised and read in one
    statement, so parallel requests cannot all read the same count and all pass."""

    key = models.CharField(max_length=100, primary_key=True)
    count = models.IntegerField()
    reopens = models.FloatField()  # when the window closes, in seconds since the epoch


class DecisionToken(models.Model):
    """The one-time token of one decision form (services.decisions): issued with the form to
    the user reading it, for one decision (its kind and the row it is about); the decision
    marks it used in its own transaction. A post whose token is missing, made up, used,
    another user's or another decision's does nothing."""

    class Kind(models.TextChoices):
        REVIEW = "review"  # approve, request changes, approve over the rules, reopen: a character
        AWARD = "award"  # experience to one character or the party: the page's character
        POINTS_GRANT = "points_grant"  # meta or Fudge points: a character
        SPEND_ACCEPT = "spend_accept"  # a pending spend: its ledger entry
        SPEND_REFUSE = "spend_refuse"  # the same
        SESSION_START = "session_start"  # a new session in the dice log: a campaign

    token = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    target = models.PositiveBigIntegerField()  # the pk of the row the decision is about
    issued_at = models.DateTimeField(default=timezone.now, db_index=True)  # pruned by age
    used_at = models.DateTimeField(null=True, blank=True)


class BuildStep(models.Model):
    """One step of the builder's undo history (services.history): the build's rows as they
    were before an edit, and after it once undone (for its redo). Not the audit trail, which
    records each edit, undo and redo as a change of its own; this is working state, pruned
    to the last HISTORY_STEPS and cleared of its redo steps by a new edit."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="steps")
    label = models.CharField(max_length=300)  # what it changed: "Strength Good → Great"
    # The same in parts (adapters.edit_parts), said in the reader's language when the buttons
    # are drawn (adapters.step_label); the label stays English, as the audit trail keeps it.
    edit = models.JSONField(default=dict, blank=True)
    target = models.CharField(max_length=200, blank=True)  # its event's, "template:ranger"
    before = models.JSONField(encoder=DjangoJSONEncoder)  # services.history.snapshot
    after = models.JSONField(encoder=DjangoJSONEncoder, null=True)  # set when undone
    undone = models.BooleanField(default=False)
    # The character's version after this step was last done or undone: the history holds
    # while the newest of these is the character's version (nothing else changed since).
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["id"]


# -- languages (issue 30; docs/translations.md) ---------------------------------------------------


class Profile(models.Model):
    """What a person chose for themselves that Django's User has no field for: the language of
    the pages. Blank: the browser's (Accept-Language). It is copied into the session at each
    log-in, so a signed-in person's choice wins on any browser (characters.middleware)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    # A code of settings.LANGUAGES, checked by the form: no `choices`, so a language added
    # to the settings needs no migration.
    language = models.CharField(max_length=10, blank=True)


class CampaignWebhook(models.Model):
    """Where a campaign's dice log is posted, one roll at a time (a Discord webhook, or any
    https address on a public host): set and revoked by the GM, shown masked. The address is
    a secret (whoever has it posts to the channel): it is never shown whole again, nor put in
    the history (services.webhooks)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="webhook")
    url = models.URLField(max_length=2000)
    # The site's own address when the GM set it: the links a post carries point there.
    site_url = models.URLField(max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)  # the last post that went
    failed_at = models.DateTimeField(null=True, blank=True)  # the last post that did not
    last_error = models.CharField(max_length=500, blank=True)

    @property
    def masked_url(self) -> str:
        """Enough to know which one it is: its host, and the last four characters."""
        scheme, _, rest = self.url.partition("://")
        host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
        return f"{scheme}://{host}/…{self.url[-4:]}"


class WebhookDelivery(models.Model):
    """One roll to post to one webhook: made in the roll's transaction, posted by the task
    queue's webhook worker (services.webhooks), tried again later when the other end fails,
    never posted twice (one row per roll and webhook; a post is made only by the worker that
    moved the row from queued to sending)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Not delivered yet")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Delivered")
        GIVEN_UP = "given_up", _("Given up")

    webhook = models.ForeignKey(
        CampaignWebhook, on_delete=models.CASCADE, related_name="deliveries"
    )
    roll = models.ForeignKey(DiceRoll, on_delete=models.CASCADE, related_name="+")
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["webhook", "roll"], name="one_post_per_roll")
        ]

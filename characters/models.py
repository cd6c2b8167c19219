"""Fairsheet's data: campaigns and their members, characters and their traits, and the
record kept around a build (events, approvals, the experience ledger, review comments).

Models carry data and constraints; writes go through characters.services, which keep the
audit trail in the same transaction. The rules themselves live in the pure `rules` package.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from rules.rulesets import BUILTIN, DIFFICULTIES

RULESET_CHOICES = [(slug, r.name) for slug, r in BUILTIN.items()]
DIFFICULTY_CHOICES = [(d, d.replace("_", " ").capitalize()) for d in DIFFICULTIES]
LEVEL_MIN, LEVEL_MAX = -4, 24  # Abysmal .. Legendary+20: bounds for stored levels


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    base_ruleset = models.CharField(max_length=40, choices=RULESET_CHOICES)
    # Overrides of the base ruleset's numbers, in the character file's house_rules form,
    # validated by rules.house_rules before they are saved.
    house_rules = models.JSONField(default=dict, blank=True)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    spends_need_approval = models.BooleanField(
        default=False, help_text="Experience spends wait for the GM before they apply."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Membership(models.Model):
    GM, PLAYER = "gm", "player"
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=[(GM, "GM"), (PLAYER, "Player")])
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]


class CatalogEntry(models.Model):
    """One line of a campaign's catalogue: an attribute, a skill with its difficulty, a gift
    or fault with its cost, a power kind, or a piece of equipment."""

    ATTRIBUTE, SKILL, GIFT, FAULT, POWER_KIND, EQUIPMENT = (
        "attribute",
        "skill",
        "gift",
        "fault",
        "power_kind",
        "equipment",
    )
    KINDS = [
        (k, k.replace("_", " ")) for k in (ATTRIBUTE, SKILL, GIFT, FAULT, POWER_KIND, EQUIPMENT)
    ]
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="catalog")
    kind = models.CharField(max_length=12, choices=KINDS)
    name = models.CharField(max_length=100)
    difficulty = models.CharField(max_length=10, choices=DIFFICULTY_CHOICES, blank=True)
    cost = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    damage = models.SmallIntegerField(null=True, blank=True)
    armour = models.SmallIntegerField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True)

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


class Character(models.Model):
    DRAFT, SUBMITTED, CHANGES_REQUESTED, APPROVED = (
        "draft",
        "submitted",
        "changes_requested",
        "approved",
    )
    STATES = [
        (DRAFT, "Draft"),
        (SUBMITTED, "Submitted"),
        (CHANGES_REQUESTED, "Changes requested"),
        (APPROVED, "Approved"),
    ]
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="characters"
    )
    # For a character outside any campaign; a campaign character uses the campaign's rules.
    ruleset = models.CharField(max_length=40, choices=RULESET_CHOICES)
    name = models.CharField(max_length=200)
    player = models.CharField(max_length=200, blank=True)
    concept = models.CharField(max_length=1000, blank=True)
    race = models.CharField(max_length=200, blank=True)
    scale_strength = models.SmallIntegerField(default=0)
    scale_mass = models.SmallIntegerField(default=0)
    meta_points = models.SmallIntegerField(null=True, blank=True)
    experience = models.IntegerField(default=0)  # unspent EP/XP/tokens (ledger sum)
    notes = models.TextField(blank=True, max_length=20_000)
    personality = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=20, choices=STATES, default=DRAFT)
    # Optimistic lock: every write names the version it was made against (two tabs).
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
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
        ]

    def __str__(self):
        return self.name

    @property
    def is_locked(self) -> bool:
        """Submitted and approved builds are not edited directly (approval workflow)."""
        return self.state in (self.SUBMITTED, self.APPROVED)


class Trait(models.Model):
    """An attribute, skill, gift, fault or power of a character: one table so the builder
    loads every row with one query and edits every kind the same way."""

    ATTRIBUTE, SKILL, GIFT, FAULT, POWER = "attribute", "skill", "gift", "fault", "power"
    KINDS = [(k, k) for k in (ATTRIBUTE, SKILL, GIFT, FAULT, POWER)]
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    kind = models.CharField(max_length=10, choices=KINDS)
    name = models.CharField(max_length=100)
    level = models.SmallIntegerField(null=True, blank=True)  # ladder offset, Fair = 0
    difficulty = models.CharField(max_length=10, choices=DIFFICULTY_CHOICES, blank=True)
    # gift cost / fault value / superpower cost, in gifts
    cost = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    power_kind = models.CharField(max_length=12, blank=True)
    position = models.PositiveIntegerField(default=0)

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


class Equipment(models.Model):
    WEAPON, ARMOUR, SHIELD, GEAR = "weapon", "armour", "shield", "gear"
    KINDS = [(WEAPON, "Weapon"), (ARMOUR, "Armour"), (SHIELD, "Shield"), (GEAR, "Gear")]
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="equipment")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=KINDS, default=GEAR)
    damage = models.SmallIntegerField(null=True, blank=True)
    armour = models.SmallIntegerField(null=True, blank=True)
    notes = models.CharField(max_length=1000, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]


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
    created_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)  # e.g. trait_added, state_changed, xp_awarded
    target = models.CharField(max_length=200, blank=True)  # e.g. "skill:Climbing"
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField()  # the character's version after the change
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]


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


class ExperienceEntry(models.Model):
    """The experience ledger: awards (+) and spends (-); the character's unspent experience
    is their sum, kept in Character.experience under a row lock."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="ledger")
    amount = models.IntegerField()
    reason = models.CharField(max_length=500)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    pending = models.BooleanField(default=False)  # a spend waiting for the GM
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

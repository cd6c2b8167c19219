"""`python manage.py load_demo`: a GM, two players and three campaigns to try Fairsheet with.

The Mudge campaign holds the three sample characters of Mudge 6.3, the MicroFudged DIP
campaign the two of the DIP rules, and the third runs the GM's own game, docs/examples'
Swords and sorcery (derived values, trackers, prerequisites: docs/ruleset-file.md), with
one character; every character comes in through the same import as a player's file.
Loading again adds only what is missing, so `make run` calls it every time.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

import rules
from characters.models import Campaign, Character
from characters.services.campaigns import campaign_create, campaign_join
from characters.services.character_files import character_import
from characters.services.rulesets import designed_ruleset_save
from rules.rulesets import BUILTIN

PASSWORD = "fairsheet-demo"
GM, PLAYERS = "gm", ("player1", "player2")
SAMPLES = Path(rules.__file__).parent / "samples"
EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
URL = "http://127.0.0.1:8000/"  # runserver's; `make run` passes the one it serves


@dataclass(frozen=True)
class DemoCampaign:
    name: str
    ruleset: str
    characters: dict[str, str]  # sample file stem -> the player who owns it
    house_rules: dict = field(default_factory=dict)

    @property
    def designed(self) -> bool:
        """Whether it plays the GM's own game: docs/examples' `<ruleset>.ruleset.json`, its
        characters beside it as `<stem>.character.json`."""
        return self.ruleset not in BUILTIN


CAMPAIGNS = (
    DemoCampaign(
        name="Mudge sample table",
        ruleset="mudge",
        characters={"brogo": "player1", "dolores": "player1", "james": "player2"},
    ),
    DemoCampaign(
        name="MicroFudged one-shot",
        ruleset="microfudged-dip",
        characters={"jim-bones": "player1", "lisa-benny": "player2"},
        # The DIP samples are built at the lowest power level, 6 tokens.
        house_rules={"tokens": 6},
    ),
    DemoCampaign(
        name="Swords and sorcery",
        ruleset="swords-and-sorcery",
        characters={"morwen": "player1"},
    ),
)


class Command(BaseCommand):
    help = "Load demo users (gm, player1, player2), two campaigns and the sample characters."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load even with DJANGO_DEBUG=0 (demo accounts have a published password).",
        )
        parser.add_argument("--url", default=URL, help="The address to tell people to open.")

    def handle(self, *args, force=False, url=URL, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                "DJANGO_DEBUG=0 looks like production, where accounts with a published "
                "password do not belong. Pass --force to load the demo anyway."
            )
        with transaction.atomic():
            users = {name: self.user(name) for name in (GM, *PLAYERS)}
            added = sum(self.campaign(demo, users) for demo in CAMPAIGNS)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded ({added} new characters). Open {url} and log in as "
                f"{GM}, {' or '.join(PLAYERS)} with the password {PASSWORD!r}."
            )
        )

    def user(self, username):
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(PASSWORD)
            user.save(update_fields=["password"])
        return user

    def campaign(self, demo: DemoCampaign, users) -> int:
        """The demo campaign, its players and its characters; returns how many characters
        were added."""
        campaign = Campaign.objects.filter(gm=users[GM], name=demo.name).first()
        if campaign is None:
            version = None
            if demo.designed:
                game = EXAMPLES / f"{demo.ruleset}.ruleset.json"
                file = json.loads(game.read_text(encoding="utf-8"))
                version = designed_ruleset_save(owner=users[GM], file=file, note="The demo's game")
            campaign = campaign_create(
                gm=users[GM],
                name=demo.name,
                base_ruleset=demo.ruleset,
                house_rules=demo.house_rules,
                ruleset_version=version,
            )
        for username in sorted(set(demo.characters.values())):
            if not campaign.has_member(users[username]):
                campaign_join(user=users[username], code=campaign.invite_code)
        added = 0
        for stem, username in demo.characters.items():
            folder, suffix = (EXAMPLES, ".character.json") if demo.designed else (SAMPLES, ".json")
            text = (folder / f"{stem}{suffix}").read_text(encoding="utf-8")
            owner = users[username]
            name = json.loads(text)["name"]
            if not Character.objects.filter(campaign=campaign, owner=owner, name=name).exists():
                character_import(owner=owner, text=text, campaign=campaign)
                added += 1
        return added

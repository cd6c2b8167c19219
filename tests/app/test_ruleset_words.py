"""Issues 24 and 29: each ruleset speaks its own terms everywhere. A campaign of each built-in
ruleset and of a GM's designed game (its own ladder with Heroic above Superb, its own names
for the lists, the points and the sections) is crawled as its GM: the house-rules form and
its preview, the audit trail, the review, the sheet and its PDF, the builder, the play and
advancement pages, the catalogue. Each page says the ruleset's own words and cites its own
text; none says another ruleset's (no Mudge in a Fudge Basics campaign, no "skills" where
MicroFudged says fields of expertise, no standard ladder word where the game has its own)."""

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.urls import reverse

from characters.models import Trait
from characters.services import campaigns as campaign_services
from characters.services import rulesets as ruleset_services
from characters.services.advancement import experience_award, experience_spend
from characters.services.characters import character_create
from characters.services.review import character_approve, character_submit
from characters.services.rows import equipment_add, trait_add, trait_update
from rules.ladder import LEGENDARY
from tests.app.test_plain_words import words_of
from tests.support.play_fixtures import user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
HEROIC = LEGENDARY  # +4: Heroic on the Extended ladder, Legendary on the standard one


def moor_file() -> dict:
    """A GM's game on fudge-rpg's Extended ladder (docs/examples/extended-ladder.ruleset.json)
    with lists, points, attributes and sections of its own."""
    data = json.loads((ROOT / "docs/examples/extended-ladder.ruleset.json").read_text())
    data.update(slug="moor", name="Moor", description="A game of the moor.", templates=[])
    data["terms"].update(
        lists={
            "attributes": ["Qualities", "quality"],
            "skills": ["Knacks", "knack"],
            "gifts": ["Boons", "boon"],
            "faults": ["Flaws", "flaw"],
            "powers": ["Wonders", "wonder"],
        },
        points="luck points",
        cost_unit="knack level",
        equipment_hint="Gear helps.",
        personality_hint="Say who they are.",
    )
    names = ["Brawn", "Wits", "Stamina"]
    data["attributes"]["names"] = names
    catalogue = data["catalogue"]
    catalogue.update(section="Moor, the lists", attributes=names, powers=[])
    catalogue["gifts"] = [{"name": "Lucky", "cost": 1}]
    catalogue["faults"] = [{"name": "Grim", "value": 1}]
    catalogue["equipment"] = [{"name": "Cudgel", "kind": "weapon", "damage": 1}]
    data["sections"] = {topic: f"Moor {n}" for n, topic in enumerate(data["sections"], 1)}
    data["advancement"]["section"] = "Moor, growing"
    return data


@dataclass(frozen=True)
class Words:
    """What a ruleset's pages say: `said` on the page named (or on some page, for "any"),
    `never` (patterns) on no page of its campaign."""

    said: dict[str, tuple[str, ...]]
    never: tuple[str, ...]


OTHER_TEXTS = {
    "fudge-basics": (r"Mudge", r"MicroFudged", r"\bDIP\b"),
    "mudge": (r"Fudge Basics", r"MicroFudged", r"\bDIP\b"),
    "microfudged": (r"Mudge", r"Fudge Basics"),
    "moor": (r"Mudge", r"Fudge Basics", r"MicroFudged", r"\bDIP\b"),
}
# MicroFudged calls attributes abilities and skills fields of expertise: in a sentence or as
# a label, which starts with a capital (issue 39).
LEVELS_WORDS = (r"\b[Ss]kills?\b", r"\b[Aa]ttributes?\b")

WORDS = {
    "fudge-basics": Words(
        {
            "house-rules": (
                "Fudge points at start",
                "Fudge Basics, Character Creation: more breaks a rule",
                "Scale - Strength and Mass",
            ),
            "audit": ("Level Fair → Legendary", "Skill: Riding", "Legendary → Legendary+1"),
            "sheet": ("Odds of 4dF (Fudge Basics, Odds of Rolling Exactly on 4dF)",),
            "play": ("Damage of a hit (Fudge Basics, Determining Wound Levels)",),
            "catalogue": ("Medium-weight one-handed weapon",),
        },
        OTHER_TEXTS["fudge-basics"],
    ),
    "mudge": Words(
        {
            "house-rules": ("Meta points at start", "Mudge 1.5: more breaks a rule"),
            "audit": ("Level Fair → Legendary", "Skill: Riding"),
            "sheet": ("Odds of 4dF (Mudge 3.24)",),
            "play": ("Damage of a hit (Mudge 4.55: the fourth die is the damage die)",),
        },
        OTHER_TEXTS["mudge"],
    ),
    "microfudged-dip": Words(
        {
            "house-rules": (
                "How many fields of expertise may stand at a level",
                "Number of fields of expertise",  # knobs.py: max_skills
                "Free ability levels",
                "MicroFudged DIP I: more breaks a rule",
                "Only if the Narrator allows",
            ),
            "audit": ("Ability: Mind", "Field of expertise: Riding"),
            "review": ("Field of expertise Riding", "Ability Mind"),
            "sheet": ("MicroFudged DIP V, Tests and Conflicts",),
            "play": ("MicroFudged DIP II",),
        },
        OTHER_TEXTS["microfudged"] + LEVELS_WORDS,
    ),
    "microfudged-streamlined": Words(
        {
            "house-rules": (
                "How many abilities may stand at a level",
                "MicroFudged DIP VIII.3: more breaks a rule",
            ),
            "audit": ("Ability: ", "Field of expertise: Riding"),
            "review": ("Field of expertise Riding",),
        },
        OTHER_TEXTS["microfudged"] + LEVELS_WORDS,
    ),
    "moor": Words(
        {
            "house-rules": (
                "How many knacks may stand at a level",
                "Free knack levels",
                "Luck points at start",
                "Moor",  # its own sections cited
            ),
            # The designed ladder's words: +4 is Heroic, +5 Legendary. A field's and a row's
            # label starts with a capital (issue 39).
            "audit": (
                "Level Fair → Heroic",
                "Level Heroic → Legendary",
                "Knack: Riding",
                "Quality: Brawn",
                "Ruleset Moor",
            ),
            "review": ("Knack Riding Legendary", "knack levels", "Quality Brawn"),
            "sheet": ("Knacks", "Legendary"),
            "advancement": ("Raise Riding from Legendary to Legendary+1",),
            "preview": ("knack levels",),
        },
        OTHER_TEXTS["moor"] + LEVELS_WORDS + (r"Legendary\+1 \(|[Ll]evel Legendary\+1",),
    ),
}


@pytest.fixture(params=list(WORDS))
def table(request):
    """A campaign of the ruleset, its GM and a player's approved character: an attribute
    raised to +4 and a skill added at +5 (both recorded), a weapon, experience awarded and
    spent on the attribute's next level."""
    gm, player = user("gwen"), user("pip")
    slug = request.param
    if slug == "moor":
        version = ruleset_services.designed_ruleset_save(owner=gm, file=moor_file())
        campaign = campaign_services.campaign_create(gm=gm, name="Tarn", ruleset_version=version)
    else:
        campaign = campaign_services.campaign_create(gm=gm, name="Tarn", base_ruleset=slug)
    campaign_services.campaign_join(user=player, code=campaign.invite_code)
    hero = character_create(owner=player, name="Hero", campaign=campaign)
    first = hero.traits.filter(kind=Trait.Kind.ATTRIBUTE).order_by("position").first()
    trait_update(trait=first, actor=player, expected_version=None, level=HEROIC)
    trait_add(
        character=hero,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.SKILL,
        name="Riding",
        level=HEROIC + 1,
        difficulty="very_hard" if slug == "mudge" else "",
    )
    equipment_add(
        character=hero, actor=player, expected_version=None, name="Sword", kind="weapon", damage=2
    )
    character_submit(character=hero, actor=player, expected_version=None)
    character_approve(character=hero, actor=gm, expected_version=None, override_reason="test")
    experience_award(character=hero, actor=gm, amount=100, reason="session")
    # Streamlined MicroFudged prices no raise past its top: its next attribute is raised.
    raised = hero.traits.filter(kind=Trait.Kind.ATTRIBUTE).order_by("position")[
        1 if slug == "microfudged-streamlined" else 0
    ]
    experience_spend(character=hero, actor=gm, expected_version=None, what="raise", trait=raised)
    return slug, gm, campaign, hero


def text_of(response) -> str:
    """What a reader meets on the page, without the site's footer (which names every
    ruleset Fairsheet builds for)."""
    if not response["Content-Type"].startswith("application/pdf"):
        html = response.content.decode()
        response.content = html.split('<footer class="container site-footer">')[0].encode()
    return words_of(response)


def test_every_page_speaks_its_rulesets_words(client, table):
    slug, gm, campaign, hero = table
    client.force_login(gm)
    c, h = campaign.pk, hero.pk
    pages = {
        "campaign": f"/campaigns/{c}/",
        "house-rules": f"/campaigns/{c}/house-rules/",
        "catalogue": f"/campaigns/{c}/catalogue/",
        "history": f"/campaigns/{c}/history/",
        "party": f"/campaigns/{c}/party/",
        "builder": f"/characters/{h}/",
        "sheet": f"/characters/{h}/sheet/",
        "pdf": f"/characters/{h}/sheet.pdf",
        "audit": f"/characters/{h}/audit/",
        "review": f"/characters/{h}/review/",
        "advancement": f"/characters/{h}/advancement/",
        "play": f"/characters/{h}/play/",
    }
    texts = {}
    for page, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        texts[page] = text_of(response)
    # The house-rules preview of a change to the budget: the balance in the ruleset's unit.
    budget = {"tokens": "5"} if slug.startswith("microfudged") else {"skill_levels": "20"}
    preview = client.post(
        reverse("campaign_house_rules", args=[c]),
        {**budget, "preview": "1"},
        headers={"HX-Request": "true"},
    )
    assert preview.status_code == 200
    texts["preview"] = text_of(preview)
    assert "priced differently" in texts["preview"]

    words = WORDS[slug]
    missing = [
        f"{page}: {said!r}"
        for page, phrases in words.said.items()
        for said in phrases
        if said not in texts[page]
    ]
    assert not missing, "\n".join(missing)
    found = {
        page: sorted({m.group(0) for pattern in words.never for m in re.finditer(pattern, text)})
        for page, text in texts.items()
    }
    found = {page: words for page, words in found.items() if words}
    assert not found, "\n".join(f"{page}: {words}" for page, words in found.items())


def test_a_designed_ladders_words_in_the_house_rules_form(client, gm):
    """A cap and the lowest level at creation set in the game's own words: the form offers
    Heroic, saves it as the game's word, and shows it back."""
    version = ruleset_services.designed_ruleset_save(owner=gm, file=moor_file())
    campaign = campaign_services.campaign_create(gm=gm, name="Tarn", ruleset_version=version)
    client.force_login(gm)
    url = reverse("campaign_house_rules", args=[campaign.pk])
    form = client.get(url).context["rules_form"]
    assert form["attribute_cap_legendary"].label == "Heroic"
    assert form["attribute_cap_legendary_plus_1"].label == "Legendary"
    assert (HEROIC, "Heroic") in form.fields["creation_max"].choices
    response = client.post(url, {"attribute_cap_legendary": "1", "creation_max": str(HEROIC - 1)})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.house_rules == {"attribute_caps": {"Heroic": 1}, "creation_max": "Superb"}
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "1 Heroic" in page
    again = client.get(url).context["rules_form"]
    assert again["attribute_cap_legendary"].value() == 1
    # A refusal lands on the field of the game's word.
    refused = client.post(url, {"attribute_cap_legendary": "-1"})
    assert refused.context["rules_form"].errors["attribute_cap_legendary"] == [
        "Cannot be negative (-1)."
    ]


@pytest.fixture
def gm(db):
    return user("gwen")


def test_undo_names_a_change_in_the_designed_ladders_words(gm):
    version = ruleset_services.designed_ruleset_save(owner=gm, file=moor_file())
    campaign = campaign_services.campaign_create(gm=gm, name="Tarn", ruleset_version=version)
    hero = character_create(owner=gm, name="Hero", campaign=campaign)
    brawn = hero.traits.get(name="Brawn")
    trait_update(trait=brawn, actor=gm, expected_version=None, level=HEROIC)
    assert hero.steps.get().label == "Brawn Fair → Heroic"


def test_the_campaign_history_names_a_catalogue_entry_in_its_rulesets_words(client, gm):
    """A catalogue entry's list on the campaign's history is the ruleset's, as its characters'
    audit trails and threads say it: MicroFudged's field of expertise, Moor's knack."""
    dip = campaign_services.campaign_create(gm=gm, name="Tarn", base_ruleset="microfudged-dip")
    version = ruleset_services.designed_ruleset_save(owner=gm, file=moor_file())
    moor = campaign_services.campaign_create(gm=gm, name="Fen", ruleset_version=version)
    client.force_login(gm)
    for campaign, said in ((dip, "Field of expertise: Sailing"), (moor, "Knack: Sailing")):
        campaign_services.catalog_entry_add(
            campaign=campaign, actor=gm, kind="skill", name="Sailing"
        )
        history = text_of(client.get(reverse("campaign_history", args=[campaign.pk])))
        assert said in history
        assert not re.search(r"\b[Ss]kills?\b", history), history

"""Who sees what: every URL of the site walked with every role. A player sees and edits only
their own characters; a campaign's GM sees every character in it; nobody else sees anything
(a 404, never a hint that the thing exists). Every URL must be classified below: a new view
without a rule here fails the suite."""

import base64

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, URLResolver, get_resolver, resolve, reverse

from characters.models import (
    Campaign,
    CatalogEntry,
    Equipment,
    Membership,
    PackJob,
    Trait,
)
from characters.selectors.advancement import RAISE
from characters.services.advancement import experience_award, experience_spend
from characters.services.api_tokens import api_token_create
from characters.services.characters import character_create
from characters.services.keeping import campaign_archive, character_archive
from characters.services.library import published_game_publish
from characters.services.npcs import npc_create
from characters.services.portraits import portrait_set
from characters.services.printing import pack_storage
from characters.services.review import character_approve, character_submit
from characters.services.rulesets import designed_ruleset_save
from characters.services.sharing import share_link_create
from characters.services.threads import comment_thread_start
from rules.ruleset_file import blank_ruleset_file

PUBLIC, USER, MEMBER, VIEWER, OWNER, GM = "public", "user", "member", "viewer", "owner", "gm"
# The API under /api/ (issue 41) takes a token, never a session: a 401 to every browser,
# signed in or not (tests/app/test_api_updates.py walks it with tokens); its library's root
# is no page at all.
TOKEN, NOBODY = "token", "nobody"
PLAYER = "player"  # a member who is not the GM
# url name -> (who may, method)
ACCESS = {
    "home": (PUBLIC, "get"),
    "ruleset": (PUBLIC, "get"),
    "healthz": (PUBLIC, "get"),
    "login": (PUBLIC, "get"),
    "signup": (PUBLIC, "get"),
    "language_set": (PUBLIC, "post"),  # the header's language form (issue 30)
    "logout": (USER, "post"),
    "password_change": (USER, "get"),
    "password_change_done": (USER, "get"),
    "dashboard": (USER, "get"),
    "notifications": (USER, "get"),
    "notification_email": (USER, "post"),
    "notification_open": (OWNER, "get"),  # one's own notification: read, then its page
    "campaign_join_by_code": (USER, "post"),
    "campaign_join": (USER, "get"),
    "campaign_new": (USER, "get"),
    "character_new": (USER, "get"),
    "character_import": (USER, "get"),
    "character_check": (USER, "post"),
    "review_queue": (USER, "get"),
    "approval_stamp_check": (USER, "get"),  # a stamp's code checked: the player's or GM's only
    "campaign_detail": (MEMBER, "get"),
    "campaign_house_rules": (GM, "get"),
    "campaign_regenerate_invite": (GM, "post"),
    "campaign_settings": (GM, "post"),
    "npc_new": (GM, "get"),
    "npc_show": (GM, "post"),
    "npc_copies": (GM, "post"),
    "npc_archive": (GM, "post"),
    "npc_restore": (GM, "post"),
    "campaign_history": (GM, "get"),
    "campaign_plans": (GM, "get"),  # a plan is its player's own: the GM reads the party's
    "membership_remove": (GM, "post"),
    "campaign_catalog": (MEMBER, "get"),  # players read it; only the GM edits (issue 12)
    "catalog_entry_add": (GM, "post"),
    "catalog_entry": (GM, "post"),
    "catalog_entry_remove": (GM, "post"),
    "campaign_pack": (GM, "get"),
    "campaign_pack_job": (GM, "get"),
    "campaign_pack_download": (GM, "get"),
    "campaign_review_queue": (GM, "get"),
    "character_review": (GM, "get"),
    "advancement_award": (GM, "post"),
    "spend_accept": (GM, "post"),
    "spend_refuse": (GM, "post"),
    "points_grant": (GM, "post"),
    "uncommitted_define": (GM, "post"),
    "character_audit": (VIEWER, "get"),
    "character_builder": (VIEWER, "get"),
    "character_export": (VIEWER, "get"),
    "character_sheet": (VIEWER, "get"),
    "character_sheet_pdf": (VIEWER, "get"),
    "character_advancement": (VIEWER, "get"),
    "details_update": (OWNER, "post"),
    "personality_update": (OWNER, "post"),
    "template_apply": (OWNER, "post"),
    "edit_undo": (OWNER, "post"),
    "edit_redo": (OWNER, "post"),
    "trait_add": (OWNER, "post"),
    "trait_update": (OWNER, "post"),
    "trait_delete": (OWNER, "post"),
    "equipment_add": (OWNER, "post"),
    "equipment_update": (OWNER, "post"),
    "equipment_delete": (OWNER, "post"),
    "character_submit": (OWNER, "post"),
    "character_withdraw": (OWNER, "post"),
    "advancement_spend": (VIEWER, "post"),
    "points_spend": (OWNER, "post"),
    "spend_take_back": (OWNER, "post"),
    "plan_step_add": (OWNER, "post"),
    "plan_step_move": (OWNER, "post"),
    "plan_step_remove": (OWNER, "post"),
    "spend_withdraw": (OWNER, "post"),
    "points_convert": (OWNER, "post"),
    # interop
    "character_export_foundry": (VIEWER, "get"),
    "account": (USER, "get"),
    "api_token_revoke": (OWNER, "post"),
    "character_file_schema": (PUBLIC, "get"),
    # at the table (issue 15): a character's play page and its changes are its player's
    # and its GM's; the party view is the GM's; the dice log is every member's.
    "character_play": (VIEWER, "get"),
    "play_live": (VIEWER, "get"),
    "play_wound": (VIEWER, "post"),
    "play_blow": (VIEWER, "post"),
    "play_points": (VIEWER, "post"),
    "play_potential": (VIEWER, "post"),
    "play_condition_add": (VIEWER, "post"),
    "play_condition_remove": (VIEWER, "post"),
    "play_rest": (VIEWER, "post"),
    "play_tracker": (VIEWER, "post"),
    "play_roll": (VIEWER, "post"),
    # offline (issue 44): the worker and the offline page hold nobody's data; a play page's
    # manifest and its queue of changes made offline are the play page's.
    "service_worker": (PUBLIC, "get"),
    "offline_page": (PUBLIC, "get"),
    "play_manifest": (VIEWER, "get"),
    "play_offline": (VIEWER, "post"),
    "campaign_party": (GM, "get"),
    "party_live": (GM, "get"),
    "party_new_session": (GM, "post"),
    "party_npc_roll": (GM, "post"),
    "campaign_npc_cards": (GM, "get"),
    "party_group_roll": (GM, "post"),
    "party_reaction_roll": (GM, "post"),
    "campaign_log": (MEMBER, "get"),
    "campaign_log_live": (MEMBER, "get"),
    # a GM's own game (issue 29): only its designer sees or uses it
    "ruleset_designs": (USER, "get"),
    "ruleset_design": (GM, "get"),
    "ruleset_design_section": (GM, "get"),
    "ruleset_export": (GM, "get"),
    "ruleset_campaign": (GM, "post"),
    "campaign_ruleset_move": (GM, "get"),
    "ruleset_file_schema": (PUBLIC, "get"),
    # the instance's library of games (issue 42): every signed-in GM browses, previews and
    # copies; only its publisher publishes a game or takes it out
    "ruleset_publish": (GM, "get"),
    "library": (USER, "get"),
    "library_game": (USER, "get"),
    "library_game_copy": (USER, "post"),
    "library_game_campaign": (USER, "post"),
    "library_game_unpublish": (GM, "post"),
    "library_builtin": (USER, "get"),
    "library_builtin_copy": (USER, "post"),
    "library_builtin_campaign": (USER, "post"),
    # keeping characters (issue 26): each on a character or campaign of its own (world)
    "character_archive": (OWNER, "post"),
    "character_restore": (OWNER, "post"),
    "character_duplicate": (OWNER, "post"),
    "character_delete": (OWNER, "get"),
    "campaign_archive": (GM, "post"),
    "campaign_restore": (GM, "post"),
    "campaign_leave": (PLAYER, "get"),
    "character_portrait": (VIEWER, "get"),
    "portrait_upload": (OWNER, "post"),
    "share_link_create": (OWNER, "post"),
    "share_link_revoke": (OWNER, "post"),
    "shared_sheet": (PUBLIC, "get"),
    "shared_sheet_pdf": (PUBLIC, "get"),
    # threads between the GM and the player (issue 26): the GM starts one; both write in it
    "thread_start": (GM, "post"),
    "thread_reply": (VIEWER, "post"),
    "thread_resolve": (VIEWER, "post"),
    "thread_reopen": (VIEWER, "post"),
    # a character as text for other places (issue 41): its statblock and its Fari character
    # for whoever sees its sheet; a share link's statblock for anyone holding the link; the
    # sites that may frame the shared sheet, its player's
    "character_statblock": (VIEWER, "get"),
    "character_statblock_download": (VIEWER, "get"),
    "character_export_fari": (VIEWER, "get"),
    "share_link_framing": (OWNER, "post"),
    "shared_statblock": (PUBLIC, "get"),
    "shared_statblock_download": (PUBLIC, "get"),
    # the API that updates (issue 41)
    "openapi-json": (PUBLIC, "get"),
    "api-root": (NOBODY, "get"),
    "characters_list": (TOKEN, "get"),
    "campaigns_list": (TOKEN, "get"),
    "character": (TOKEN, "get"),
    # a campaign's dice log webhook: its GM's
    "campaign_webhook": (GM, "post"),
    "campaign_webhook_revoke": (GM, "post"),
}
# Which roles each rule lets in; everyone else logged in gets a 404.
ALLOWED = {
    PUBLIC: {"anonymous", "outsider", "other_player", "owner", "gm"},
    USER: {"outsider", "other_player", "owner", "gm"},
    MEMBER: {"other_player", "owner", "gm"},
    VIEWER: {"owner", "gm"},
    OWNER: {"owner"},
    GM: {"gm"},
    PLAYER: {"other_player", "owner"},
    TOKEN: set(),
    NOBODY: set(),
}
PORTRAIT = base64.b64decode(  # an 80-pixel red square, PNG
    "iVBORw0KGgoAAAANSUhEUgAAAFAAAABQCAIAAAABc2X6AAAAdElEQVR4nO3PAREAEADAQPQPJpYW3L19gm3u8Zf1OuC2hnUN6xrWNaxrWNewrmFdw7qGdQ3rGtY1rGtY17CuYV3DuoZ1Desa1jWsa1jXsK5hXcO6hnUN6xrWNaxrWNewrmFdw7qGdQ3rGtY1rGtY17CuYd0BrtYBaIbRi/kAAAAASUVORK5CYII="
)
ROLES = ("anonymous", "outsider", "other_player", "owner", "gm")


def all_url_names():
    return {pattern.name for _, pattern in _patterns(get_resolver()) if pattern.name}


def test_every_url_has_an_access_rule():
    assert all_url_names() == set(ACCESS)


@pytest.fixture
def world(db):
    User = get_user_model()
    users = {role: User.objects.create_user(role, password="pw-12345-x") for role in ROLES[1:]}
    campaign = Campaign.objects.create(name="Walk", gm=users["gm"], base_ruleset="mudge")
    for role in ("owner", "other_player"):
        Membership.objects.create(campaign=campaign, user=users[role])
    other = Membership.objects.get(user=users["other_player"])
    character = character_create(owner=users["owner"], name="Walker", campaign=campaign)
    trait = character.traits.first()
    item = Equipment.objects.create(character=character, name="Staff", kind="weapon", damage=2)
    entry = CatalogEntry.objects.create(campaign=campaign, kind="skill", name="Climbing")
    pack = PackJob.objects.create(
        campaign=campaign,
        requested_by=users["gm"],
        options="a4-fillable",
        state=PackJob.State.DONE,
        file_name=pack_storage().save("pack.pdf", ContentFile(b"%PDF-1.7 a finished pack")),
    )
    # A spend waiting for the GM, made the way players make one (Mudge 5.2: an attribute
    # from Fair to Good costs 3 x 2 XP), on an approved character whose campaign wants the
    # GM to accept spends.
    character_submit(character=character, actor=users["owner"], expected_version=None)
    character_approve(
        character=character, actor=users["gm"], expected_version=None, override_reason="walk test"
    )
    campaign.spends_need_approval = True
    campaign.save()
    experience_award(character=character, actor=users["gm"], amount=12, reason="session")
    # Two of them: the walk accepts one and refuses the other.
    to_accept, to_refuse = (
        experience_spend(
            character=character,
            actor=users["owner"],
            expected_version=None,
            what=RAISE,
            trait=attribute,
        )
        for attribute in character.traits.all()[:2]
    )
    character.refresh_from_db()
    portrait_set(character=character, actor=users["owner"], data=PORTRAIT)
    spare, archived, shown = (
        character_create(owner=users["owner"], name=name, campaign=campaign)
        for name in ("Spare", "Archived", "Shown")
    )
    character_archive(character=archived, actor=users["owner"])
    link = share_link_create(character=shown, actor=users["owner"])
    spare_campaign, old_campaign = (
        Campaign.objects.create(name=name, gm=users["gm"], base_ruleset="mudge")
        for name in ("Spare", "Old")
    )
    campaign_archive(campaign=old_campaign, actor=users["gm"])
    token, _ = api_token_create(user=users["owner"], name="walk")
    thread = comment_thread_start(character=character, actor=users["gm"], body="Walk with me")
    design = designed_ruleset_save(owner=users["gm"], file=blank_ruleset_file()).ruleset
    published = published_game_publish(
        publisher=users["gm"],
        version=design.latest,
        description="A walk",
        languages=["en-gb"],
        licence="cc0",
    )
    npc, archived_npc = (
        npc_create(campaign=campaign, actor=users["gm"], name=name) for name in ("NPC", "Gone")
    )
    character_archive(character=archived_npc, actor=users["gm"])
    args = {
        "ruleset_design": [design.pk],
        "ruleset_design_section": [design.pk, "ladder"],
        "ruleset_export": [design.pk, 1],
        "ruleset_campaign": [design.pk],
        "ruleset_publish": [design.pk],
        **{
            name: [published.pk]
            for name in (
                "library_game",
                "library_game_copy",
                "library_game_campaign",
                "library_game_unpublish",
            )
        },
        **{
            name: ["mudge"]
            for name in ("library_builtin", "library_builtin_copy", "library_builtin_campaign")
        },
        "campaign_ruleset_move": [campaign.pk, 1],
        "api_token_revoke": [token.pk],
        "ruleset": ["mudge"],
        "campaign_join": [campaign.invite_code],
        "campaign_detail": [campaign.pk],
        "campaign_house_rules": [campaign.pk],
        "campaign_regenerate_invite": [campaign.pk],
        "campaign_settings": [campaign.pk],
        "npc_new": [campaign.pk],
        "npc_show": [npc.pk],
        "npc_copies": [npc.pk],
        "npc_archive": [npc.pk],
        "npc_restore": [archived_npc.pk],
        "campaign_webhook": [campaign.pk],
        "campaign_webhook_revoke": [campaign.pk],
        "campaign_history": [campaign.pk],
        "campaign_plans": [campaign.pk],
        "campaign_catalog": [campaign.pk],
        "membership_remove": [campaign.pk, other.pk],
        "catalog_entry_add": [campaign.pk, "skill"],
        "catalog_entry": [campaign.pk, entry.pk],
        "catalog_entry_remove": [campaign.pk, entry.pk],
        "campaign_pack": [campaign.pk],
        "campaign_pack_job": [campaign.pk, pack.pk],
        "campaign_pack_download": [campaign.pk, pack.pk],
        "campaign_review_queue": [campaign.pk],
        "trait_add": [character.pk, Trait.Kind.SKILL],
        "trait_update": [character.pk, trait.pk],
        "trait_delete": [character.pk, trait.pk],
        "equipment_update": [character.pk, item.pk],
        "equipment_delete": [character.pk, item.pk],
        "spend_accept": [character.pk, to_accept.pk],
        "spend_refuse": [character.pk, to_refuse.pk],
        "spend_withdraw": [character.pk, to_refuse.pk],
        "character_archive": [spare.pk],
        "character_restore": [archived.pk],
        "character_delete": [spare.pk],
        "campaign_archive": [spare_campaign.pk],
        "campaign_restore": [old_campaign.pk],
        "campaign_leave": [campaign.pk],
        "shared_sheet": [link.token],
        # The owner's notice of the GM's thread above.
        "notification_open": [users["owner"].notifications.latest("pk").pk],
        "shared_sheet_pdf": [link.token],
        "shared_statblock": [link.token],
        "shared_statblock_download": [link.token, "md"],
        "character_statblock_download": [character.pk, "txt"],
        **{
            name: [character.pk, thread.pk]
            for name in ("thread_reply", "thread_resolve", "thread_reopen")
        },
        **{
            name: [campaign.pk]
            for name in (
                "campaign_party",
                "party_live",
                "party_new_session",
                "party_npc_roll",
                "campaign_npc_cards",
                "party_group_roll",
                "party_reaction_roll",
                "campaign_log",
                "campaign_log_live",
            )
        },
    }
    return users, character, args


# The API's names are in its namespace.
API_NAMES = {"openapi-json", "api-root", "characters_list", "campaigns_list", "character"}


def url_for(name, character, args):
    if name in API_NAMES:
        name = f"api:{name}"
    if name in args:
        return reverse(name, args=args[name])
    try:
        return reverse(name)
    except NoReverseMatch:  # the rest take the character's pk
        return reverse(name, args=[character.pk])


@pytest.mark.parametrize("role", ROLES)
def test_every_url_with_every_role(client, world, role):
    users, character, args = world
    if role != "anonymous":
        client.force_login(users[role])
    wrong = []
    for name, (rule, method) in sorted(ACCESS.items()):
        url = url_for(name, character, args)
        response = getattr(client, method)(url)
        allowed = role in ALLOWED[rule]
        if rule in (TOKEN, NOBODY):
            ok = response.status_code == (401 if rule == TOKEN else 404)
        elif role == "anonymous" and not allowed:
            ok = response.status_code == 302 and "/accounts/login/" in response["Location"]
        elif allowed:
            ok = response.status_code < 500 and response.status_code not in (403, 404)
        else:
            ok = response.status_code == 404
        if not ok:
            wrong.append(f"{method.upper()} {url} ({name}) -> {response.status_code}")
        if name == "logout" and role != "anonymous":
            client.force_login(users[role])  # logging out was the point of that request
    assert not wrong, f"{role}: " + "; ".join(wrong)


def test_a_hidden_character_gets_the_sites_not_found_page(client, world):
    users, character, _ = world
    client.force_login(users["outsider"])
    response = client.get(reverse("character_builder", args=[character.pk]))
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Not found</h1>" in page
    assert "There is nothing here, or it is not yours to see." in page
    assert f'<a href="{reverse("dashboard")}">your table</a>' in page  # the site, not a dead end
    assert character.name not in page


def test_an_htmx_write_to_a_missing_row_says_so_in_the_alerts(client, world):
    """Not a whole page swapped into the row the player was editing."""
    users, character, _ = world
    client.force_login(users["owner"])
    url = reverse("trait_update", args=[character.pk, 999_999])
    builder = reverse("character_builder", args=[character.pk])
    response = client.post(
        url,
        {"version": 1},
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{builder}",
    )
    assert response.status_code == 404
    assert response["HX-Retarget"] == "#alerts"
    assert response["HX-Reswap"] == "innerHTML"
    body = response.content.decode()
    assert "Reload the page to see it as it is now." in body
    assert f'href="{builder}"' in body
    assert "<html" not in body


def test_the_server_error_page_stands_alone():
    """Django renders 500.html with no context at all, after something went wrong: it
    must need nothing, and still lead back to the site."""
    page = render_to_string("500.html")
    assert "<h1>Something went wrong</h1>" in page
    assert '<a href="/" role="button">Back to Fairsheet</a>' in page


EXPORTS = [
    "character_export",
    "character_export_foundry",
    "character_export_fari",
    "character_statblock_download",
    "character_sheet_pdf",
]


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
@pytest.mark.parametrize("name", [*EXPORTS, "campaign_pack_download", "character_sheet"])
def test_an_export_refuses_a_method_it_does_not_serve_with_a_page(client, world, name, method):
    users, character, args = world
    client.force_login(users["gm"])
    response = getattr(client, method)(url_for(name, character, args))
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    page = response.content.decode()
    assert "<h1>Not for this method</h1>" in page
    assert f"This address does not take a {method.upper()}: it takes GET, HEAD." in page


@pytest.mark.parametrize(
    "name",
    [
        "character_export",
        "character_export_foundry",
        "character_export_fari",
        "character_statblock_download",
    ],
)
def test_an_export_refuses_a_post_with_a_token_as_json(client, world, name):
    users, character, args = world
    _, raw = api_token_create(user=users["owner"], name="script")
    url = url_for(name, character, args)
    response = client.post(url, HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert (response.status_code, response["Allow"]) == (405, "GET, HEAD")
    assert response.json() == {"error": "This address does not take a POST: it takes GET, HEAD."}
    assert client.get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200


def test_no_405_anywhere_is_a_blank_page(client, world):
    """Every URL sent the method its rule does not use: a 405, when it is one, has words."""
    users, character, args = world
    client.force_login(users["gm"])
    blank = []
    for name, (_, method) in sorted(ACCESS.items()):
        other = "get" if method == "post" else "put"
        response = getattr(client, other)(url_for(name, character, args))
        if response.status_code == 405 and b"does not take" not in response.content:
            blank.append(name)
        if name == "logout":
            client.force_login(users["gm"])
    assert blank == []


def _patterns(resolver, prefix=""):
    """Every URL pattern under `resolver`, includes within includes too: (route, pattern)."""
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern, route)
        else:
            yield route, pattern


# The views that take a POST (url name -> the form it is the submission of, and why it is one).
# Every other view only reads: a POST, PUT, PATCH or DELETE to it is refused with a 405, and
# so is a PUT, PATCH or DELETE to these.
BUILD_EDIT = "an edit of the build, from the builder's forms (htmx)"
PLAY = "a change at the table, from the play page's buttons (htmx)"
ADVANCE = "experience: a request, an award or the GM's answer, from the advancement page"
KEEP = "archive, restore or copy: a button with its confirmation"
THREAD = "a message or a thread's state, from the thread's form"
PLAN = "the player's experience plan: a step added, moved or removed, from its panel"
NPC_ROLLER = "a GM's roll for NPCs, from the party view's NPC roller (htmx)"
CATALOGUE = "the GM's catalogue editor: a row added, saved or removed"
LIBRARY = "a library game's page: Start from this, or Start a campaign with it"
TAKES_POST = {
    # a page and its own form, on the same address
    "login": "the sign-in form (throttled)",
    "signup": "the sign-up form",
    "password_change": "the password form",
    "account": "the account page's form for a new API token",
    "notifications": "Mark all as read",
    "campaign_new": "the new campaign's form",
    "campaign_join": "the invite page's Join button",
    "campaign_leave": "the confirmation page's Leave button",
    "campaign_house_rules": "the house rules form: preview, then save",
    "campaign_pack": "the pack page's form that queues a pack",
    "campaign_ruleset_move": "the move's preview page and its Move button",
    "membership_remove": "the confirmation page's Remove button",
    "character_new": "the new character's form",
    "character_import": "the import form, and scripts posting a file with a token",
    "character_delete": "the confirmation page's Delete button",
    "character_review": "the GM's decision form beside the build",
    "ruleset_designs": "the forms that start a game or import its file",
    "ruleset_design_section": "a section's form: rows added or removed, preview, save",
    "catalog_entry": CATALOGUE,
    # an action: a button or a form on another page posts here
    "logout": "the header's Log out button",
    "language_set": "the header's language form",
    "notification_email": "the account page's e-mail form",
    "campaign_join_by_code": "the table's invite-code form (throttled)",
    "character_check": "scripts posting a character file to be checked",
    "campaign_settings": "the campaign page's settings form",
    "campaign_webhook": "the campaign page's webhook form",
    "campaign_webhook_revoke": "the campaign page's Revoke the webhook button",
    "campaign_regenerate_invite": "the campaign page's New invite code button",
    "catalog_entry_add": CATALOGUE,
    "catalog_entry_remove": CATALOGUE,
    "ruleset_campaign": "the game's form that starts a campaign with it",
    "ruleset_publish": "the form that puts a version of the game in the library",
    "library_game_copy": LIBRARY,
    "library_game_campaign": LIBRARY,
    "library_game_unpublish": "the game's Take it out of the library button",
    "library_builtin_copy": LIBRARY,
    "library_builtin_campaign": LIBRARY,
    "details_update": BUILD_EDIT,
    "personality_update": BUILD_EDIT,
    "template_apply": BUILD_EDIT,
    "edit_undo": BUILD_EDIT,
    "edit_redo": BUILD_EDIT,
    "trait_add": BUILD_EDIT,
    "trait_update": BUILD_EDIT,
    "trait_delete": BUILD_EDIT,
    "equipment_add": BUILD_EDIT,
    "equipment_update": BUILD_EDIT,
    "equipment_delete": BUILD_EDIT,
    "uncommitted_define": "the GM's form for an uncommitted trait (Mudge 1.7)",
    "portrait_upload": "the builder's portrait form (a multipart upload)",
    "share_link_create": "the builder's Share button",
    "share_link_revoke": "the builder's Stop sharing button",
    "share_link_framing": "the builder's share form: the sites that may frame the sheet",
    "character_submit": "the builder's Submit button",
    "character_withdraw": "the builder's Withdraw button",
    "advancement_spend": ADVANCE,
    "advancement_award": ADVANCE,
    "spend_accept": ADVANCE,
    "spend_refuse": ADVANCE,
    "spend_take_back": ADVANCE,
    "plan_step_add": PLAN,
    "plan_step_move": PLAN,
    "plan_step_remove": PLAN,
    "spend_withdraw": ADVANCE,
    "points_spend": ADVANCE,
    "points_grant": ADVANCE,
    "points_convert": ADVANCE,
    "api_token_revoke": "the account page's Revoke button",
    "play_wound": PLAY,
    "play_blow": PLAY,
    "play_points": PLAY,
    "play_potential": PLAY,
    "play_condition_add": PLAY,
    "play_condition_remove": PLAY,
    "play_rest": PLAY,
    "play_tracker": PLAY,
    "play_roll": PLAY,
    "play_offline": "the play page's changes made offline, sent back (static/js/offline.js)",
    "party_new_session": "the party view's New session button",
    "party_npc_roll": NPC_ROLLER,
    "party_group_roll": NPC_ROLLER,
    "party_reaction_roll": NPC_ROLLER,
    "npc_new": "the new NPC's form on its own page",
    "npc_show": "the campaign page's NPC list",
    "npc_copies": "the campaign page's NPC list",
    "npc_archive": "the campaign page's NPC list",
    "npc_restore": "the campaign page's NPC list",
    "character_archive": KEEP,
    "character_restore": KEEP,
    "character_duplicate": KEEP,
    "campaign_archive": KEEP,
    "campaign_restore": KEEP,
    "thread_start": THREAD,
    "thread_reply": THREAD,
    "thread_resolve": THREAD,
    "thread_reopen": THREAD,
}
# Who asks: someone who may see the page, so a 405 is the method's answer and not a 404's.
SIGNED_IN_AS = {PUBLIC: "owner", USER: "owner", MEMBER: "owner", VIEWER: "owner", OWNER: "owner"}
SIGNED_IN_AS |= {PLAYER: "owner", GM: "gm", TOKEN: "owner", NOBODY: "owner"}
# The API's addresses that take a PUT (with a token): every other method is a 405.
TAKES_PUT = {"character": "scripts updating a character in place (If-Match)"}


def test_a_view_refuses_every_method_it_does_not_take_with_a_405(client, world):
    users, character, args = world
    routes = dict((pattern.name, route) for route, pattern in _patterns(get_resolver()))
    assert set(routes) == set(ACCESS)
    assert set(TAKES_POST) <= set(ACCESS)
    wrong = []
    for name, (rule, _) in sorted(ACCESS.items()):
        url = url_for(name, character, args)
        assert resolve(url).url_name == name, (name, routes[name])
        client.force_login(users[SIGNED_IN_AS[rule]])
        for method in ("post", "put", "patch", "delete"):
            if (method == "post" and name in TAKES_POST) or (method == "put" and name in TAKES_PUT):
                continue
            response = getattr(client, method)(url)
            if response.status_code != 405:
                wrong.append(f"{method.upper()} {url} ({name}) -> {response.status_code}")
    assert wrong == []

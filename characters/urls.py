from django.urls import path

from characters.views import (
    builder,
    campaigns,
    dashboard,
    files,
    home,
    library,
    notifications,
    rulesets,
)

# One block per area; each area's views live in their own module under characters/views/.
urlpatterns = [
    path("", home.home, name="home"),
    path("rulesets/<slug:slug>/", home.ruleset_detail, name="ruleset"),
    path("healthz", home.healthz, name="healthz"),
]

# -- campaigns, builder, import/export, check endpoint (characters/views/builder.py ...) --
# campaigns and accounts
urlpatterns += [
    path("table/", dashboard.dashboard, name="dashboard"),
    path("notifications/", notifications.notifications, name="notifications"),
    path("notifications/<int:pk>/", notifications.notification_open, name="notification_open"),
    path("accounts/email/", notifications.notification_email, name="notification_email"),
    path("join/", dashboard.join_by_code, name="campaign_join_by_code"),
    path("join/<str:code>/", campaigns.campaign_join, name="campaign_join"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign_new"),
    path("games/", rulesets.design_list, name="ruleset_designs"),
    path("games/<int:pk>/", rulesets.design_edit, name="ruleset_design"),
    path(
        "games/<int:pk>/v<int:number>/ruleset.json",
        rulesets.design_export,
        name="ruleset_export",
    ),
    path("games/<int:pk>/campaign/", rulesets.design_campaign, name="ruleset_campaign"),
    path("games/<int:pk>/publish/", library.design_publish, name="ruleset_publish"),
    # the instance's library of games (characters/views/library.py)
    path("games/library/", library.library, name="library"),
    path("games/library/<int:pk>/", library.library_entry, name="library_game"),
    path("games/library/<int:pk>/copy/", library.library_copy, name="library_game_copy"),
    path(
        "games/library/<int:pk>/campaign/",
        library.library_campaign,
        name="library_game_campaign",
    ),
    path(
        "games/library/<int:pk>/unpublish/",
        library.library_game_unpublish,
        name="library_game_unpublish",
    ),
    path("games/library/fairsheet/<slug:slug>/", library.library_entry, name="library_builtin"),
    path(
        "games/library/fairsheet/<slug:slug>/copy/",
        library.library_copy,
        name="library_builtin_copy",
    ),
    path(
        "games/library/fairsheet/<slug:slug>/campaign/",
        library.library_campaign,
        name="library_builtin_campaign",
    ),
    path(
        "games/<int:pk>/<slug:section>/",
        rulesets.design_section,
        name="ruleset_design_section",
    ),
    path(
        "campaigns/<int:pk>/ruleset/v<int:number>/",
        rulesets.campaign_ruleset_move,
        name="campaign_ruleset_move",
    ),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/plans/", campaigns.campaign_plans, name="campaign_plans"),
    path(
        "campaigns/<int:pk>/house-rules/",
        campaigns.house_rules_edit,
        name="campaign_house_rules",
    ),
    path("campaigns/<int:pk>/settings/", campaigns.campaign_settings, name="campaign_settings"),
    path("campaigns/<int:pk>/webhook/", campaigns.campaign_webhook, name="campaign_webhook"),
    path(
        "campaigns/<int:pk>/webhook/revoke/",
        campaigns.campaign_webhook_revoke,
        name="campaign_webhook_revoke",
    ),
    path("campaigns/<int:pk>/history/", campaigns.campaign_history_page, name="campaign_history"),
    path(
        "campaigns/<int:pk>/invite/",
        campaigns.invite_regenerate,
        name="campaign_regenerate_invite",
    ),
    path(
        "campaigns/<int:pk>/members/<int:membership_pk>/remove/",
        campaigns.member_remove,
        name="membership_remove",
    ),
    path("campaigns/<int:pk>/catalogue/", campaigns.catalog, name="campaign_catalog"),
    path(
        "campaigns/<int:pk>/catalogue/add/<slug:kind>/",
        campaigns.catalog_entry_add,
        name="catalog_entry_add",
    ),
    path(
        "campaigns/<int:pk>/catalogue/<int:entry_pk>/",
        campaigns.catalog_entry,
        name="catalog_entry",
    ),
    path(
        "campaigns/<int:pk>/catalogue/<int:entry_pk>/remove/",
        campaigns.catalog_entry_remove,
        name="catalog_entry_remove",
    ),
]

# builder and character files
urlpatterns += [
    path("characters/new/", builder.character_new, name="character_new"),
    path("characters/import/", files.character_import_view, name="character_import"),
    path("characters/check/", files.character_check, name="character_check"),
    path("characters/<int:pk>/", builder.character_builder, name="character_builder"),
    path("characters/<int:pk>/export.json", files.character_export, name="character_export"),
    path("characters/<int:pk>/details/", builder.details_update, name="details_update"),
    path("characters/<int:pk>/personality/", builder.personality_update, name="personality_update"),
    path("characters/<int:pk>/template/", builder.template_apply, name="template_apply"),
    path("characters/<int:pk>/undo/", builder.edit_undo, name="edit_undo"),
    path("characters/<int:pk>/redo/", builder.edit_redo, name="edit_redo"),
    path("characters/<int:pk>/traits/add/<str:kind>/", builder.trait_add, name="trait_add"),
    path("characters/<int:pk>/traits/<int:trait_pk>/", builder.trait_update, name="trait_update"),
    path(
        "characters/<int:pk>/traits/<int:trait_pk>/delete/",
        builder.trait_delete,
        name="trait_delete",
    ),
    path("characters/<int:pk>/equipment/add/", builder.equipment_add, name="equipment_add"),
    path(
        "characters/<int:pk>/equipment/<int:item_pk>/",
        builder.equipment_update,
        name="equipment_update",
    ),
    path(
        "characters/<int:pk>/equipment/<int:item_pk>/delete/",
        builder.equipment_delete,
        name="equipment_delete",
    ),
]

# -- rules fidelity: Mudge 1.7's uncommitted traits (characters/views/uncommitted.py) --
from characters.views import uncommitted  # noqa: E402

urlpatterns += [
    path(
        "characters/<int:pk>/uncommitted/",
        uncommitted.uncommitted_define,
        name="uncommitted_define",
    ),
]

# -- sheets and PDFs (characters/views/sheets.py) --
from characters.views import sheets  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/sheet/", sheets.character_sheet, name="character_sheet"),
    path("characters/<int:pk>/sheet.pdf", sheets.character_sheet_pdf, name="character_sheet_pdf"),
]

# -- print: the campaign pack, rendered in the background (characters/views/sheets.py) --
urlpatterns += [
    path("campaigns/<int:pk>/pack/", sheets.campaign_pack, name="campaign_pack"),
    path(
        "campaigns/<int:pk>/pack/<int:job_pk>/", sheets.campaign_pack_job, name="campaign_pack_job"
    ),
    path(
        "campaigns/<int:pk>/pack/<int:job_pk>/pack.pdf",
        sheets.campaign_pack_download,
        name="campaign_pack_download",
    ),
]

# -- approval, audit trail, advancement (characters/views/review.py ...) --
# Imported here, not at the top, so this block is the only part of the file this area edits.
from characters.views import advancement, audit, review  # noqa: E402

urlpatterns += [
    path("review/", review.review_queue_page, name="review_queue"),
    path(
        "campaigns/<int:campaign_pk>/review/",
        review.review_queue_page,
        name="campaign_review_queue",
    ),
    path("characters/<int:pk>/submit/", review.character_submit, name="character_submit"),
    path("characters/<int:pk>/withdraw/", review.character_withdraw, name="character_withdraw"),
    path("characters/<int:pk>/review/", review.character_review, name="character_review"),
    path("characters/<int:pk>/audit/", audit.character_audit, name="character_audit"),
    path("stamps/check/", audit.approval_stamp_check, name="approval_stamp_check"),
    path(
        "characters/<int:pk>/advancement/",
        advancement.character_advancement,
        name="character_advancement",
    ),
    path(
        "characters/<int:pk>/advancement/spend/",
        advancement.advancement_spend,
        name="advancement_spend",
    ),
    path(
        "characters/<int:pk>/advancement/award/",
        advancement.advancement_award,
        name="advancement_award",
    ),
    path(
        "characters/<int:pk>/advancement/spends/<int:entry_pk>/accept/",
        advancement.spend_decide,
        {"decision": "accept"},
        name="spend_accept",
    ),
    path(
        "characters/<int:pk>/advancement/spends/<int:entry_pk>/refuse/",
        advancement.spend_decide,
        {"decision": "refuse"},
        name="spend_refuse",
    ),
    path(
        "characters/<int:pk>/advancement/take-back/",
        advancement.spend_take_back,
        name="spend_take_back",
    ),
    path(
        "characters/<int:pk>/advancement/spends/<int:entry_pk>/withdraw/",
        advancement.spend_withdraw,
        name="spend_withdraw",
    ),
    path("characters/<int:pk>/plan/add/", advancement.plan_step_add, name="plan_step_add"),
    path(
        "characters/<int:pk>/plan/move/",
        advancement.plan_step_change,
        {"action": "move"},
        name="plan_step_move",
    ),
    path(
        "characters/<int:pk>/plan/remove/",
        advancement.plan_step_change,
        {"action": "remove"},
        name="plan_step_remove",
    ),
    path("characters/<int:pk>/points/spend/", advancement.points_spend, name="points_spend"),
    path("characters/<int:pk>/points/grant/", advancement.points_grant, name="points_grant"),
    path("characters/<int:pk>/points/convert/", advancement.points_convert, name="points_convert"),
]

# -- interop: Foundry export, the account page's API tokens, the file's JSON Schema --
from characters.views import api_tokens, schema  # noqa: E402

urlpatterns += [
    path(
        "characters/<int:pk>/foundry.json",
        files.character_export_foundry,
        name="character_export_foundry",
    ),
    path("accounts/", api_tokens.account, name="account"),
    path(
        "accounts/tokens/<int:pk>/revoke/",
        api_tokens.api_token_revoke_view,
        name="api_token_revoke",
    ),
    path("schema/character-file.json", schema.character_file_schema, name="character_file_schema"),
    path("schema/ruleset-file.json", schema.ruleset_file_schema, name="ruleset_file_schema"),
]

# -- at the table: play page, party view, dice log (characters/views/play.py, table.py) --
from characters.views import play, table  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/play/", play.character_play, name="character_play"),
    path("characters/<int:pk>/play/live/", play.play_live, name="play_live"),
    path("characters/<int:pk>/play/wounds/", play.play_wound, name="play_wound"),
    path("characters/<int:pk>/play/blow/", play.play_blow, name="play_blow"),
    path("characters/<int:pk>/play/points/", play.play_points, name="play_points"),
    path("characters/<int:pk>/play/potential/", play.play_potential, name="play_potential"),
    path(
        "characters/<int:pk>/play/conditions/",
        play.play_condition,
        {"remove": False},
        name="play_condition_add",
    ),
    path(
        "characters/<int:pk>/play/conditions/remove/",
        play.play_condition,
        {"remove": True},
        name="play_condition_remove",
    ),
    path("characters/<int:pk>/play/rest/", play.play_rest, name="play_rest"),
    path("characters/<int:pk>/play/tracker/", play.play_tracker, name="play_tracker"),
    path("characters/<int:pk>/play/roll/", play.play_roll, name="play_roll"),
    path("campaigns/<int:pk>/party/", table.campaign_party, name="campaign_party"),
    path("campaigns/<int:pk>/party/live/", table.party_live, name="party_live"),
    path(
        "campaigns/<int:pk>/party/new-session/",
        table.party_new_session,
        name="party_new_session",
    ),
    path("campaigns/<int:pk>/npc-cards.pdf", sheets.campaign_npc_cards, name="campaign_npc_cards"),
    path("campaigns/<int:pk>/party/npc-roll/", table.party_npc_roll, name="party_npc_roll"),
    path("campaigns/<int:pk>/party/group-roll/", table.party_group_roll, name="party_group_roll"),
    path(
        "campaigns/<int:pk>/party/reaction-roll/",
        table.party_reaction_roll,
        name="party_reaction_roll",
    ),
    path("campaigns/<int:pk>/log/", table.campaign_log_page, name="campaign_log"),
    path("campaigns/<int:pk>/log/live/", table.log_live, name="campaign_log_live"),
]

# -- the play page without a connection (characters/views/offline.py, docs/offline.md) --
from characters.views import offline  # noqa: E402

urlpatterns += [
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline_page, name="offline_page"),
    path(
        "characters/<int:pk>/play/manifest.webmanifest",
        offline.play_manifest,
        name="play_manifest",
    ),
    path("characters/<int:pk>/play/offline/", offline.play_offline, name="play_offline"),
]

# -- keeping characters and campaigns (characters/views/keeping.py) --
from characters.views import keeping  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/archive/", keeping.character_archive, name="character_archive"),
    path("characters/<int:pk>/restore/", keeping.character_restore, name="character_restore"),
    path(
        "characters/<int:pk>/duplicate/",
        keeping.character_duplicate,
        name="character_duplicate",
    ),
    path("characters/<int:pk>/delete/", keeping.character_delete, name="character_delete"),
    path("campaigns/<int:pk>/archive/", keeping.campaign_archive, name="campaign_archive"),
    path("campaigns/<int:pk>/restore/", keeping.campaign_restore, name="campaign_restore"),
    path("campaigns/<int:pk>/leave/", keeping.campaign_leave, name="campaign_leave"),
]

# -- portraits and share links (characters/views/portraits.py, sharing.py) --
from characters.views import portraits, sharing  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/portrait/", portraits.character_portrait, name="character_portrait"),
    path(
        "characters/<int:pk>/portrait/upload/",
        portraits.portrait_upload,
        name="portrait_upload",
    ),
    path("characters/<int:pk>/share/", sharing.share_link_create, name="share_link_create"),
    path(
        "characters/<int:pk>/share/revoke/",
        sharing.share_link_revoke,
        name="share_link_revoke",
    ),
    path("shared/<str:token>/", sharing.shared_sheet, name="shared_sheet"),
    path("shared/<str:token>/sheet.pdf", sharing.shared_sheet_pdf, name="shared_sheet_pdf"),
]

# -- threads between the GM and the player (characters/views/threads.py) --
from characters.views import threads  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/threads/", threads.thread_start, name="thread_start"),
    path(
        "characters/<int:pk>/threads/<int:thread_pk>/reply/",
        threads.thread_reply,
        name="thread_reply",
    ),
    path(
        "characters/<int:pk>/threads/<int:thread_pk>/resolve/",
        threads.thread_resolve,
        {"resolved": True},
        name="thread_resolve",
    ),
    path(
        "characters/<int:pk>/threads/<int:thread_pk>/reopen/",
        threads.thread_resolve,
        {"resolved": False},
        name="thread_reopen",
    ),
]

# -- a character as text for other places: statblock, Fari; a share link's frames --
# (characters/views/exports.py, sharing.py; docs/exports.md)
from characters.views import exports  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/statblock/", exports.character_statblock, name="character_statblock"),
    path(
        "characters/<int:pk>/statblock.<slug:extension>",
        exports.character_statblock_download,
        name="character_statblock_download",
    ),
    path(
        "characters/<int:pk>/fari.json", exports.character_export_fari, name="character_export_fari"
    ),
    path(
        "characters/<int:pk>/share/framing/",
        sharing.share_link_framing,
        name="share_link_framing",
    ),
    path("shared/<str:token>/statblock/", sharing.shared_statblock, name="shared_statblock"),
    path(
        "shared/<str:token>/statblock.<slug:extension>",
        sharing.shared_statblock_download,
        name="shared_statblock_download",
    ),
]

# -- the API under /api/, its OpenAPI description at /api/openapi.json (characters/api.py) --
from characters.api import api_urls  # noqa: E402

urlpatterns += [path("api/", api_urls())]

# -- the GM's NPCs (characters/views/npcs.py) --
from characters.views import npcs  # noqa: E402

urlpatterns += [
    path("campaigns/<int:pk>/npcs/new/", npcs.npc_new, name="npc_new"),
    path("characters/<int:pk>/npc/shown/", npcs.npc_show, name="npc_show"),
    path("characters/<int:pk>/npc/copies/", npcs.npc_copies, name="npc_copies"),
    path("characters/<int:pk>/npc/archive/", npcs.npc_archive, name="npc_archive"),
    path("characters/<int:pk>/npc/restore/", npcs.npc_restore, name="npc_restore"),
]

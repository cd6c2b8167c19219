from django.urls import path

from characters.views import builder, campaigns, dashboard, files, home

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
    path("join/", dashboard.join_by_code, name="campaign_join_by_code"),
    path("join/<str:code>/", campaigns.campaign_join, name="campaign_join"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign_new"),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign_detail"),
    path(
        "campaigns/<int:pk>/house-rules/",
        campaigns.house_rules_edit,
        name="campaign_house_rules",
    ),
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
    path("characters/<int:pk>/traits/add/<str:kind>/", builder.trait_create, name="trait_create"),
    path("characters/<int:pk>/traits/<int:trait_pk>/", builder.trait_update, name="trait_update"),
    path(
        "characters/<int:pk>/traits/<int:trait_pk>/delete/",
        builder.trait_delete,
        name="trait_delete",
    ),
    path("characters/<int:pk>/equipment/add/", builder.equipment_create, name="equipment_create"),
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

# -- sheets and PDFs (characters/views/sheets.py) --

# -- approval, audit trail, advancement (characters/views/review.py ...) --

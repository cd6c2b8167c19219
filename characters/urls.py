from django.urls import path

from characters.views import home

# One block per area; each area's views live in their own module under characters/views/.
urlpatterns = [
    path("", home.home, name="home"),
    path("rulesets/<slug:slug>/", home.ruleset_detail, name="ruleset"),
]

# -- campaigns, builder, import/export, check endpoint (characters/views/builder.py ...) --

# -- sheets and PDFs (characters/views/sheets.py) --

# -- approval, audit trail, advancement (characters/views/review.py ...) --

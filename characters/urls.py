from django.urls import path

from characters.views import home

urlpatterns = [
    path("", home.home, name="home"),
    path("rulesets/<slug:slug>/", home.ruleset_detail, name="ruleset"),
]

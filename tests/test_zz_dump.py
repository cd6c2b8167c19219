import pytest
from django.urls import reverse
from characters.models import Trait
from characters.services.characters import character_create
from tests.builder_fixtures import *  # noqa

@pytest.mark.parametrize("lang", ["fr", "es"])
def test_dump(player_client, character, player, lang):
    Trait.objects.create(character=character, kind=Trait.Kind.FAULT, name="Shy", cost="0.5", position=0)
    Trait.objects.create(character=character, kind=Trait.Kind.GIFT, name="Magery", position=1)
    Trait.objects.create(character=character, kind=Trait.Kind.POWER, name="Fireball", position=0, level=0)
    h = {"HTTP_ACCEPT_LANGUAGE": lang}
    url = reverse("character_builder", args=[character.pk])
    open(f"/tmp/i18nb/mudge_{lang}.html","w").write(player_client.get(url, **h).text)
    for k in ("skill","gift","fault","power","equipment"):
        r = player_client.get(url + f"?picker={k}", HTTP_HX_REQUEST="true", **h)
        open(f"/tmp/i18nb/picker_{k}_{lang}.html","w").write(f"{r.status_code}\n"+r.text)
    r = player_client.get(url + "?template=beginning-fighter", **h)
    open(f"/tmp/i18nb/template_{lang}.html","w").write(f"{r.status_code}\n"+r.text)
    dip = character_create(owner=player, name="Jim", ruleset="microfudged-dip")
    url = reverse("character_builder", args=[dip.pk])
    open(f"/tmp/i18nb/dip_{lang}.html","w").write(player_client.get(url, **h).text)
    for k in ("skill","power","equipment"):
        r = player_client.get(url + f"?picker={k}", HTTP_HX_REQUEST="true", **h)
        open(f"/tmp/i18nb/dippicker_{k}_{lang}.html","w").write(f"{r.status_code}\n"+r.text)
    open(f"/tmp/i18nb/new_{lang}.html","w").write(player_client.get(reverse("character_new"), **h).text)

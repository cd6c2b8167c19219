"""The API under /api/ (docs/api.md): a token owner's characters and campaigns, and a
character read and updated in place at its own address, guarded by its version (ETag,
If-Match). django-ninja serves it and writes its OpenAPI 3.1 description at
/api/openapi.json from these operations and their schemas: nothing of it is written by hand.

A token is checked by characters.api_auth.ApiTokenMiddleware, as for the other endpoints;
every operation here asks for one (no session, no cookie, so no CSRF to forge), and answers
every error as `{"error": ...}`. The views are short: read or call one service."""

import functools
import re
from datetime import datetime
from typing import Literal

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from ninja import NinjaAPI, Query, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer

from characters.adapters import exported_file
from characters.api_auth import accepts_api_token
from characters.errors import ServiceError, StaleWrite
from characters.models import Campaign, Character
from characters.selectors.access import character_for_viewer
from characters.selectors.interop import foundry_actor
from characters.services.updates import character_update_from_file

MAX_BODY_BYTES = 1_000_000  # as the import page and the check endpoint take
# One entity tag of an If-Match list: "7" or W/"7" (a proxy that compresses weakens it).
ENTITY_TAG = re.compile(r'\s*(?:W/)?"([^"]*)"\s*')


class TokenAuth(HttpBearer):
    """The token the middleware already checked (a wrong one never gets here): its user is
    the request's. Named so in the OpenAPI description's security schemes."""

    def authenticate(self, request, token):
        return request.api_token


api = NinjaAPI(
    title="Fairsheet API",
    version="1",
    description=(
        "A Fudge character builder's characters and campaigns for scripts and tools. Every "
        "operation takes a personal API token (`Authorization: Bearer fs_...`, made on the "
        'Account page). Errors are `{"error": "..."}`. The character file is described by '
        "/schema/character-file.json; a Foundry actor by docs/foundry.md."
    ),
    urls_namespace="api",
    docs_url=None,  # the description is the JSON; a docs page would load scripts from a CDN
    auth=TokenAuth(),
)


class Error(Schema):
    error: str


class CharacterSummary(Schema):
    id: int
    name: str
    ruleset: str
    state: Literal["draft", "submitted", "changes_requested", "approved"]
    version: int
    campaign: int | None
    updated_at: datetime
    url: str  # the API's address of the character
    builder_url: str


class CampaignSummary(Schema):
    id: int
    name: str
    ruleset: str
    role: Literal["gm", "player"]
    url: str


class Updated(Schema):
    id: int
    name: str
    version: int
    state: Literal["draft", "submitted", "changes_requested", "approved"]
    source: Literal["fairsheet", "foundry"]
    changes: list[str]
    needs_review: bool
    not_mapped: list[str]
    url: str


CHARACTER_BODY = {
    "requestBody": {
        "required": True,
        "description": (
            "A character file (docs/character-file.md, /schema/character-file.json) or a "
            "Foundry VTT actor of the fudge-rpg system (docs/foundry.md), as JSON, 1 MB at "
            "most."
        ),
        "content": {"application/json": {"schema": {"type": "object"}}},
    },
    "parameters": [
        {
            "name": "If-Match",
            "in": "header",
            "required": True,
            "description": (
                'The ETag of the character as last read (its version, `"7"`): the update '
                "is refused (412) if it has changed since. `*` updates whatever it is now."
            ),
            "schema": {"type": "string"},
        }
    ],
}
CHARACTER_ANSWER = {
    "responses": {
        "200": {
            "description": "The character file, or with `format=foundry` its Foundry actor.",
            "headers": {
                "ETag": {
                    "description": "The character's version: send it back as If-Match.",
                    "schema": {"type": "string"},
                }
            },
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    }
}


@api.get(
    "/characters/",
    response={200: list[CharacterSummary]},
    summary="The token owner's characters",
    operation_id="characters_list",
)
def characters_list(request):
    owned = Character.objects.owned_by(request.auth.user).order_by("name", "pk")
    return [_summary(request, character) for character in owned]


@api.get(
    "/campaigns/",
    response={200: list[CampaignSummary]},
    summary="The campaigns the token owner runs or plays in",
    operation_id="campaigns_list",
)
def campaigns_list(request):
    user = request.auth.user
    campaigns = Campaign.objects.joined_by(user).current().order_by("name", "pk")
    return [
        {
            "id": campaign.pk,
            "name": campaign.name,
            "ruleset": campaign.base_ruleset,
            "role": "gm" if campaign.gm_id == user.pk else "player",
            "url": request.build_absolute_uri(reverse("campaign_detail", args=[campaign.pk])),
        }
        for campaign in campaigns
    ]


@api.get(
    "/characters/{int:pk}/",
    response={304: None, 404: Error},
    summary="A character, as a character file or a Foundry actor",
    operation_id="character_read",
    url_name="character",
    openapi_extra=CHARACTER_ANSWER,
)
def character_read(request, pk: int, format: Query[Literal["file", "foundry"]] = "file"):
    """The character file (or its Foundry actor) of a character the token's user may see:
    their own, or any of a campaign they run. Its ETag is the character's version."""
    character = character_for_viewer(request.auth.user, pk)
    etag = _etag(character)
    if etag in _tags(request.headers.get("If-None-Match", "")):
        return _tagged(HttpResponse(status=304), etag)
    data = foundry_actor(character) if format == "foundry" else exported_file(character)
    return _tagged(JsonResponse(data, json_dumps_params={"ensure_ascii": False}), etag)


@api.put(
    "/characters/{int:pk}/",
    response={
        200: Updated,
        400: Error,
        403: Error,
        404: Error,
        412: Error,
        413: Error,
        428: Error,
    },
    summary="Update a character in place from a character file or a Foundry actor",
    operation_id="character_update",
    url_name="character",
    openapi_extra=CHARACTER_BODY,
)
def character_update(request, response: HttpResponse, pk: int):
    """The character becomes what the file says (its ruleset, a campaign's house rules and
    the experience ledger stay), as one recorded change; an approved build changed beyond
    play goes back to the GM's review. Only the character's player updates it."""
    character = character_for_viewer(request.auth.user, pk)
    if_match = request.headers.get("If-Match")
    if if_match is None:
        return Status(
            428,
            {
                "error": _(
                    "Send If-Match with the ETag of the character as you last read it, so a "
                    "change made since is not overwritten."
                )
            },
        )
    expected = None if if_match.strip() == "*" else character.version
    if expected is not None and _etag(character) not in _tags(if_match):
        return Status(412, _stale(character))
    declared = request.headers.get("Content-Length", "")
    if (declared.isdigit() and int(declared) > MAX_BODY_BYTES) or len(
        body := request.body
    ) > MAX_BODY_BYTES:
        return Status(
            413,
            {
                "error": _("The file is larger than {size} MB.").format(
                    size=MAX_BODY_BYTES // 1_000_000
                )
            },
        )
    try:
        update = character_update_from_file(
            character=character, actor=request.auth.user, text=body, expected_version=expected
        )
    except StaleWrite:
        return Status(412, _stale(character))
    except ServiceError as error:
        return Status(error.status, {"error": str(error)})
    character.refresh_from_db()
    response["ETag"] = f'"{_etag(character)}"'
    return Status(
        200,
        {
            "id": character.pk,
            "name": character.name,
            "version": character.version,
            "state": character.state,
            "source": update.imported.source,
            "changes": [str(change) for change in update.changes],
            "needs_review": update.needs_review,
            "not_mapped": list(update.imported.not_mapped),
            "url": request.build_absolute_uri(reverse("api:character", args=[pk])),
        },
    )


def _summary(request, character: Character) -> dict:
    return {
        "id": character.pk,
        "name": character.name,
        "ruleset": _ruleset(character),
        "state": character.state,
        "version": character.version,
        "campaign": character.campaign_id,
        "updated_at": character.updated_at,
        "url": request.build_absolute_uri(reverse("api:character", args=[character.pk])),
        "builder_url": request.build_absolute_uri(
            reverse("character_builder", args=[character.pk])
        ),
    }


def _ruleset(character: Character) -> str:
    return character.campaign.base_ruleset if character.campaign_id else character.ruleset


def _etag(character: Character) -> str:
    return str(character.version)


def _tags(header: str) -> set[str]:
    """The entity tags of an If-Match or If-None-Match list, quotes and W/ taken off."""
    return {match[1] for part in header.split(",") if (match := ENTITY_TAG.fullmatch(part))}


def _tagged(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = f'"{etag}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _stale(character: Character) -> dict:
    return {
        "error": _(
            "{name} has changed since you read it (it is at version {version} now): read it "
            "again, and send your change with its new ETag."
        ).format(name=character.name, version=character.version)
    }


# -- every answer JSON, {"error": ...}, as the other endpoints' --------------------------------


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc):
    response = JsonResponse(
        {
            "error": _(
                "Send an API token: Authorization: Bearer followed by a token made on your "
                "account page."
            )
        },
        status=401,
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(ValidationError)
def _invalid(request, exc):
    where = ", ".join(".".join(str(p) for p in e.get("loc", ())) for e in exc.errors)
    return JsonResponse(
        {"error": _("The request is not valid: {where}.").format(where=where)}, status=400
    )


@api.exception_handler(Http404)
def _not_found(request, exc):
    return JsonResponse(
        {"error": _("No such character, or not one you may see.")},
        status=404,
    )


@api.exception_handler(HttpError)
def _http_error(request, exc):
    return JsonResponse({"error": str(exc)}, status=exc.status_code)


def api_urls():
    """The API's URL patterns, each taking a token (and no session login: an operation
    without a token answers 401 itself). The library's own two views, the description and
    the root it reverses to find the API's prefix, only read: any other method is a 405."""
    patterns, app_name, namespace = api.urls
    for pattern in patterns:
        view = pattern.callback
        if pattern.name in ("openapi-json", "api-root"):
            view = require_safe(view)
        pattern.callback = accepts_api_token(login_not_required(_bare_405(view)))
    return patterns, app_name, namespace


def _bare_405(view):
    """The library answers a method an address does not take with its own words; a bare
    405 lets characters.middleware say it as the site does (JSON to a token)."""

    @functools.wraps(view)
    def answered(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if response.status_code == 405:
            return HttpResponseNotAllowed(sorted(response["Allow"].split(", ")))
        return response

    return answered

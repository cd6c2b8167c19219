"""The public JSON Schemas of Fairsheet's files (docs/character-file.schema.json,
docs/ruleset-file.schema.json), public and cacheable, for tools that validate files before
they send them."""

import hashlib
from functools import cache

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_safe

SCHEMAS = {
    "character": settings.BASE_DIR / "docs" / "character-file.schema.json",
    "ruleset": settings.BASE_DIR / "docs" / "ruleset-file.schema.json",
}


@cache
def _schema(kind: str) -> tuple[bytes, str]:
    content = SCHEMAS[kind].read_bytes()
    return content, hashlib.sha256(content).hexdigest()[:32]


def _schema_view(kind: str):
    @login_not_required
    @require_safe
    @cache_control(public=True, max_age=86400)
    @etag(lambda request: _schema(kind)[1])
    def view(request):
        response = HttpResponse(_schema(kind)[0], content_type="application/schema+json")
        response["Access-Control-Allow-Origin"] = "*"  # public: any page's validator reads it
        return response

    return view


character_file_schema = _schema_view("character")
ruleset_file_schema = _schema_view("ruleset")

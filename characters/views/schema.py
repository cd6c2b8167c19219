"""The character file's JSON Schema (docs/character-file.schema.json), public and cacheable,
for tools that validate files before they send them."""

import hashlib
from functools import cache

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_safe

SCHEMA_PATH = settings.BASE_DIR / "docs" / "character-file.schema.json"


@cache
def _schema() -> tuple[bytes, str]:
    content = SCHEMA_PATH.read_bytes()
    return content, hashlib.sha256(content).hexdigest()[:32]


@login_not_required
@require_safe
@cache_control(public=True, max_age=86400)
@etag(lambda request: _schema()[1])
def character_file_schema(request):
    response = HttpResponse(_schema()[0], content_type="application/schema+json")
    response["Access-Control-Allow-Origin"] = "*"  # public: a validator in any page may read it
    return response

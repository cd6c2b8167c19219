"""The public JSON Schemas in docs/, loaded once for every test that validates against them."""

import json
from pathlib import Path

from jsonschema import Draft202012Validator

DOCS = Path(__file__).resolve().parents[2] / "docs"
CHARACTER_FILE_SCHEMA = json.loads((DOCS / "character-file.schema.json").read_text())
CHARACTER_FILE = Draft202012Validator(CHARACTER_FILE_SCHEMA)

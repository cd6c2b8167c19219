"""Shared fixtures. Area-specific fixtures live in their own test modules."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "rules" / "samples"
RULES_SOURCES = ROOT.parent / "shared" / "rules-sources"


@pytest.fixture
def sample_file():
    """Load a sample character file from rules/samples by stem, as parsed JSON."""

    def load(stem: str) -> dict:
        return json.loads((SAMPLES / f"{stem}.json").read_text())

    return load

"""The ruleset designer's forms: one form a section of the ruleset file (docs/ruleset-file.md),
field by field, each field labelled and explained in a line, and lists as rows the GM adds
and removes (plain submit buttons, so they work without scripts; htmx swaps only the rows).

A section reads its fields from a ruleset file (`read`) and writes them back into a copy
(`file()`); everything else in the file is kept. Whether the file then holds is for
rules.ruleset_file to say: its problems each carry a path ("harm.track[2].boxes"), and
`add_problems` puts each beside the field at that path, in plain words, with a problem of
another section listed by that section's title and field label (`describe`)."""

from characters.forms.designer.advancement import AdvancementSection
from characters.forms.designer.catalogue import (
    EquipmentListSection,
    FaultListSection,
    GiftListSection,
    PowerListSection,
    SkillListSection,
)
from characters.forms.designer.game import GameSection, LadderSection, NumbersSection
from characters.forms.designer.harm import HarmSection
from characters.forms.designer.parts import DerivedSection, PrerequisitesSection, TrackersSection
from characters.forms.designer.paths import SECTIONS, SEPARATOR, describe, plain
from characters.forms.designer.sources import SourcesSection
from characters.forms.designer.templates import TemplatesSection
from characters.forms.designer.terms import TermsSection
from characters.forms.designer.traits import AttributesSection, PowersSection, SkillsSection

__all__ = ["SECTIONS", "SEPARATOR", "describe", "plain"]

# Every section, by its address (paths.SECTIONS, which finds the section a path is edited in).
SECTIONS.update(
    {
        section.key: section
        for section in (
            GameSection,
            LadderSection,
            NumbersSection,
            AttributesSection,
            SkillsSection,
            PowersSection,
            TermsSection,
            HarmSection,
            AdvancementSection,
            SkillListSection,
            GiftListSection,
            FaultListSection,
            EquipmentListSection,
            PowerListSection,
            TemplatesSection,
            DerivedSection,
            TrackersSection,
            PrerequisitesSection,
            SourcesSection,
        )
    }
)

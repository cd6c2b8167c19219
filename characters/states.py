"""Where a character's build stands, in words: one home for them (issue 39), so that every
page, sheet, PDF and language says a state the same way. The model's choices
(models.Character.State) take their labels here, and so do the badge, the lists of
characters, the audit trail, the sheet's footer and the PDF's watermark.

A state has a label ("Submitted": a badge, a list, a value), a phrase for a sentence ("Brogo
is submitted") and, while the build is not approved, the mark a sheet prints ("Submitted ·
not approved"). Beside the model's four states, one the page works out: an approved build
whose rows changed behind the app, which is not approved until the GM looks."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

DRAFT, SUBMITTED, CHANGES_REQUESTED, APPROVED = (
    "draft",
    "submitted",
    "changes_requested",
    "approved",
)
CHANGED = "changed"  # approved, then changed behind the app (adapters.build_changed)

LABELS = {
    DRAFT: _("Draft"),
    SUBMITTED: _("Submitted"),
    CHANGES_REQUESTED: _("Changes requested"),
    APPROVED: _("Approved"),
    CHANGED: _("Changed since approval"),
}

# An approved build whose approval does not hold: its record does not match what it kept.
APPROVAL_BROKEN = _("Approval broken")

# "Brogo is ...": "a draft", not "is draft".
PHRASES = {
    DRAFT: pgettext_lazy("Brogo is ...", "a draft"),
    SUBMITTED: pgettext_lazy("Brogo is ...", "submitted"),
    CHANGES_REQUESTED: pgettext_lazy("Brogo is ...", "back with its player for changes"),
    APPROVED: pgettext_lazy("Brogo is ...", "approved"),
    CHANGED: pgettext_lazy("Brogo is ...", "changed since approval"),
}


def label(state: str) -> str:
    """The state's label in the reader's language: "Submitted", "Soumis"."""
    return str(LABELS[state])


def not_approved(state: str) -> str:
    """What a sheet of a build that is not approved prints, its footer and its watermark:
    "Submitted · not approved"; an approved build changed since says that, and one whose
    approval no longer holds (its record does not match) says so."""
    if state == CHANGED:
        return label(CHANGED)
    if state == APPROVED:
        return str(APPROVAL_BROKEN)
    return str(_("{state} · not approved")).format(state=label(state))

"""The batch of writes a play page queued without a connection (docs/offline.md), read from
its JSON body. Each write carries the very fields its online form posts, and is cleaned by
that form, so the same bounds hold offline as online; a roll adds the dice the phone rolled
and when. A batch with anything wrong in it is refused whole, saying which write and what."""

import json
from uuid import UUID

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.forms.play import ConditionForm, PointsForm, RollForm, WoundForm

MOST_WRITES = 200  # far beyond an evening's clicks; a bigger batch is no phone's queue


class BatchRefused(ValueError):
    """The batch cannot be read; `str(error)` says where."""


class OfflineRollForm(RollForm):
    dice = forms.RegexField(label=gettext_lazy("Dice"), regex=r"^(-1|0|1)(,(-1|0|1)){3}$")
    rolled_at = forms.DateTimeField(label=gettext_lazy("Rolled at"))


FORMS = {
    "wound": WoundForm,
    "points": PointsForm,
    "condition_add": ConditionForm,
    "condition_remove": ConditionForm,
    "roll": OfflineRollForm,
}


def queued_writes(body: bytes) -> list[dict]:
    """The writes, in the order they were made: each a dict of QueuedWrite's fields
    (services.offline)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise BatchRefused(_("The queued changes are not JSON: nothing was saved.")) from None
    writes = data.get("writes") if isinstance(data, dict) else None
    if not isinstance(writes, list):
        raise BatchRefused(
            _('Send {"writes": […]}, the list of queued changes: nothing was saved.')
        )
    if len(writes) > MOST_WRITES:
        raise BatchRefused(
            _("At most {most} queued changes at once: nothing was saved.").format(most=MOST_WRITES)
        )
    return [_write(number, write) for number, write in enumerate(writes, 1)]


def _write(number: int, write) -> dict:
    if not isinstance(write, dict):
        raise BatchRefused(
            _("Change {number} is not an object: nothing was saved.").format(number=number)
        )
    try:
        key = UUID(str(write.get("key")))
    except ValueError:
        raise BatchRefused(
            _("Change {number} has no key (a UUID): nothing was saved.").format(number=number)
        ) from None
    kind = write.get("kind")
    if kind not in FORMS:
        raise BatchRefused(
            _("Change {number}: {kind} is no change the play page queues ({kinds}).").format(
                number=number, kind=repr(kind), kinds=", ".join(FORMS)
            )
        )
    fields = write.get("fields")
    form = FORMS[kind](fields if isinstance(fields, dict) else {})
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        label = form[field].label if field in form.fields else field
        raise BatchRefused(
            _("Change {number} ({kind}): {field}: {errors} Nothing was saved.").format(
                number=number, kind=kind, field=label, errors=" ".join(errors)
            )
        )
    return {"key": key, "kind": kind, **_cleaned(kind, form)}


def _cleaned(kind: str, form) -> dict:
    """The revision it was made against (None where the online write takes none) and the
    service's arguments."""
    data = form.cleaned_data
    if kind == "wound":
        what, level = form.action()
        return {"revision": data["revision"], "args": {"level": level, "mark": what == "mark"}}
    if kind == "points":
        return {"revision": data["revision"], "args": {"spend": data["action"] == "spend"}}
    if kind == "roll":
        dice = [int(die) for die in data["dice"].split(",")]
        return {
            "revision": None,
            "args": {**form.roll(), "dice": dice, "rolled_at": data["rolled_at"]},
        }
    return {"revision": None, "args": {"text": data["text"]}}

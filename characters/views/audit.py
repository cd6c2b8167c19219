"""The audit page: a character's timeline (who, when, what, before -> after) and the diff of
any two builds on the record, by default the last approved one against the build now.
The player sees their own character's record too; anyone else gets a 404.

And the check of a printed approval stamp: its player or its GM types the code a sheet
carries, and learns whether Fairsheet issued it and whether the approval still stands."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from characters.adapters import build_changed, ruleset_for
from characters.selectors.access import character_for_viewer
from characters.selectors.integrity import stamp_check
from characters.selectors.review import (
    character_versions,
    compare,
    default_comparison,
    timeline,
)

PAGE = "review/audit.html"


@require_safe
def character_audit(request, pk):
    character = character_for_viewer(request.user, pk)
    versions = character_versions(character)
    default_old, default_new = default_comparison(versions)
    old_key = request.GET.get("old", default_old) or None  # "" picks "nothing before"
    new_key = request.GET.get("new", default_new)
    ruleset = ruleset_for(character)
    try:
        old, new, changes = compare(versions, old_key, new_key, ruleset)
    except KeyError:
        raise Http404(_("No such version of this character")) from None
    context = {
        "character": character,
        "versions": versions,
        "old": old,
        "new": new,
        "changes": changes,
    }
    # The version pickers swap the diff alone, and put their choice in the address: going
    # back to it when the browser kept no copy asks for the whole page again.
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, f"{PAGE}#diff", context)
    context["timeline"] = timeline(character, ruleset)
    context["build_changed"] = build_changed(character)
    context["page"] = "audit"
    return render(request, PAGE, context)


@require_safe
def approval_stamp_check(request):
    """A stamp's code, from the query string (the sheet's link) or typed in: valid (which
    approval, and whether it still stands) or not, in one sentence. Signed-in only, and
    only for the character's player or GM (selectors.integrity.stamp_check): those who
    hold the paper at the table and can act on the answer; anyone else learns nothing."""
    code = request.GET.get("code", "")[:100]
    context = {"code": code}
    if code:
        context["checked"] = True
        context["found"] = stamp_check(request.user, code)
    return render(request, "review/stamp_check.html", context)

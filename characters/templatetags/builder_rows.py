"""The builder's rows, drawn in Python: `{% trait_row %}`, `{% equipment_row %}` and
`{% row_issues %}` in characters/builder.html. A row through the template engine cost
some sixty lookups and tags, and a page of sixty rows spent more on them than on all the
rest (bench.web); here a row is a few f-strings. Each reads the row (pages.builder_rows.Row)
and the page's context, as the row's template did. Its words are gettext's, in the reader's
language, with named placeholders (docs/translations.md)."""

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters.models import Trait
from characters.pages.picker import said_details
from characters.rules_content import rules_name
from characters.templatetags.drawn import csrf_input, e
from characters.templatetags.kept_drawings import kept_drawing
from characters.wording import said

register = template.Library()


@lru_cache(maxsize=8)
def _words(language: str) -> dict[str, str]:
    """The rows' words in `language`, said once: gettext a dozen times a row, sixty rows a
    page, cost more than the rows' drawing (an English page's lookups fall through each
    catalogue). The templates are filled in per row; the plain words come escaped."""
    return {
        "name": e(_("Name")),
        "kind": e(_("Kind")),
        "difficulty": e(_("Difficulty")),
        "notes": e(_("Notes")),
        "save": e(_("Save")),
        "remove": e(_("Remove")),
        "cost_title": e(_("What this costs at creation")),
        "lowest": e(_("Lowest level")),
        "highest": e(_("Highest level")),
        "catalogue": _("Catalogue"),
        "level_of": _("Level of {name}"),
        "says": _("{where}: what the text says"),
        "note": _("Catalogue: {note}"),
        "lower": _("Lower {name} to {level}: gives back {cost}"),
        "raise": _("Raise {name} to {level}: costs {cost}"),
        "next_cost": _("The next level costs {cost}"),
        "next": _("next +{amount}"),
        "remove_name": _("Remove {name}"),
        "confirm": _("Remove {name}?"),
        "brings": _("{name} brings {attribute}. Remove {attribute} too?"),
        "remove_both": _("Remove {name} and {attribute}"),
        "remove_keep": _("Remove {name}, keep {attribute}"),
    }


@register.simple_tag(takes_context=True)
def rows_of(context, rows, draw: str) -> SafeString:
    """Each of a list's rows drawn by `draw` ("trait_row", "equipment_row"), as the list's
    loop drew them: in a disabled fieldset when the build cannot be edited, the threads on
    the row below it (outside its form and fieldset), "None yet." for no row. The loop in
    the template cost some twenty lookups and tags a row around the row's own drawing."""
    if not rows:
        none_yet = e(_("None yet."))
        return mark_safe(f'\n        <p class="empty">{none_yet}</p>\n        ')
    drawn_row = _ROW_DRAWINGS[draw]
    locked = not context.get("can_edit")
    fieldset = ('<fieldset disabled class="locked-build">', "</fieldset>") if locked else ("", "")
    threads = context.get("threads")
    beside = threads.on_rows if threads else None
    html = []
    with context.push():
        for row in rows:
            context["row"] = row
            talk = _threads_beside(context) if beside else ""
            html.append(
                f"\n        {fieldset[0]}\n        {drawn_row(context)}\n        {fieldset[1]}"
                f"\n        {talk}\n        "
            )
    return mark_safe("".join(html))


def _kept_trait_row(context) -> str:
    """The row drawn, or kept (templatetags.kept_drawings) by all its drawing reads: its
    trait, its cost, its issues and what play changed of it, whether the reader may edit, and
    its rules. Drawn again after an edit, a page draws the one row that changed, where
    drawing sixty cost a fifth of the page."""
    row = context["row"]
    if row.refused:  # the player's own refused form: drawn as it came, never kept
        return trait_row(context)
    key = (
        "trait_row",
        tuple(getattr(row.trait, name) for name in _TRAIT_FIELDS),
        row.spent,
        tuple(row.issues),
        row.in_play,
        bool(context.get("can_edit")),
        bool(context.get("oob")),  # both False on a page; an answer draws its own rows
        bool(context.get("saved_again")),
    )
    return kept_drawing(context, key, row.ruleset, lambda: trait_row(context))


_TRAIT_FIELDS = tuple(field.attname for field in Trait._meta.concrete_fields)


def _threads_beside(context) -> str:
    return context.template.engine.get_template("threads/beside_row.html").render(context)


@register.simple_tag(takes_context=True)
def trait_row(context) -> SafeString:
    row, urls = context["row"], context["row_urls"]
    trait, form = row.trait, row.form  # its refused form, else its controls drawn
    # A built-in name in the reader's language, a player's own as written.
    said_name = rules_name(trait.name)
    pk, name, shown = trait.pk, e(said_name), form.fields
    update, delete = urls("trait_update", pk), urls("trait_delete", pk)
    can_edit = context.get("can_edit")
    words = _words(get_language())
    fields = [
        f'<label class="trait-name">\n<span class="visually-hidden">{words["name"]}</span>\n'
        f"{form['name']}\n</label>"
    ]
    if "level" in shown:
        level_of = e(words["level_of"].format(name=said_name))
        fields.append(
            f'<label class="trait-level"><span class="visually-hidden">{level_of}</span>'
            f"{form['level']}</label>"
        )
        if can_edit:
            fields.append(_stepper(row, name, words))
    if "difficulty" in shown:
        fields.append(
            '<label class="trait-difficulty"><span class="visually-hidden">'
            f"{words['difficulty']}</span>{form['difficulty']}</label>"
        )
    if "power_kind" in shown:
        fields.append(
            f'<label class="trait-kind"><span class="visually-hidden">{words["kind"]}</span>'
            f"{form['power_kind']}</label>"
        )
    if "cost" in shown and (trait.kind != "power" or row.prices_in_gifts):
        cost = form["cost"]
        fields.append(f'<label class="trait-cost">{e(cost.label)} {cost}</label>')
    in_play = f'<small class="row-in-play">{e(row.in_play)}</small>' if row.in_play else ""
    if row.use_cost:  # what a casting lowers, as the sheet prints it
        in_play += f'<small class="row-in-play">{e(row.use_cost)}</small>'
    # The cost and the cross are one piece of the row: they wrap to a line together, never
    # the cross alone on a line of its own.
    end = [
        f'<output class="row-cost" title="{words["cost_title"]}">{e(row.cost)}{in_play}</output>'
    ]
    if can_edit:
        end.append(f'<button type="submit" class="save small">{words["save"]}</button>')
        end.append(
            _gift_remove(row, name, delete, words)
            if row.brings_attribute
            else _remove(name, delete, words, open_picker=trait.kind)
        )
    fields.append('<span class="row-end">' + "\n".join(end) + "</span>")
    after = []
    if row.power:
        details = "".join(
            f"<dt>{e(label)}</dt><dd>{e(value)}</dd>"
            for label, value in said_details(row.power.details())
        )
        says = e(words["says"].format(where=row.power.section or words["catalogue"]))
        after.append(
            f'<details class="row-power"><summary><small>{says}</small></summary>'
            f'<dl class="power-details">{details}</dl></details>'
        )
    if row.note:
        note = e(words["note"].format(note=row.note))
        after.append(f'<p class="row-note"><small>{note}</small></p>')
    after.append(_errors(form))
    after.append(row_issues(context))
    swap = ' hx-swap-oob="true"' if context.get("saved_again") else ""
    return mark_safe(
        f'<form id="trait-{pk}" class="trait-row" method="post"{swap}\n'
        f'      action="{update}"\n'
        f'      hx-post="{update}" hx-trigger="change, submit"\n'
        '      hx-target="this" hx-swap="outerHTML">\n'
        f"{csrf_input(context)}\n{form['version']}\n"
        '<div class="trait-fields">\n'
        + "\n".join(fields)
        + "\n</div>\n"
        + "".join(after)
        + "\n</form>"
    )


def _stepper(row, name: str, words: dict) -> str:
    """The level's minus and plus, each posting the level it names: a button's value comes
    after the select's, and the last one counts."""
    down, up = row.steps
    if not (down or up):
        return ""
    # `name` is escaped already: the level words and costs are escaped here.
    lower = (
        words["lower"].format(name=name, level=e(down.word), cost=e(down.cost))
        if down
        else words["lowest"]
    )
    raise_ = (
        words["raise"].format(name=name, level=e(up.word), cost=e(up.cost))
        if up
        else words["highest"]
    )
    hint = ""
    if up:
        next_cost = e(words["next_cost"].format(cost=up.cost))
        next_amount = e(words["next"].format(amount=up.amount))
        hint = (
            f'<small class="step-cost" aria-hidden="true" title="{next_cost}">{next_amount}</small>'
        )
    return (
        '<span class="stepper">\n'
        f'<button type="submit" name="level" value="{_level(down)}" '
        f'class="step small outline secondary"{"" if down else " disabled"} '
        f'aria-label="{lower}">\u2212</button>\n'
        f'<button type="submit" name="level" value="{_level(up)}" '
        f'class="step small outline"{"" if up else " disabled"} aria-label="{raise_}">+</button>\n'
        f"{hint}\n</span>"
    )


def _level(step) -> str:
    return "" if step is None else str(step.level)


def _remove(name: str, delete: str, words: dict, *, open_picker: str = "") -> str:
    """`name` as written by the player, escaped. A trait's removal says whether its list's
    picker is open (`open_picker`, its kind), whose entry for it then shows it can be added
    again (_including_picker)."""
    remove = words["remove_name"].format(name=name)
    confirm = words["confirm"].format(name=name)
    return (
        '<button type="submit" class="remove small outline secondary"\n'
        f'        formaction="{delete}"{_including_picker(open_picker)}\n'
        f'        hx-post="{delete}" hx-confirm="{confirm}"\n'
        f'        aria-label="{remove}" title="{remove}">\u00d7</button>'
    )


def _including_picker(kind: str) -> str:
    """The list's picker's hidden `picker` input, sent along (htmx's hx-include): its kind
    while the picker's list is open, else empty (characters/picker.html)."""
    return f' hx-include="#picker-open-{kind}"' if kind else ""


def _gift_remove(row, name: str, delete: str, words: dict) -> str:
    """A gift that brings an attribute (Magery: Mana, Mudge 2.5): removing it asks what
    becomes of the attribute, each button posting its answer."""
    names = {"name": name, "attribute": e(rules_name(row.brings_attribute))}  # both escaped
    question = words["brings"].format(**names)
    both, keep = words["remove_both"].format(**names), words["remove_keep"].format(**names)
    picker = _including_picker(row.trait.kind)
    return (
        '<details class="gift-remove">\n'
        '<summary role="button" class="remove small outline secondary" '
        f'aria-label="{words["remove_name"].format(**names)}">{words["remove"]}</summary>\n'
        f"<p><small>{question}</small></p>\n"
        '<button type="submit" class="small outline secondary" name="attribute" value="remove"\n'
        f'        formaction="{delete}" hx-post="{delete}"{picker}>{both}</button>\n'
        '<button type="submit" class="small outline secondary" name="attribute" value="keep"\n'
        f'        formaction="{delete}" hx-post="{delete}"{picker}>{keep}</button>\n'
        "</details>"
    )


def _errors(form) -> str:
    """A refused form's messages under its row (partials/form_errors.html)."""
    if not form.errors:
        return ""
    return render_to_string("partials/form_errors.html", {"form": form})


@register.simple_tag(takes_context=True)
def row_issues(context) -> SafeString:
    """The broken rules about this row, each with its section: swapped out of band after any
    edit that changed them (one edit can break or mend a rule on another row)."""
    row = context["row"]
    swap = ' hx-swap-oob="true"' if context.get("oob") else ""
    issues = "".join(
        f'<p class="row-issue" data-code="{e(issue.code)}">{e(said(issue))} '
        f"<small>{e(issue.section)}</small></p>"
        for issue in row.issues
    )
    return mark_safe(
        f'<div id="issues-trait-{row.trait.pk}" class="row-issues"{swap}>{issues}</div>'
    )


@register.simple_tag(takes_context=True)
def equipment_row(context) -> SafeString:
    row, urls = context["row"], context["row_urls"]
    item, form = row.trait, row.form  # its refused form, else its controls drawn
    pk, name = item.pk, e(rules_name(item.name))
    update, delete = urls("equipment_update", pk), urls("equipment_delete", pk)
    words = _words(get_language())
    buttons = (
        f'\n<button type="submit" class="save small">{words["save"]}</button>\n'
        + _remove(name, delete, words)
        if context.get("can_edit")
        else ""
    )
    swap = ' hx-swap-oob="true"' if context.get("saved_again") else ""
    return mark_safe(
        f'<form id="equipment-{pk}" class="trait-row equipment-row" method="post"{swap}\n'
        f'      action="{update}"\n'
        f'      hx-post="{update}" hx-trigger="change, submit"\n'
        '      hx-target="this" hx-swap="outerHTML">\n'
        f"{csrf_input(context)}\n{form['version']}\n"
        '<div class="trait-fields">\n'
        f'<label class="trait-name"><span class="visually-hidden">{words["name"]}</span>'
        f"{form['name']}</label>\n"
        f'<label class="trait-kind"><span class="visually-hidden">{words["kind"]}</span>'
        f"{form['kind']}</label>\n"
        f'<label class="trait-cost">{e(form["damage"].label)} {form["damage"]}</label>\n'
        f'<label class="trait-cost">{e(form["armour"].label)} {form["armour"]}</label>\n'
        f'<label class="trait-notes">{words["notes"]} {form["notes"]}</label>{buttons}\n'
        "</div>\n" + _errors(form) + "\n</form>"
    )


# A list's rows on the page: the trait rows kept as drawn, the few equipment rows drawn.
_ROW_DRAWINGS = {"trait_row": _kept_trait_row, "equipment_row": equipment_row}

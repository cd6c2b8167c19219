"""The builder's rows, drawn in Python: `{% trait_row %}`, `{% equipment_row %}` and
`{% row_issues %}` in characters/builder.html. A row through the template engine cost
some sixty lookups and tags, and a page of sixty rows spent more on them than on all the
rest (bench.web); here a row is a few f-strings. Each reads the row (views.builder_page.Row)
and the page's context, as the row's template did. Its words are gettext's, in the reader's
language, with named placeholders (docs/translations.md)."""

from html import escape

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from characters.views.picker import said_details
from characters.wording import said

register = template.Library()

_CSRF = CsrfTokenNode()


def e(value) -> str:
    """conditional_escape without its wrapper for lazy text, some ten times a row."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


@register.simple_tag(takes_context=True)
def trait_row(context) -> SafeString:
    row, urls = context["row"], context["row_urls"]
    trait, form = row.trait, row.form  # its refused form, else its controls drawn
    pk, name, shown = trait.pk, e(trait.name), form.fields
    update, delete = urls("trait_update", pk), urls("trait_delete", pk)
    can_edit = context.get("can_edit")
    # Said outside the f-strings, where makemessages finds them.
    name_label, kind_label = e(_("Name")), e(_("Kind"))
    fields = [
        f'<label class="trait-name">\n<span class="visually-hidden">{name_label}</span>\n'
        f"{form['name']}\n</label>"
    ]
    if "level" in shown:
        level_of = e(_("Level of {name}").format(name=trait.name))
        fields.append(
            f'<label class="trait-level"><span class="visually-hidden">{level_of}</span>'
            f"{form['level']}</label>"
        )
        if can_edit:
            fields.append(_stepper(row, name))
    if "difficulty" in shown:
        difficulty = e(_("Difficulty"))
        fields.append(
            '<label class="trait-difficulty"><span class="visually-hidden">'
            f"{difficulty}</span>{form['difficulty']}</label>"
        )
    if "power_kind" in shown:
        fields.append(
            f'<label class="trait-kind"><span class="visually-hidden">{kind_label}</span>'
            f"{form['power_kind']}</label>"
        )
    if "cost" in shown and (trait.kind != "power" or row.prices_in_gifts):
        cost = form["cost"]
        fields.append(f'<label class="trait-cost">{e(cost.label)} {cost}</label>')
    in_play = f'<small class="row-in-play">{e(row.in_play)}</small>' if row.in_play else ""
    cost_title = e(_("What this costs at creation"))
    fields.append(f'<output class="row-cost" title="{cost_title}">{e(row.cost)}{in_play}</output>')
    if can_edit:
        save = e(_("Save"))
        fields.append(f'<button type="submit" class="save small">{save}</button>')
        fields.append(
            _gift_remove(row, name, delete) if row.brings_attribute else _remove(name, delete)
        )
    after = []
    if row.power:
        details = "".join(
            f"<dt>{e(label)}</dt><dd>{e(value)}</dd>"
            for label, value in said_details(row.power.details())
        )
        where = row.power.section or _("Catalogue")
        says = e(_("{where}: what the text says").format(where=where))
        after.append(
            f'<details class="row-power"><summary><small>{says}</small></summary>'
            f'<dl class="power-details">{details}</dl></details>'
        )
    if row.note:
        note = e(_("Catalogue: {note}").format(note=row.note))
        after.append(f'<p class="row-note"><small>{note}</small></p>')
    after.append(_errors(form))
    after.append(row_issues(context))
    swap = ' hx-swap-oob="true"' if context.get("saved_again") else ""
    return mark_safe(
        f'<form id="trait-{pk}" class="trait-row" method="post"{swap}\n'
        f'      action="{update}"\n'
        f'      hx-post="{update}" hx-trigger="change, submit"\n'
        '      hx-target="this" hx-swap="outerHTML">\n'
        f"{_CSRF.render(context)}\n{form['version']}\n"
        '<div class="trait-fields">\n'
        + "\n".join(fields)
        + "\n</div>\n"
        + "".join(after)
        + "\n</form>"
    )


def _stepper(row, name: str) -> str:
    """The level's minus and plus, each posting the level it names: a button's value comes
    after the select's, and the last one counts."""
    down, up = row.steps
    if not (down or up):
        return ""
    # `name` is escaped already: the level words and costs are escaped here.
    lower = (
        _("Lower {name} to {level}: gives back {cost}").format(
            name=name, level=e(down.word), cost=e(down.cost)
        )
        if down
        else _("Lowest level")
    )
    raise_ = (
        _("Raise {name} to {level}: costs {cost}").format(
            name=name, level=e(up.word), cost=e(up.cost)
        )
        if up
        else _("Highest level")
    )
    hint = ""
    if up:
        next_cost = e(_("The next level costs {cost}").format(cost=up.cost))
        next_amount = e(_("next +{amount}").format(amount=up.amount))
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


def _remove(name: str, delete: str) -> str:
    """`name` as written by the player, escaped."""
    remove = _("Remove {name}").format(name=name)
    confirm = _("Remove {name}?").format(name=name)
    return (
        '<button type="submit" class="remove small outline secondary"\n'
        f'        formaction="{delete}"\n'
        f'        hx-post="{delete}" hx-confirm="{confirm}"\n'
        f'        aria-label="{remove}" title="{remove}">\u00d7</button>'
    )


def _gift_remove(row, name: str, delete: str) -> str:
    """A gift that brings an attribute (Magery: Mana, Mudge 2.5): removing it asks what
    becomes of the attribute, each button posting its answer."""
    brings = e(row.brings_attribute)
    words = {"name": name, "attribute": brings}  # both escaped already
    label, remove = _("Remove {name}").format(**words), e(_("Remove"))
    question = _("{name} brings {attribute}. Remove {attribute} too?").format(**words)
    both = _("Remove {name} and {attribute}").format(**words)
    keep = _("Remove {name}, keep {attribute}").format(**words)
    return (
        '<details class="gift-remove">\n'
        '<summary role="button" class="remove small outline secondary" '
        f'aria-label="{label}">{remove}</summary>\n'
        f"<p><small>{question}</small></p>\n"
        '<button type="submit" class="small outline secondary" name="attribute" value="remove"\n'
        f'        formaction="{delete}" hx-post="{delete}">{both}</button>\n'
        '<button type="submit" class="small outline secondary" name="attribute" value="keep"\n'
        f'        formaction="{delete}" hx-post="{delete}">{keep}</button>\n'
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
    pk, name = item.pk, e(item.name)
    update, delete = urls("equipment_update", pk), urls("equipment_delete", pk)
    save = e(_("Save"))
    buttons = (
        f'\n<button type="submit" class="save small">{save}</button>\n' + _remove(name, delete)
        if context.get("can_edit")
        else ""
    )
    swap = ' hx-swap-oob="true"' if context.get("saved_again") else ""
    name_label, kind_label, notes = e(_("Name")), e(_("Kind")), e(_("Notes"))
    return mark_safe(
        f'<form id="equipment-{pk}" class="trait-row equipment-row" method="post"{swap}\n'
        f'      action="{update}"\n'
        f'      hx-post="{update}" hx-trigger="change, submit"\n'
        '      hx-target="this" hx-swap="outerHTML">\n'
        f"{_CSRF.render(context)}\n{form['version']}\n"
        '<div class="trait-fields">\n'
        f'<label class="trait-name"><span class="visually-hidden">{name_label}</span>'
        f"{form['name']}</label>\n"
        f'<label class="trait-kind"><span class="visually-hidden">{kind_label}</span>'
        f"{form['kind']}</label>\n"
        f'<label class="trait-cost">{e(form["damage"].label)} {form["damage"]}</label>\n'
        f'<label class="trait-cost">{e(form["armour"].label)} {form["armour"]}</label>\n'
        f'<label class="trait-notes">{notes} {form["notes"]}</label>{buttons}\n'
        "</div>\n" + _errors(form) + "\n</form>"
    )

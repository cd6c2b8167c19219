"""What the builder says after a write, beside the row: the save and where the budget
stands, what was added with a link to its row, and what a gift brought or took with it
(Mudge 2.5's Magery and its Mana)."""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.models import Trait
from characters.pages.builder_rows import level_word
from characters.rules_content import rules_name
from characters.services.rows import gift_attribute
from characters.wording import SPEAKER


def gift_taken_away_words(ruleset, character, gift, *, attribute_removed: bool) -> str:
    """What removing a gift did to the attribute it brought, in words; empty otherwise (a
    gift that brings none, or whose attribute the character no longer had)."""
    attribute = gift_attribute(ruleset, gift.name) if gift.kind == Trait.Kind.GIFT else None
    had = attribute is not None and any(
        t.kind == Trait.Kind.ATTRIBUTE and t.name.casefold() == attribute.casefold()
        for t in character.traits.all()
    )
    if not had:
        return ""
    if attribute_removed:
        return _("{attribute} went with {gift}.").format(
            attribute=rules_name(attribute), gift=rules_name(gift.name)
        )
    return _(
        "{attribute} stays; without {gift} it breaks a rule: take {gift} again or remove "
        "{attribute}."
    ).format(attribute=rules_name(attribute), gift=rules_name(gift.name))


def gift_brought_words(ruleset, gift) -> str:
    """What a gift brought with it, in words: "Magery brings the attribute Mana (Mudge 2.5):
    added at Fair, priced as any attribute." Empty for a gift that brings nothing."""
    attribute = gift_attribute(ruleset, gift.name) if gift.kind == Trait.Kind.GIFT else None
    if attribute is None:
        return ""
    kind = next(
        (k for k, g in ruleset.power_gifts.items() if g.casefold() == gift.name.casefold()), ""
    )
    terms = ruleset.terms
    return _(
        "{gift} brings the {noun} {attribute} ({section}): it is on your {nouns} at {level}, "
        "priced as any {noun} from there."
    ).format(
        gift=rules_name(gift.name),
        noun=SPEAKER.noun(terms.list_noun("attributes")),
        attribute=rules_name(attribute),
        section=ruleset.section(kind or "attributes"),
        nouns=SPEAKER.noun(terms.list_noun("attributes", 2)),
        level=level_word(ruleset, ruleset.attribute_default),
    )


def saved_words(context) -> str:
    """The confirmation beside the row: what was done and where the budget stands."""
    report = context["report"]
    broken = len(report.errors)
    balance = context["balance_label"]
    if report.valid:
        return _("Saved. Balance {balance}: a legal build.").format(balance=balance)
    return ngettext(
        "Saved. Balance {balance}: {broken} rule broken.",
        "Saved. Balance {balance}: {broken} rules broken.",
        broken,
    ).format(balance=balance, broken=broken)


def added_words(added: tuple[str, str] | None) -> SafeString:
    """The row a write added, (name, id of its row), with a link to it: an add answers beside
    the form that sent it, often a picker far from the list the row joined ("Added Psionic:
    show it."). A plain link, which works without script."""
    if added is None:
        return SafeString("")
    name, anchor = added
    return format_html(
        _('Added {name}: <a href="#{anchor}">show it</a>.'), name=rules_name(name), anchor=anchor
    )


def shown_words(rows: tuple[tuple[str, str], ...]) -> SafeString:
    """A link to each other row the write brought, (name, id of its row): "Show Psyche."."""
    return format_html_join(
        " ",
        _('<a href="#{anchor}">Show {name}</a>.'),
        ({"name": rules_name(n), "anchor": a} for n, a in rows),
    )


def news_words(*parts: str) -> SafeString:
    """Sentences of an answer, one after the other: text escaped, links kept."""
    return format_html_join(" ", "{}", ((part,) for part in parts if part))

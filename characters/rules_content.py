"""The built-in rules content in the reader's language (docs/translations.md, "Rules content").

A character file, the database and every export name rules content by its English (the
canonical key: "Climbing", "Area Knowledge (the Shire)"). What a person reads is that key
said in the active language, from the rules content catalogue,
locale/<language>/LC_MESSAGES/rules.po (the gettext domain "rules", compiled with the rest by
`compilemessages`; rules.content lists its entries). A name the catalogue does not hold (a
player's own trait, a GM's own gift) is shown as written.

    {{ trait.name|rules_name }}     {{ entry.note|rules_text }}      in templates
    rules_name("Climbing")          "Escalade" in French
    canonical("Escalade")           "Climbing": what an import or a search maps back to

A GM's own content (a campaign's catalogue) may carry the GM's translations: while a page
shows a campaign's character, `use_gm_words` hands them in, and they win over the built-in
catalogue's (a player sees their language, else the GM's words as written).
"""

import gettext
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from functools import cache

from django.conf import settings
from django.utils import translation

from rules.catalog import base_name
from rules.content import NAME, TEXT

DOMAIN = "rules"

# (context, English) -> {language: the GM's words}, for the campaign a request shows.
GmWords = Mapping[tuple[str, str], Mapping[str, str]]
# A loader rather than the table: a request that says no rules name reads no catalogue.
_gm_words: ContextVar[Callable[[], GmWords] | None] = ContextVar("gm_words", default=None)


def use_gm_words(loader: Callable[[], GmWords] | None) -> None:
    """The GM's translations for what is shown from now on in this request or task (None:
    no campaign's). characters.middleware.GmWordsMiddleware clears them between requests."""
    _gm_words.set(loader)


def _said_by_gm(context: str, english: str, language: str) -> str | None:
    loader = _gm_words.get()
    if loader is None:
        return None
    return loader().get((context, english), {}).get(language)


def rules_name(name: str) -> str:
    """A rules name in the active language: its specialisation kept as written ("Area
    Knowledge (the Shire)" is "Connaissance de la région (the Shire)")."""
    if not name:
        return name
    language = _language()
    own = _said_by_gm(NAME, name, language)
    if own:
        return own
    catalogue = _catalogue(language)
    if catalogue is None:
        return name
    whole = catalogue.get((NAME, name))
    if whole:
        return whole
    base = base_name(name)
    said = catalogue.get((NAME, base)) if base != name else None
    return said + name[len(base) :] if said and name.startswith(base) else name


def rules_text(text: str) -> str:
    """A note, a power's line or a template's description in the active language."""
    language = _language()
    own = _said_by_gm(TEXT, text, language) if text else None
    if own:
        return own
    catalogue = _catalogue(language)
    if catalogue is None or not text:
        return text
    return catalogue.get((TEXT, text)) or text


def typed_text(text: str) -> str:
    """What a form keeps of a rules text shown in the active language (rules_text): its
    English, where it is one as rules_text says it; any other text as typed."""
    return _english_texts(_language()).get(text.strip(), text)


@cache
def _english_texts(language: str) -> dict[str, str]:
    """The language's rules texts -> their English."""
    table = _catalogue(language) or {}
    return {said: english for (context, english), said in table.items() if context == TEXT}


def canonical(name: str) -> str:
    """The English key of a name written in any configured language ("Escalade" ->
    "Climbing", "escalade, glace" -> "Climbing, glace"); a name no language knows is itself."""
    stripped = name.strip()
    loader = _gm_words.get()
    if loader is not None:
        for (context, english), said in loader().items():
            if context == NAME and stripped.casefold() in (w.casefold() for w in said.values()):
                return english
    index = _canonical_index()
    found = index.get(stripped.casefold())
    if found:
        return found
    base = base_name(stripped)
    if base != stripped:
        found = index.get(base.casefold())
        if found and stripped.startswith(base):
            return found + stripped[len(base) :]
    return name


def typed_key(name: str) -> str:
    """What a form stores for a name a person typed or a row showed in their language: the
    English key of a rules name said in any language ("Escalade" -> "Climbing"); a name
    already the key, or no rules name, as typed (its case kept: "climbing" stays)."""
    found = canonical(name)
    return name if found.casefold() == name.strip().casefold() else found


def search_words(name: str) -> str:
    """What a picker's search matches an entry by: its English and its active-language name."""
    said = rules_name(name)
    return name if said == name else f"{name} {said}"


def _language() -> str:
    return (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]


@cache
def _catalogue(language: str) -> dict[tuple[str, str], str] | None:
    """(context, English) -> the language's words, None for English (the keys' own)."""
    if language == "en":
        return None
    found = gettext.translation(
        DOMAIN, localedir=str(settings.LOCALE_PATHS[0]), languages=[language], fallback=True
    )
    raw = getattr(found, "_catalog", {})  # GNUTranslations' own table; empty when no file
    table = {}
    for key, said in raw.items():
        if isinstance(key, str) and "\x04" in key and said:
            context, english = key.split("\x04", 1)
            table[(context, english)] = said
    return table


@cache
def _canonical_index() -> dict[str, str]:
    """Every configured language's name of an entry -> its English key (casefolded)."""
    index: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        table = _catalogue(code.split("-")[0]) or {}
        for (context, english), said in table.items():
            if context == NAME:
                index.setdefault(said.casefold(), english)
                index.setdefault(english.casefold(), english)
    return index

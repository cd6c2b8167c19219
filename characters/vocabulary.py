"""The built-in rulesets' words in the reader's language: the trait ladder, what the lists are
called, the GM, the points, difficulties, wounds (docs/translations.md, "Rules vocabulary",
which says where each French and Spanish word comes from).

A word is looked up by the English the engine writes (rules/rulesets.py, rules/ladder.py)
and the kind of thing it names, which is its context in the catalogue ("trait ladder",
"game master", ...): "Fair" on the ladder and "fair" elsewhere are different entries. A word
found nowhere here is a GM's own (a designed ruleset's ladder, a house rule's name) and is
shown as the GM wrote it. tests/i18n/test_translations.py checks every word of every built-in
ruleset is here.
"""

from django.utils.translation import npgettext, pgettext_lazy

from characters.models import Equipment, PowerKind

# The trait ladder (Mudge 1.2; MicroFudged DIP V adds Abysmal). A ladder is translated only
# when every one of its words is one of these: a GM's own ladder (fudge-rpg's Heroic) stays
# whole, never half in one language and half in another.
LADDER = {
    "Abysmal": pgettext_lazy("trait ladder", "Abysmal"),
    "Terrible": pgettext_lazy("trait ladder", "Terrible"),
    "Poor": pgettext_lazy("trait ladder", "Poor"),
    "Mediocre": pgettext_lazy("trait ladder", "Mediocre"),
    "Fair": pgettext_lazy("trait ladder", "Fair"),
    "Good": pgettext_lazy("trait ladder", "Good"),
    "Great": pgettext_lazy("trait ladder", "Great"),
    "Superb": pgettext_lazy("trait ladder", "Superb"),
    "Legendary": pgettext_lazy("trait ladder", "Legendary"),
}

# What one of a list (or of a budget's unit) is called, by its English (one, many): the
# count picks the form, by the language's own plural rule.
NOUNS = {
    ("attribute", "attributes"): lambda n: npgettext("list", "attribute", "attributes", n),
    ("skill", "skills"): lambda n: npgettext("list", "skill", "skills", n),
    ("gift", "gifts"): lambda n: npgettext("list", "gift", "gifts", n),
    ("fault", "faults"): lambda n: npgettext("list", "fault", "faults", n),
    ("power", "powers"): lambda n: npgettext("list", "power", "powers", n),
    ("ability", "abilities"): lambda n: npgettext("list", "ability", "abilities", n),
    ("field of expertise", "fields of expertise"): lambda n: npgettext(
        "list", "field of expertise", "fields of expertise", n
    ),
    ("field of power", "fields of power"): lambda n: npgettext(
        "list", "field of power", "fields of power", n
    ),
    # What a budget is counted in (Terms.pool_words), beside the gifts and faults above.
    ("attribute level", "attribute levels"): lambda n: npgettext(
        "budget", "attribute level", "attribute levels", n
    ),
    ("skill level", "skill levels"): lambda n: npgettext(
        "budget", "skill level", "skill levels", n
    ),
    ("token", "tokens"): lambda n: npgettext("budget", "token", "tokens", n),
    # The points spent at the table, counted: "1 meta point in hand", "3 Metapunkte".
    ("meta point", "meta points"): lambda n: npgettext(
        "points, counted", "meta point", "meta points", n
    ),
    ("Fudge point", "Fudge points"): lambda n: npgettext(
        "points, counted", "Fudge point", "Fudge points", n
    ),
}
# One of a list with its article, which only the language knows ("une compétence").
WITH_ARTICLE = {
    "attribute": pgettext_lazy("list, with an article", "an attribute"),
    "skill": pgettext_lazy("list, with an article", "a skill"),
    "gift": pgettext_lazy("list, with an article", "a gift"),
    "fault": pgettext_lazy("list, with an article", "a fault"),
    "power": pgettext_lazy("list, with an article", "a power"),
    "ability": pgettext_lazy("list, with an article", "an ability"),
    "field of expertise": pgettext_lazy("list, with an article", "a field of expertise"),
    "field of power": pgettext_lazy("list, with an article", "a field of power"),
}

# Every other word, by the kind of thing it names (rules.words.Term.kind).
TERMS = {
    "list title": {
        "Attributes": pgettext_lazy("list title", "Attributes"),
        "Skills": pgettext_lazy("list title", "Skills"),
        "Gifts": pgettext_lazy("list title", "Gifts"),
        "Faults": pgettext_lazy("list title", "Faults"),
        "Powers": pgettext_lazy("list title", "Powers"),
        "Abilities": pgettext_lazy("list title", "Abilities"),
        "Fields of expertise": pgettext_lazy("list title", "Fields of expertise"),
        "Fields of power": pgettext_lazy("list title", "Fields of power"),
    },
    "game master": {
        "GM": pgettext_lazy("game master", "GM"),
        "Narrator": pgettext_lazy("game master", "Narrator"),
    },
    "points": {
        "meta points": pgettext_lazy("points", "meta points"),
        "Fudge points": pgettext_lazy("points", "Fudge points"),
        "tokens": pgettext_lazy("points", "tokens"),  # MicroFudged's, spent at the table
    },
    "difficulty": {
        "easy": pgettext_lazy("difficulty", "easy"),
        "average": pgettext_lazy("difficulty", "average"),
        "hard": pgettext_lazy("difficulty", "hard"),
        "very hard": pgettext_lazy("difficulty", "very hard"),
        "Easy": pgettext_lazy("difficulty", "Easy"),
        "Average": pgettext_lazy("difficulty", "Average"),
        "Hard": pgettext_lazy("difficulty", "Hard"),
        "Very Hard": pgettext_lazy("difficulty", "Very Hard"),
    },
    "ruleset": {
        "Fudge objective creation (Fudge Basics)": pgettext_lazy(
            "ruleset", "Fudge objective creation (Fudge Basics)"
        ),
        "Mudge": pgettext_lazy("ruleset", "Mudge"),
        "MicroFudged DIP (tokens)": pgettext_lazy("ruleset", "MicroFudged DIP (tokens)"),
        "Streamlined MicroFudged": pgettext_lazy("ruleset", "Streamlined MicroFudged"),
    },
    "power kind": dict(PowerKind.choices),
    # A piece of equipment's kind as a fact about it ("weapon", "arme"): Equipment.Kind's labels
    # are the capitalised choices of a form ("Weapon").
    "equipment kind": {
        Equipment.Kind.WEAPON: pgettext_lazy("equipment kind", "weapon"),
        Equipment.Kind.ARMOUR: pgettext_lazy("equipment kind", "armour"),
        Equipment.Kind.SHIELD: pgettext_lazy("equipment kind", "shield"),
        Equipment.Kind.GEAR: pgettext_lazy("equipment kind", "gear"),
    },
    "experience unit": {
        "EP": pgettext_lazy("experience unit", "EP"),
        "XP": pgettext_lazy("experience unit", "XP"),
        "token": pgettext_lazy("experience unit", "token"),
        "experience": pgettext_lazy("experience unit", "experience"),
    },
    "advancement purchase": {
        "gift": pgettext_lazy("advancement purchase", "gift"),
        "power": pgettext_lazy("advancement purchase", "power"),
        "meta point": pgettext_lazy("advancement purchase", "meta point"),
        "buy off fault": pgettext_lazy("advancement purchase", "buy off fault"),
    },
    "cost unit": {
        "skill level": pgettext_lazy("cost unit", "skill level"),
        "token": pgettext_lazy("cost unit", "token"),
    },
    "harm": {
        "Wounds": pgettext_lazy("harm", "Wounds"),
        "Setbacks": pgettext_lazy("harm", "Setbacks"),
        "Damage": pgettext_lazy("harm", "Damage"),
        "Successes": pgettext_lazy("harm", "Successes"),
    },
    "wound": {
        "Scratch": pgettext_lazy("wound", "Scratch"),
        "Hurt": pgettext_lazy("wound", "Hurt"),
        "Very Hurt": pgettext_lazy("wound", "Very Hurt"),
        "Incapacitated": pgettext_lazy("wound", "Incapacitated"),
        "Near Death": pgettext_lazy("wound", "Near Death"),
        "Setback (Wound)": pgettext_lazy("wound", "Setback (Wound)"),
        "Major Setback (Severe wound)": pgettext_lazy("wound", "Major Setback (Severe wound)"),
        "Extreme Setback (Grievous injury)": pgettext_lazy(
            "wound", "Extreme Setback (Grievous injury)"
        ),
        # MicroFudged's lethal setbacks on the play page's track (rules.play, DIP V.3).
        "Wound": pgettext_lazy("wound", "Wound"),
        "Severe Wound": pgettext_lazy("wound", "Severe Wound"),
        "Grievous Injury": pgettext_lazy("wound", "Grievous Injury"),
    },
    # The built-in rulesets' own notes under a list, a track or the dice (Terms.equipment_hint,
    # personality_hint, dice_note; Harm.note): sentences of the rules, their citations kept.
    "ruleset note": {
        "Weapons feed the offensive damage factor, armour the defensive one (Fudge Basics, "
        "Offensive and Defensive Damage Factors).": pgettext_lazy(
            "ruleset note",
            "Weapons feed the offensive damage factor, armour the defensive one (Fudge "
            "Basics, Offensive and Defensive Damage Factors).",
        ),
        "Weapons feed the offensive damage factor, armour the defensive one (Mudge 4.54).": (
            pgettext_lazy(
                "ruleset note",
                "Weapons feed the offensive damage factor, armour the defensive one (Mudge 4.54).",
            )
        ),
        "Gear adds or subtracts cards: a weapon's cards go to Attack or Defence, armour's "
        "always and only to Defence (MicroFudged DIP VII.2).": pgettext_lazy(
            "ruleset note",
            "Gear adds or subtracts cards: a weapon's cards go to Attack or Defence, armour's "
            "always and only to Defence (MicroFudged DIP VII.2).",
        ),
        "Answer what helps the character come alive; none is required.": pgettext_lazy(
            "ruleset note", "Answer what helps the character come alive; none is required."
        ),
        "Mudge 1.35: answer what helps the character come alive; none is required.": (
            pgettext_lazy(
                "ruleset note",
                "Mudge 1.35: answer what helps the character come alive; none is required.",
            )
        ),
        "MicroFudged DIP I: one sentence says who the character is (the concept), another "
        "what they want; the rest helps them come alive.": pgettext_lazy(
            "ruleset note",
            "MicroFudged DIP I: one sentence says who the character is (the concept), another "
            "what they want; the rest helps them come alive.",
        ),
        "The odd-coloured fourth die is the damage die (Mudge 3.22). It counts in the roll "
        "like the other three; in combat its result (-1, 0 or +1) is also added to the "
        "damage, though it cannot bring positive damage below 1 (Mudge 4.61); and when an "
        "opposed action ties, the higher damage die wins.": pgettext_lazy(
            "ruleset note",
            "The odd-coloured fourth die is the damage die (Mudge 3.22). It counts in the roll "
            "like the other three; in combat its result (-1, 0 or +1) is also added to the "
            "damage, though it cannot bring positive damage below 1 (Mudge 4.61); and when an "
            "opposed action ties, the higher damage die wins.",
        ),
        "Use only the largest Setback of its type (MicroFudged DIP V.3): setbacks heal 1 card "
        "a day, lethal wounds 1 a week.": pgettext_lazy(
            "ruleset note",
            "Use only the largest Setback of its type (MicroFudged DIP V.3): setbacks heal 1 "
            "card a day, lethal wounds 1 a week.",
        ),
    },
    # The character file's personality questions and summaries (rules.character
    # PERSONALITY_QUESTIONS, Mudge 1.35): a form's labels and a sheet's headings.
    "personality question": {
        "What really matters to you? Anything you would give your life for?": pgettext_lazy(
            "personality question",
            "What really matters to you? Anything you would give your life for?",
        ),
        "What do you want? Which one thing do you desire most?": pgettext_lazy(
            "personality question", "What do you want? Which one thing do you desire most?"
        ),
        "For each thing desired, why?": pgettext_lazy(
            "personality question", "For each thing desired, why?"
        ),
        "How might getting what you want change you?": pgettext_lazy(
            "personality question", "How might getting what you want change you?"
        ),
        "Personality summary": pgettext_lazy("personality question", "Personality summary"),
        "History and background": pgettext_lazy("personality question", "History and background"),
    },
    # The labels of a sample power's rule-text lines (rules.catalog.CatalogPower.details).
    "power detail": {
        "Mana a casting lowers": pgettext_lazy("power detail", "Mana a casting lowers"),
        "Psyche a use lowers": pgettext_lazy("power detail", "Psyche a use lowers"),
        "Cost of a use": pgettext_lazy("power detail", "Cost of a use"),
        "Target": pgettext_lazy("power detail", "Target"),
        "Damage factor": pgettext_lazy("power detail", "Damage factor"),
        "Range": pgettext_lazy("power detail", "Range"),
        "Duration": pgettext_lazy("power detail", "Duration"),
        "Effect": pgettext_lazy("power detail", "Effect"),
    },
    "equipment value": {
        "Damage": pgettext_lazy("equipment value", "Damage"),
        "Armour": pgettext_lazy("equipment value", "Armour"),
        "Cards": pgettext_lazy("equipment value", "Cards"),
        "Defence cards": pgettext_lazy("equipment value", "Defence cards"),
    },
}


def ladder_is_standard(words) -> bool:
    """Whether a ladder is the standard one (or a stretch of it), so said in the reader's
    language; a ladder with a word of the GM's own is the GM's."""
    return all(word in LADDER for word in words)


def ladder_word(word: str) -> str:
    """A standard ladder word in the active language ("Superb" -> "Excellent")."""
    return str(LADDER[word])


def ladder_said(words) -> list[str]:
    """A ladder's words as its reader reads them: the standard ones in the active language,
    a GM's own ladder as written."""
    return [ladder_word(w) for w in words] if ladder_is_standard(words) else list(words)


def ladder_typed(words) -> list[str]:
    """The words a GM typed for a ladder (ladder_said showed them), kept as the standard
    ladder's English when each is a standard word, as written, in the active language or in
    English: a standard ladder stays standard, said in each reader's language. A ladder with
    a word of the GM's own is kept as typed, every word in the language the GM reads."""
    known = {str(said): word for word, said in LADDER.items()} | {word: word for word in LADDER}
    standard = [known.get(word) for word in words]
    return standard if all(standard) else list(words)


def ladder_text(text: str) -> str:
    """A standard ladder word, or one past its top or bottom ("Legendary+1"), in the active
    language; any other word as written."""
    word, sign, steps = text.partition("+") if "+" in text else text.partition("-")
    if word not in LADDER or (sign and not steps.isdigit()):
        return text
    return ladder_word(word) + sign + steps


def term(text: str, kind: str) -> str:
    """A built-in ruleset's word in the active language; any other word as written."""
    found = TERMS.get(kind, {}).get(text)
    return text if found is None else str(found)


def noun(one: str, many: str, count: int) -> str | None:
    """A list's noun in the active language, or None for a GM's own words."""
    found = NOUNS.get((one, many))
    return None if found is None else found(count)


def noun_with_article(one: str) -> str | None:
    found = WITH_ARTICLE.get(one)
    return None if found is None else str(found)


def label(text: str, kind: str) -> str:
    """A built-in word of `kind` standing alone, as a label (a badge, a choice, the first of
    a list of facts), with its capital: "Spell", "Sort"; a GM's own word as written."""
    if text not in TERMS.get(kind, {}):
        return text
    said = term(text, kind)
    return said[:1].upper() + said[1:]

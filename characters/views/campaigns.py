"""Campaign pages: create one, its page (rules, members, characters), its house rules, its
catalogue, its invite link and joining by it.

Only the GM changes a campaign; members see its page; anyone else gets a 404 (the lookups
in characters.selectors). The catalogue editor works row by row with htmx, and the same
forms post as plain HTML without JavaScript: the page redirects back after a write and
re-renders with the message and a 400 after a refusal.
"""

from collections import Counter
from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy
from django.views.decorators.http import require_POST, require_safe

from characters import rules_content, throttle, vocabulary
from characters.adapters import (
    base_ruleset,
    campaign_ruleset,
    power_from_entry,
    speak_campaign,
)
from characters.errors import HouseRulesRefused, ServiceError
from characters.forms.campaigns import (
    CampaignForm,
    CampaignSettingsForm,
    CatalogEntryForm,
    HouseRulesChangeForm,
    HouseRulesForm,
    WebhookForm,
    difficulty_word,
    house_rule_label,
)
from characters.knobs import level_word, parts_of, rule_words, said
from characters.models import Campaign, CatalogEntry, Character, NpcShown
from characters.pages.picker import said_details
from characters.selectors.access import campaign_for_gm, campaign_for_member, characters_visible_to
from characters.selectors.campaigns import (
    campaign_history,
    campaign_webhook_of,
    house_rules_preview,
    newer_ruleset_version,
)
from characters.selectors.npcs import campaign_npc_list, npcs_named_to
from characters.selectors.plans import party_plans
from characters.selectors.rulesets import summarize_ruleset
from characters.services import campaigns as services
from characters.services import webhooks
from characters.views.dashboard import join_throttles
from characters.views.methods import page_with_form
from characters.views.params import strict_number
from characters.wording import SPEAKER
from rules.house_rules import ATTRIBUTE_KEYS, LEVEL_KEYS, json_number
from rules.ladder import signed
from rules.rulesets import BUILTIN, DEFAULT, Ruleset

FORM_PAGE = "campaigns/campaign_form.html"
CATALOG_PAGE = "campaigns/catalog.html"
# The catalogue's kinds of entry, with the ruleset's list each one feeds (its title and what
# one entry is called come from the ruleset's terms), or a title and noun of their own.
CATALOG_KINDS = (
    (CatalogEntry.Kind.ATTRIBUTE, "attributes"),
    (CatalogEntry.Kind.SKILL, "skills"),
    (CatalogEntry.Kind.GIFT, "gifts"),
    (CatalogEntry.Kind.FAULT, "faults"),
    (CatalogEntry.Kind.POWER_KIND, ("Kinds of power", "kind of power")),
    (CatalogEntry.Kind.POWER, "powers"),
    (CatalogEntry.Kind.EQUIPMENT, ("Equipment", "equipment")),
)
# The two groups with a title of their own, and every group's add button: said in the
# reader's language (a list's title and noun are the ruleset's, said by characters.vocabulary).
OWN_TITLES = {
    "Kinds of power": pgettext_lazy("catalogue group", "Kinds of power"),
    "Equipment": pgettext_lazy("catalogue group", "Equipment"),
}
OWN_ADD_LABELS = {
    "kind of power": pgettext_lazy("catalogue group", "Add kind of power"),
    "equipment": pgettext_lazy("catalogue group", "Add equipment"),
}


def group_names(ruleset: Ruleset) -> dict[str, tuple[str, str]]:
    """A catalogue group's title and what one entry is called, in the ruleset's words; only
    the kinds the ruleset has (MicroFudged: no gifts or faults)."""
    names = {}
    for kind, names_or_list in CATALOG_KINDS:
        if isinstance(names_or_list, tuple):
            names[kind] = names_or_list
        elif names_or_list in ruleset.terms.lists:
            names[kind] = ruleset.terms.lists[names_or_list]
    return names


# -- creating a campaign and its house rules ---------------------------------------------------


@page_with_form
def campaign_new(request):
    if request.method == "POST":
        campaign_form = CampaignForm(request.POST)
        base = BUILTIN.get(request.POST.get("base_ruleset"), DEFAULT)
        rules_form = HouseRulesForm(request.POST, base=base)
        if campaign_form.is_valid() and rules_form.is_valid():
            try:
                campaign = services.campaign_create(
                    gm=request.user,
                    name=campaign_form.cleaned_data["name"],
                    base_ruleset=campaign_form.cleaned_data["base_ruleset"],
                    house_rules=rules_form.overrides(),
                )
            except HouseRulesRefused as error:
                rules_form.add_refusal(error)
            except ServiceError as error:
                campaign_form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    gettext("{name} is ready. Invite your players with the link below.").format(
                        name=campaign.name
                    ),
                )
                return redirect("campaign_detail", campaign.pk)
        context = {"campaign_form": campaign_form, "rules_form": rules_form}
        return render(request, FORM_PAGE, context, status=400)
    # A GET with a base ruleset comes from switching it: the house rules are shown again
    # beside the new base's values, keeping what was typed.
    slug = request.GET.get("base_ruleset")
    base = BUILTIN.get(slug, DEFAULT)
    rules_form = HouseRulesForm(request.GET if slug else None, base=base)
    if request.htmx:
        return render(request, f"{FORM_PAGE}#house_rules", {"rules_form": rules_form})
    campaign_form = CampaignForm(
        initial={"name": request.GET.get("name", ""), "base_ruleset": base.slug}
    )
    return render(request, FORM_PAGE, {"campaign_form": campaign_form, "rules_form": rules_form})


@page_with_form
def house_rules_edit(request, pk):
    """The form; a POST with `preview` shows what the change does to each character and
    saves nothing (the same page, with a Save button under the table); any other POST saves."""
    campaign = campaign_for_gm(request.user, pk)
    base = base_ruleset(campaign)
    # Bound on every POST: an all-empty form is a real answer (drop every house rule).
    data = request.POST if request.method == "POST" else None
    form = HouseRulesForm(data, base=base, overrides=campaign.house_rules)
    change_form = HouseRulesChangeForm(data)
    context = {"campaign": campaign, "rules_form": form, "change_form": change_form}
    if form.is_bound and form.is_valid() and change_form.is_valid():
        try:
            if "preview" in request.POST:
                context["preview"] = house_rules_preview(campaign, form.overrides())
                return render(request, FORM_PAGE, context)
            services.campaign_update_house_rules(
                campaign=campaign,
                actor=request.user,
                house_rules=form.overrides(),
                reason=change_form.cleaned_data["reason"],
            )
        except HouseRulesRefused as error:
            form.add_refusal(error)
        else:
            messages.success(request, gettext("House rules saved."))
            return redirect("campaign_detail", campaign.pk)
    return render(request, FORM_PAGE, context, status=400 if form.is_bound else 200)


# -- the campaign page, its invite link, its members -------------------------------------------


@dataclass(frozen=True)
class HouseRuleChange:
    label: str
    value: str
    base: str


@require_safe
def campaign_detail(request, pk):
    campaign = campaign_for_member(request.user, pk)
    is_gm = campaign.gm_id == request.user.pk
    ruleset = campaign_ruleset(campaign)
    context = {
        "campaign": campaign,
        "is_gm": is_gm,
        "ruleset": ruleset,
        "rules": summarize_ruleset(ruleset),  # the numbers in force: house rules applied
        "changes": house_rule_changes(campaign, ruleset),
        # A GM sees every character in the campaign, a player only their own.
        "characters": list(
            characters_visible_to(request.user)
            .players()  # the GM's NPCs have their own section
            .filter(campaign=campaign)
            .order_by("name")
        ),
    }
    if is_gm:
        # Counted from the list above, so the members' counts agree with it.
        owned = Counter(character.owner_id for character in context["characters"])
        members = list(campaign.memberships.select_related("user").order_by("user__username"))
        for membership in members:
            membership.character_count = owned[membership.user_id]
        context["members"] = members
        context["gm_character_count"] = owned[campaign.gm_id]
        context["invite_url"] = invite_url(request, campaign)
        context["newer_version"] = newer_ruleset_version(campaign)
        context["settings_form"] = CampaignSettingsForm(
            initial={
                "spends_need_approval": campaign.spends_need_approval,
                "npc_roll_method": campaign.npc_roll_method,
                "npc_damage_thresholds": campaign.npc_damage_thresholds,
            }
        )
        context["webhook"] = campaign_webhook_of(campaign)
        context["webhook_form"] = WebhookForm()
        context["npcs"] = campaign_npc_list(campaign)
        context["shown_choices"] = NpcShown.choices
    else:
        context["shown_npcs"] = npcs_named_to(campaign)
    return render(request, "campaigns/detail.html", context)


@require_POST
def campaign_settings(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    form = CampaignSettingsForm(request.POST)
    back = reverse("campaign_detail", args=[campaign.pk]) + "#settings"
    if not form.is_valid():  # checkboxes always are (absent is False); a method may not be
        field, errors = next(iter(form.errors.items()))
        messages.error(
            request,
            gettext("Nothing was saved. {field}: {errors}").format(
                field=form.fields[field].label, errors=" ".join(errors)
            ),
        )
        return redirect(back)
    data = form.cleaned_data
    services.campaign_update_settings(
        campaign=campaign,
        actor=request.user,
        spends_need_approval=data["spends_need_approval"],
        npc_roll_method=data["npc_roll_method"] or None,
        npc_damage_thresholds=data["npc_damage_thresholds"],
    )
    messages.success(request, gettext("Settings saved."))
    return redirect(back)


@require_POST
def campaign_webhook(request, pk):
    """The GM gives the campaign a webhook: each roll of its dice log is posted there."""
    campaign = campaign_for_gm(request.user, pk)
    form = WebhookForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(" ".join(e for errors in form.errors.values() for e in errors))
        webhooks.webhook_set(
            campaign=campaign,
            actor=request.user,
            url=form.cleaned_data["url"],
            site_url=request.build_absolute_uri("/"),
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, gettext("Webhook set: each roll of the dice log is posted there.")
        )
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#webhook")


@require_POST
def campaign_webhook_revoke(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    try:
        webhooks.webhook_revoke(campaign=campaign, actor=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("Webhook revoked: no roll is posted there any more."))
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#webhook")


@require_safe
def campaign_history_page(request, pk):
    """Every change to the campaign, newest first: the GM's alone, like the changes."""
    campaign = campaign_for_gm(request.user, pk)
    context = {"campaign": campaign, "lines": campaign_history(campaign)}
    return render(request, "campaigns/history.html", context)


def invite_url(request, campaign: Campaign) -> str:
    return request.build_absolute_uri(reverse("campaign_join", args=[campaign.invite_code]))


@require_POST
def invite_regenerate(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    services.campaign_regenerate_invite(campaign=campaign, actor=request.user)
    if request.htmx:
        context = {"campaign": campaign, "invite_url": invite_url(request, campaign)}
        return render(request, "campaigns/detail.html#invite", context)
    messages.success(request, gettext("New invite link made: the old one no longer works."))
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invite")


@page_with_form
def campaign_join(request, code):
    """The invite link: shows which campaign it is, and joins it on a POST."""
    with throttle.attempt(join_throttles(request)) as tried:
        if tried.wait:
            return throttle.too_many(
                request,
                tried.wait,
                tried.throttle,
                lambda: render(
                    request, "campaigns/join.html", {"campaign": None, "throttled": True}
                ),
            )
        campaign = Campaign.objects.select_related("gm").filter(invite_code=code).first()
        if campaign is None:
            tried.keep()
            return render(request, "campaigns/join.html", {"campaign": None}, status=404)
    if campaign.gm_id == request.user.pk:
        messages.info(
            request,
            gettext("You run {name}: this link is for your players.").format(name=campaign.name),
        )
        return redirect("campaign_detail", campaign.pk)
    if campaign.has_member(request.user):  # the GM's case is above, with its own words
        messages.info(request, gettext("You are already in {name}.").format(name=campaign.name))
        return redirect("campaign_detail", campaign.pk)
    if request.method == "POST":
        try:
            services.campaign_join(user=request.user, code=code)
        except ServiceError as error:  # the GM made a new link since this page was shown
            messages.error(request, str(error))
            return redirect("dashboard")
        messages.success(request, gettext("Welcome to {name}!").format(name=campaign.name))
        return redirect("campaign_detail", campaign.pk)
    return render(request, "campaigns/join.html", {"campaign": campaign})


@page_with_form
def member_remove(request, pk, membership_pk):
    """A confirmation page, then the POST that removes the player."""
    campaign = campaign_for_gm(request.user, pk)
    membership = get_object_or_404(
        campaign.memberships.select_related("user"),
        pk=membership_pk,
    )
    if request.method == "POST":
        services.membership_remove(membership=membership, actor=request.user)
        messages.success(
            request,
            gettext("{user} is no longer in {name}.").format(
                user=membership.user.username, name=campaign.name
            ),
        )
        return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#members")
    characters = Character.objects.filter(campaign=campaign, owner=membership.user)
    context = {"campaign": campaign, "membership": membership, "characters": characters}
    return render(request, "campaigns/member_remove.html", context)


def house_rule_changes(campaign: Campaign, ruleset: Ruleset) -> list[HouseRuleChange]:
    """The campaign's house rules, each beside the base ruleset's value."""
    base = base_ruleset(campaign)
    return [
        HouseRuleChange(
            label=house_rule_label(base, key),
            value=describe_rule(ruleset, key),
            base=describe_rule(base, key),
        )
        for key in campaign.house_rules
    ]


def describe_rule(ruleset: Ruleset, key: str) -> str:
    """A house rule's value in the reader's language: the ruleset's levels and lists in its
    words (characters.vocabulary), numbers as the language writes them."""
    if key == "advancement_costs":  # no attribute of its own: the ruleset's advancement
        return advancement_words(ruleset)
    value = getattr(ruleset, key)
    if key in ("attribute_caps", "skill_caps"):
        caps = sorted(value.items(), reverse=True)
        described = ", ".join(f"{n} {level_word(ruleset, level)}" for level, n in caps)
        return described or pgettext("house rule value", "no caps")
    if key == "extra_attributes":
        described = ", ".join(f"{name} ({level_word(ruleset, d)})" for name, d in value)
        return described or pgettext("house rule value", "none")
    if key == "trade_values":
        return ", ".join(
            f"{list_word(ruleset, k + 's')} {SPEAKER.number(json_number(v))}"
            for k, v in value.items()
        )
    if key in LEVEL_KEYS:
        return level_word(ruleset, value)
    if key in ATTRIBUTE_KEYS:  # as the rows name it: "Willenskraft"
        return rules_content.rules_name(value) if value else pgettext("house rule value", "none")
    if isinstance(value, bool):
        return pgettext("house rule value", "yes") if value else pgettext("house rule value", "no")
    if isinstance(value, str):
        return value
    if value is None:
        return pgettext("house rule value", "no limit")
    return SPEAKER.number(json_number(value))


def advancement_words(ruleset: Ruleset) -> str:
    """The experience costs a GM may change, each by the form's label: "A new gift: 4"."""
    costs, words = ruleset.advancement, rule_words(ruleset)
    described = pgettext("list separator", "; ").join(
        pgettext("house rule value", "{label}: {value}").format(
            label=said(cost.label, words), value=getattr(costs, cost.part)
        )
        for cost in parts_of("advancement_costs")
        if cost.house_rule and costs is not None and getattr(costs, cost.part, None) is not None
    )
    return described or pgettext("house rule value", "none")


def list_word(ruleset: Ruleset, list_name: str) -> str:
    """What one of a list is called, in the reader's language ("compétence"); a GM's own
    word as written."""
    terms = ruleset.terms
    one, many = terms.noun(list_name), terms.plural(list_name)
    return vocabulary.noun(one, many, 1) or one


# -- the catalogue editor ----------------------------------------------------------------------


@dataclass
class CatalogRow:
    entry: CatalogEntry
    form: CatalogEntryForm | None = None  # while the row is being edited
    saved: bool = False  # just saved: the row says so

    @property
    def name(self) -> str:
        """The entry's name in the reader's language (the GM's own words first, then the
        built-in content's); a kind of power (Mudge 2.5's spell) by its word, "Spell", where a
        built-in kind is named by its key."""
        if self.entry.kind == CatalogEntry.Kind.POWER_KIND:
            return vocabulary.label(self.entry.name, "power kind")
        return rules_content.rules_name(self.entry.name)

    @property
    def key(self) -> str:
        """The entry's English name beside the name shown, for the GM: the key files and
        imports use ("Escalade (Climbing)"); "" where it is the name shown, or where it is a
        code and not a name (a kind of power's key, "spell", said by its word alone)."""
        if self.entry.kind == CatalogEntry.Kind.POWER_KIND or self.name == self.entry.name:
            return ""
        return self.entry.name

    @property
    def facts(self) -> list[str]:
        entry = self.entry
        facts = [kind_word(entry)] if entry.kind in _KINDED else []
        if entry.kind == CatalogEntry.Kind.POWER and isinstance(entry.details, dict):
            # cybernetics (Mudge 2.9), "cybernétique" in French
            facts.append(rules_content.rules_text(entry.details.get("group", "")))
        if entry.difficulty:
            facts.append(difficulty_word(entry.difficulty))
        if entry.cost is not None:
            amount = SPEAKER.number(json_number(entry.cost))
            if entry.kind == CatalogEntry.Kind.FAULT:
                facts.append(pgettext("catalogue", "value {amount}").format(amount=amount))
            else:
                facts.append(pgettext("catalogue", "cost {amount}").format(amount=amount))
        if entry.damage is not None:
            facts.append(
                pgettext("catalogue", "weapon {factor}").format(factor=signed(entry.damage))
            )
        if entry.armour is not None:
            facts.append(
                pgettext("catalogue", "armour {factor}").format(factor=signed(entry.armour))
            )
        return [fact for fact in facts if fact]

    @property
    def details(self) -> list[tuple[str, str]]:
        """A power's lines from the rule text, labelled (Mudge 2.52's spell form)."""
        if self.entry.kind != CatalogEntry.Kind.POWER:
            return []
        return list(said_details(power_from_entry(self.entry).details()))


_KINDED = (CatalogEntry.Kind.EQUIPMENT, CatalogEntry.Kind.POWER)


def kind_word(entry: CatalogEntry) -> str:
    """A piece of equipment's or a power's kind in the reader's language, as the label a
    badge is ("Weapon", "Spell"); a GM's own kind of power as written."""
    if entry.equipment_kind:
        return vocabulary.label(entry.equipment_kind, "equipment kind")
    return vocabulary.label(entry.power_kind, "power kind")


def add_label(noun: str) -> str:
    """The add button of a catalogue group: "Add skill"; in another language with the
    article it needs ("Ajouter une compétence"), a GM's own noun as written."""
    if noun in OWN_ADD_LABELS:
        return str(OWN_ADD_LABELS[noun])
    english = (get_language() or "en").startswith("en")
    word = noun if english else vocabulary.noun_with_article(noun) or noun
    return pgettext("catalogue group", "Add {noun}").format(noun=word)


@dataclass
class CatalogGroup:
    kind: str
    title: str
    add_label: str
    rows: list[CatalogRow]
    add_form: CatalogEntryForm
    adding: bool  # the add form stays open after an add, or to show why it was refused


@require_safe
def catalog(request, pk):
    """The GM edits the catalogue; the campaign's players read it (what they pick from)."""
    campaign = campaign_for_member(request.user, pk)
    if campaign.gm_id != request.user.pk:
        context = {**_catalog_context(campaign), "groups": _catalog_groups(campaign)}
        return render(request, CATALOG_PAGE, context | {"read_only": True})
    editing = None
    edit = strict_number(request.GET.get("edit"))
    if edit is not None:
        entry = campaign.catalog.filter(pk=edit).first()
        if entry is not None:
            editing = _entry_form(campaign, entry)
    return _catalog_page(request, campaign, editing=editing)


@require_POST
def catalog_entry_add(request, pk, kind):
    campaign = campaign_for_gm(request.user, pk)
    if kind not in group_names(base_ruleset(campaign)):
        raise Http404("No such kind of catalogue entry in this campaign.")
    form = _add_form(campaign, kind, data=request.POST)
    if form.is_valid():
        try:
            entry = services.catalog_entry_add(
                campaign=campaign, actor=request.user, kind=kind, **form.cleaned_data
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            campaign.refresh_from_db(fields=["catalog_version"])  # the words just saved
            if request.htmx:
                group = _catalog_groups(campaign, kinds=[kind], saved=entry.pk)[0]
                return render(request, f"{CATALOG_PAGE}#group", _catalog_context(campaign, group))
            messages.success(request, gettext("{name} added.").format(name=entry.name))
            return redirect(_catalog_url(campaign, anchor=f"entry-{entry.pk}"))
    if request.htmx:
        group = _catalog_groups(campaign, kinds=[kind], add_form=form)[0]
        context = _catalog_context(campaign, group)
        return render(request, f"{CATALOG_PAGE}#group", context, status=400)
    return _catalog_page(request, campaign, add_form=form, status=400)


@page_with_form
def catalog_entry(request, pk, entry_pk):
    """GET: the row, to show or (?edit=1) to edit; POST: save the row's changes."""
    campaign = campaign_for_gm(request.user, pk)
    entry = get_object_or_404(campaign.catalog, pk=entry_pk)
    anchor = f"entry-{entry.pk}"
    if request.method == "POST":
        form = _entry_form(campaign, entry, data=request.POST)
        if form.is_valid():
            try:
                entry = services.catalog_entry_update(
                    entry=entry, actor=request.user, **form.cleaned_data
                )
            except ServiceError as error:
                form.add_error(None, str(error))
            else:
                campaign.refresh_from_db(fields=["catalog_version"])  # the words just saved
                if request.htmx:
                    return _catalog_row(request, campaign, CatalogRow(entry, saved=True))
                messages.success(request, gettext("{name} saved.").format(name=entry.name))
                return redirect(_catalog_url(campaign, anchor=anchor))
        if request.htmx:
            return _catalog_row(request, campaign, CatalogRow(entry, form), status=400)
        return _catalog_page(request, campaign, editing=form, status=400)
    editing = "edit" in request.GET
    if not request.htmx:
        return redirect(_catalog_url(campaign, edit=entry.pk if editing else None, anchor=anchor))
    form = _entry_form(campaign, entry) if editing else None
    return _catalog_row(request, campaign, CatalogRow(entry, form))


@require_POST
def catalog_entry_remove(request, pk, entry_pk):
    campaign = campaign_for_gm(request.user, pk)
    entry = get_object_or_404(campaign.catalog, pk=entry_pk)
    services.catalog_entry_remove(entry=entry, actor=request.user)
    if request.htmx:
        return HttpResponse("")  # the row's place, now empty
    messages.success(request, gettext("{name} removed from the catalogue.").format(name=entry.name))
    return redirect(_catalog_url(campaign, anchor=f"group-{entry.kind}"))


def _catalog_page(request, campaign, *, editing=None, add_form=None, status=200):
    groups = _catalog_groups(campaign, editing=editing, add_form=add_form)
    context = {**_catalog_context(campaign), "groups": groups}
    return render(request, CATALOG_PAGE, context, status=status)


def _catalog_row(request, campaign, row, *, status=200):
    context = {**_catalog_context(campaign), "row": row}
    return render(request, f"{CATALOG_PAGE}#row", context, status=status)


def _catalog_context(campaign, group=None) -> dict:
    # Entry names and notes on the page are said in the reader's language, the GM's own
    # translations first (characters.rules_content).
    speak_campaign(campaign)
    context = {
        "campaign": campaign,
        "uses_difficulty": base_ruleset(campaign).skill_difficulties,
    }
    if group is not None:
        context["group"] = group
    return context


def _catalog_groups(campaign, *, kinds=None, editing=None, add_form=None, saved=None):
    """The catalogue by kind. `editing` is the form of the row being edited, `add_form` a
    refused add form to show again, `saved` the id of an entry just added."""
    names = group_names(base_ruleset(campaign))
    kinds = [kind for kind in kinds or names if kind in names]
    entries = {kind: [] for kind in kinds}
    for entry in campaign.catalog.filter(kind__in=kinds).order_by("id"):
        if editing is not None and editing.entry_pk == entry.pk:
            row = CatalogRow(entry, editing)
        else:
            row = CatalogRow(entry, saved=entry.pk == saved)
        entries[entry.kind].append(row)
    groups = []
    for kind in kinds:
        rows = entries[kind]
        if (
            kind != CatalogEntry.Kind.ATTRIBUTE
        ):  # attributes keep their order: new characters' order
            rows.sort(key=lambda row: row.entry.name.casefold())
        refused = add_form if add_form is not None and add_form.kind == kind else None
        title, noun = names[kind]
        title = OWN_TITLES.get(title) or vocabulary.term(title, "list title")
        groups.append(
            CatalogGroup(
                kind=kind,
                title=str(title),
                add_label=add_label(noun),
                rows=rows,
                add_form=refused or _add_form(campaign, kind),
                adding=refused is not None or any(row.saved for row in rows),
            )
        )
    return groups


def _add_form(campaign, kind, data=None) -> CatalogEntryForm:
    base = base_ruleset(campaign)
    return CatalogEntryForm(
        data,
        kind=kind,
        uses_difficulty=base.skill_difficulties,
        power_kinds=base.power_kinds,
        auto_id=f"add-{kind}-%s",
    )


def _entry_form(campaign, entry, data=None) -> CatalogEntryForm:
    base = base_ruleset(campaign)
    return CatalogEntryForm.for_entry(
        entry,
        uses_difficulty=base.skill_difficulties,
        power_kinds=base.power_kinds,
        data=data,
    )


def _catalog_url(campaign, *, anchor, edit=None) -> str:
    query = f"?edit={edit}" if edit is not None else ""
    return f"{reverse('campaign_catalog', args=[campaign.pk])}{query}#{anchor}"


@require_safe
def campaign_plans(request, pk):
    """The GM's compact list of the party's experience plans: each step priced now, read
    only (a plan is its player's own)."""
    campaign = campaign_for_gm(request.user, pk)
    context = {
        "campaign": campaign,
        "unit": campaign_ruleset(campaign).advancement.unit,
        "plans": party_plans(campaign),
    }
    return render(request, "campaigns/plans.html", context)

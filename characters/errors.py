"""Why a write was refused, for every layer: services raise these, reads that price a
change (selectors.advancement.price_spend) raise them too, and views answer with `status`."""

from django.utils.translation import gettext

from rules.words import Phrase


class ServiceError(Exception):
    """A write refused for a reason the user can act on; `str(error)` says how. `field`
    names the form field the user fixes it in, when there is one, so the message shows
    there ("override_reason")."""

    status = 400

    def __init__(self, message: str = "", *, field: str | None = None):
        super().__init__(message)
        self.field = field


class StaleWrite(ServiceError):
    """The character changed since the page was loaded (another tab): nothing was saved."""

    status = 409


class Locked(ServiceError):
    """The character is submitted or approved: it is not edited directly."""

    status = 409


class DecisionRefused(ServiceError):
    """A decision form's one-time token did not hold (services.decisions): missing, not one
    the server issued, expired, already used, another user's or another decision's. Nothing
    was done; the message says which and what to do. 409 when the form was good once (used,
    expired), else 400."""

    def __init__(self, message: str, *, status: int):
        super().__init__(message)
        self.status = status


class PrinterBusy(ServiceError):
    """No PDF render slot came in time (characters.render_slots): try again shortly."""

    status = 429
    retry_after = 5  # seconds


class PortraitBusy(ServiceError):
    """No portrait decoding slot came in time (characters.images): try again shortly."""

    status = 503
    retry_after = 5  # seconds


class OwnCampaign(ServiceError):
    """The GM tried the invite code of the campaign they run: not a wrong guess, and nothing
    to join. `campaign` is theirs, for the view to send them to."""

    def __init__(self, campaign):
        super().__init__(
            gettext("You run {campaign}: this code is for your players.").format(
                campaign=campaign.name
            )
        )
        self.campaign = campaign


class NotAllowed(ServiceError):
    """The actor's role does not allow this (views answer 404 before it gets here)."""

    status = 403


class HouseRulesRefused(ServiceError):
    """House rules that make no sense: `problems`, every one found, as (key, message) with
    the key named as rules.house_rules does ("skill_levels", "attribute_caps.Superb",
    "extra_attributes[1]") and the message the engine's Phrase, said in the reader's
    language with characters.wording.said. Its own message (English), `phrase` and `key` are
    the first's."""

    def __init__(self, problems: list[tuple[str, Phrase | str]]):
        key, message = problems[0]
        super().__init__(str(message))
        self.key = key
        self.phrase = message  # said(error): the first problem in the reader's language
        self.problems = problems


class RulesetRefused(ServiceError):
    """A ruleset file that does not hold: `problems`, every one, as (field, reason) with the
    field named as rules.ruleset_file does ("ladder.fair", "numbers.skill_levels")."""

    def __init__(self, problems: list[tuple[str, str]]):
        where, message = problems[0]
        super().__init__(f"{where}: {message}" if where else message)
        self.problems = problems

"""A GM's decision happens once. Every decision form carries a one-time token
(templatetags.decisions); the decision stores it in its own transaction, so the same post
sent again (a double click, a retry after a timeout, two tabs sending one form) finds it
taken and changes nothing. A refused decision stores nothing: the form can be sent again."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from characters.errors import AlreadyDone
from characters.models import DecisionToken


@transaction.atomic
def decision_once(*, actor, token: str, decide):
    """`decide()`, unless `token` was used already (AlreadyDone). No token (a script, a page
    from before tokens): decided as posted."""
    if token:
        try:
            with transaction.atomic():
                DecisionToken.objects.create(token=token, user=actor)
        except IntegrityError:  # the first post of this form stored it, and its decision
            raise AlreadyDone(
                _("That was done already: the first click counted, this one changed nothing.")
            ) from None
    return decide()

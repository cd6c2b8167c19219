"""Sessions that know their user: a signed-in request reads its session and its user in one
statement, not two (issue 40: the floor under every page and edit).

Django's database sessions store the user's id only inside the encoded data, so the
authentication middleware reads the user with a second query. Here the session's row also
carries the user as a foreign key, written from that same data at every save; loading a
session joins the user in, and the authentication backend takes that user when the id the
session names is the same. Everything else, the session hash check included, is Django's.
"""

from contextvars import ContextVar

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends import db
from django.utils import timezone

from characters.compiled import CompiledRead

# The user read with the session being loaded in this thread (or task): set, to the user or
# to None, by every load, so a request never sees an earlier one's.
_session_user: ContextVar = ContextVar("session_user", default=None)


class SessionStore(db.SessionStore):
    @classmethod
    def get_model_class(cls):
        from characters.models import UserSession  # as Django's own store: apps load first

        return UserSession

    def _get_session_from_db(self):
        """Django's read, compiled once: the session by its key, its user joined in
        (UserSession's manager), unexpired as Django's query asks (expire_date > now)."""
        key = self.session_key
        found = _SESSION_BY_KEY(key) if key else []
        session = found[0] if found and found[0].expire_date > timezone.now() else None
        if session is None:
            self._session_key = None
        _session_user.set(session.user if session is not None else None)
        return session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        session.user_id = data.get(SESSION_KEY)
        return session


# Every signed-in request reads its session (characters.compiled).
_SESSION_BY_KEY = CompiledRead(
    lambda key: SessionStore.get_model_class().objects.filter(session_key=key)
)


class SessionUserBackend(ModelBackend):
    """Django's model backend, which takes the user its session was read with."""

    def get_user(self, user_id):
        user = _session_user.get()
        if user is not None and str(user.pk) == str(user_id):
            return user if self.user_can_authenticate(user) else None
        return super().get_user(user_id)

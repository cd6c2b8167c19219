"""Services: every write goes through a function here, named <entity>_<action>, keyword-only,
in one transaction, recording what changed in the audit trail (audit.record_event)."""


class ServiceError(Exception):
    """A write refused for a reason the user can act on; `str(error)` says how."""

    status = 400


class StaleWrite(ServiceError):
    """The character changed since the page was loaded (another tab): nothing was saved."""

    status = 409


class Locked(ServiceError):
    """The character is submitted or approved: it is not edited directly."""

    status = 409

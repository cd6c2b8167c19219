"""Services: every write goes through a function here, named <entity>_<action>, keyword-only,
in one transaction, recording what changed in the audit trail (audit.record_event)."""

"""`manage.py api_token USERNAME [--name NAME]`: make a personal API token for a user and
print it (the last word of the output: `TOKEN=$(manage.py api_token gm | awk '{print $NF}')`).
`--list` shows the user's tokens, `--revoke PREFIX` revokes one. docs/api.md."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from characters.selectors.interop import api_tokens_of
from characters.services.api_tokens import api_token_create, api_token_revoke


class Command(BaseCommand):
    help = (
        "Create an API token for USERNAME and print it as the last word (it is shown only "
        "once), or --list the user's tokens, or --revoke the one whose prefix is given."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="what will use the token")
        action = parser.add_mutually_exclusive_group()
        action.add_argument(
            "--list", action="store_true", dest="list_tokens", help="list the user's tokens"
        )
        action.add_argument("--revoke", metavar="PREFIX", help="revoke the token with this prefix")

    def handle(self, *args, username, name, list_tokens, revoke, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user is called {username!r}.")
        if list_tokens:
            for token in api_tokens_of(user):
                used = token.last_used_at.isoformat() if token.last_used_at else "never"
                state = "active" if token.is_active else "revoked"
                self.stdout.write(f"{token.prefix}…  {state}  last used {used}  {token.name}")
            return
        if revoke:
            tokens = [t for t in api_tokens_of(user) if t.is_active and t.prefix.startswith(revoke)]
            if len(tokens) != 1:
                raise CommandError(
                    f"{len(tokens)} active tokens of {username} start with {revoke!r}: "
                    "give a prefix that names exactly one (see --list)."
                )
            api_token_revoke(token=tokens[0])
            self.stdout.write(f"Revoked {tokens[0]}.")
            return
        token, raw = api_token_create(user=user, name=name)
        self.stdout.write(
            f"Created the API token {token.name!r} for {username}. Keep it secret; it is not "
            f"shown again: {raw}"
        )

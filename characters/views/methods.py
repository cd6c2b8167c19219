"""The HTTP methods a view takes, said on every view (tests/app/test_permissions.py walks
them all): a page or a download only reads (Django's `require_safe`: GET and HEAD), a page
with its own form takes that form's POST too (`page_with_form`), an action takes only a
POST (`require_POST`). Any other method is a 405, which characters.middleware puts in words."""

from django.views.decorators.http import require_http_methods

page_with_form = require_http_methods(["GET", "HEAD", "POST"])
# The same for Django's class-based forms (sign-in, password change), which take a PUT as a
# POST unless told their methods.
FORM_VIEW_METHODS = ["get", "head", "post", "options"]

"""The account page: a link to change the password, and personal API tokens (docs/api.md):
create one (shown once), see when each was last used, revoke one."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from characters.forms.api_tokens import ApiTokenForm, NotificationEmailForm
from characters.selectors.interop import api_token_for_owner, api_tokens_of
from characters.services.api_tokens import api_token_create, api_token_revoke
from characters.views.methods import page_with_form


@page_with_form
@never_cache  # the page that shows a new token must not be kept by any cache
def account(request):
    form = ApiTokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        token, raw = api_token_create(user=request.user, name=form.cleaned_data["name"])
        created = {"token": token, "raw": raw}
        form = ApiTokenForm()
    status = 400 if form.errors else 201 if created else 200
    return render(
        request,
        "accounts/account.html",
        {
            "form": form,
            "created": created,
            "tokens": api_tokens_of(request.user),
            "email_form": NotificationEmailForm(initial={"email": request.user.email}),
        },
        status=status,
    )


@require_POST
def api_token_revoke_view(request, pk):
    token = api_token_revoke(token=api_token_for_owner(request.user, pk))
    messages.success(
        request,
        _("Revoked the token “{name}” ({prefix}…).").format(name=token.name, prefix=token.prefix),
    )
    return redirect("account")

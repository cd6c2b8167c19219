"""Signing up and logging in. Logging out and changing a password are Django's own views
(config/urls.py); every one uses Fairsheet's templates (templates/registration/). Failed
logins and sign-ups are throttled (characters/throttle.py)."""

from urllib.parse import urlsplit

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import UserCreationForm
from django.forms.forms import NON_FIELD_ERRORS
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme

from characters import throttle
from characters.models import Campaign


def invite_for(request, next_url: str) -> Campaign | None:
    """The campaign an invite link leads to, when the visitor is on the way to one: the
    log-in and sign-up pages name it. A code that leads nowhere counts against the join
    throttle, as on the join page, so these pages are no way round it."""
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.url_name != "campaign_join":
        return None
    with throttle.attempt([(throttle.JOIN_BY_ADDRESS, throttle.client_address(request))]) as tried:
        if tried.wait:
            return None
        campaign = Campaign.objects.select_related("gm").filter(invite_code=match.kwargs["code"])
        campaign = campaign.first()
        if campaign is None:
            tried.keep()
        return campaign


class LoginView(auth_views.LoginView):
    """Django's login, refusing an account or an address after too many failures."""

    def post(self, request, *args, **kwargs):
        with throttle.attempt(self._throttles()) as self.attempt:
            if self.attempt.wait:
                form = self.form_class(request, initial={"username": self._username()})
                return throttle.too_many(
                    request,
                    self.attempt.wait,
                    self.attempt.throttle,
                    lambda: self.render_to_response(self.get_context_data(form=form)),
                )
            return super().post(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        return context | {"invite": invite_for(self.request, context.get("next", ""))}

    def form_invalid(self, form):
        if form.has_error(NON_FIELD_ERRORS, "invalid_login"):
            self.attempt.keep()
        return super().form_invalid(form)

    def _username(self) -> str:
        return self.request.POST.get("username", "")[:150]

    def _throttles(self):
        return [
            (throttle.LOGIN_BY_USERNAME, throttle.username_key(self._username())),
            (throttle.LOGIN_BY_ADDRESS, throttle.client_address(self.request)),
        ]


@login_not_required
def signup(request):
    next_url = request.POST.get("next") or request.GET.get("next", "")
    # Only a path on this site: never another site, and never a bare word, which
    # redirect() would take for the name of a URL.
    if not next_url.startswith("/") or not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "dashboard")
    form = UserCreationForm(request.POST or None)
    invite = invite_for(request, next_url)

    def page(status=200):
        context = {"form": form, "next": next_url, "invite": invite}
        return render(request, "registration/signup.html", context, status=status)

    if request.method == "POST":
        address = throttle.client_address(request)
        with throttle.attempt([(throttle.SIGNUP_BY_ADDRESS, address)]) as tried:
            if tried.wait:
                form = UserCreationForm()
                return throttle.too_many(request, tried.wait, tried.throttle, page)
            tried.keep()  # every sign-up counts, made or not
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url or "dashboard")
    return page(status=400 if form.is_bound else 200)

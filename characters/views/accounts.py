"""Signing up and logging in, and the language of the pages. Logging out and changing a
password are Django's own views (config/urls.py); every one uses Fairsheet's templates
(templates/registration/). Failed logins and sign-ups are throttled (characters/throttle.py).
A person's chosen language is restored at each log-in (characters/languages.py)."""

from urllib.parse import quote, urlsplit

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import UserCreationForm
from django.forms.forms import NON_FIELD_ERRORS
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from characters import languages, throttle
from characters.forms.accounts import LanguageForm
from characters.models import Campaign
from characters.selectors.accounts import account_language
from characters.services.accounts import account_language_set
from characters.views.methods import FORM_VIEW_METHODS, page_with_form


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

    http_method_names = FORM_VIEW_METHODS

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
        next_url = context.get("next", "")
        return context | {
            "invite": invite_for(self.request, next_url),
            "signup_href": with_next(reverse("signup"), next_url),
        }

    def form_valid(self, form):
        response = super().form_valid(form)
        # The language the account chose wins over this browser's (characters/languages.py).
        language = account_language(self.request.user)
        if languages.supported(language):
            languages.remember(self.request, response, language)
        return response

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


def with_next(path: str, next_url: str) -> str:
    """`path`, passing `next_url` along (an invite link, say) when there is one."""
    return f"{path}?next={quote(next_url, safe='/')}" if next_url else path


def local_path(request, url: str) -> str:
    """`url` if it is a path on this site, else "": never another site, and never a bare
    word, which redirect() would take for the name of a URL."""
    if not url.startswith("/") or not url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    return url


@page_with_form
@login_not_required
def signup(request):
    next_url = local_path(request, request.POST.get("next") or request.GET.get("next", ""))
    if request.user.is_authenticated:
        return redirect(next_url or "dashboard")
    form = UserCreationForm(request.POST or None)
    invite = invite_for(request, next_url)

    def page(status=200):
        context = {
            "form": form,
            "next": next_url,
            "invite": invite,
            "login_href": with_next(reverse("login"), next_url),
        }
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
            login(request, user)
            # A language chosen before signing up is the new account's.
            chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
            if languages.supported(chosen):
                account_language_set(user=user, language=chosen)
                request.session[languages.SESSION_KEY] = chosen
            return redirect(next_url or "dashboard")
    return page(status=400 if form.is_bound else 200)


@login_not_required
@require_POST
def language_set(request):
    """The header's and the account page's language form: the pages in that language from
    now on, for this browser and, signed in, for the account wherever it logs in. A plain
    form (no script needed): back to the page it was sent from."""
    form = LanguageForm(request.POST)
    signed_in = request.user.is_authenticated
    back = local_path(request, request.POST.get("next", "")) or (
        "dashboard" if signed_in else "home"
    )
    response = redirect(back)
    if form.is_valid():
        language = form.cleaned_data["language"]
        if signed_in:
            account_language_set(user=request.user, language=language)
        languages.remember(request, response, language)
    return response

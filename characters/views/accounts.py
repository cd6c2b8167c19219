"""Signing up. Logging in and out and changing a password are Django's own views
(config/urls.py) with Fairsheet's templates (templates/registration/)."""

from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme


@login_not_required
def signup(request):
    next_url = request.POST.get("next") or request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""  # never send a new user to another site
    if request.user.is_authenticated:
        return redirect(next_url or "dashboard")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "dashboard")
    status = 400 if form.is_bound else 200
    return render(
        request, "registration/signup.html", {"form": form, "next": next_url}, status=status
    )

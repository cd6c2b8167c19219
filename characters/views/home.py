"""The landing page: the built-in rulesets, rendered from the engine's own data."""

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from characters.selectors.rulesets import ruleset_summaries, summarize_ruleset
from rules.rulesets import BUILTIN


@require_safe
@login_not_required
def home(request):
    return render(request, "home.html", {"rulesets": ruleset_summaries()})


@require_safe
@login_not_required
def ruleset_detail(request, slug):
    if slug not in BUILTIN:
        raise Http404("No such ruleset")
    return render(request, "ruleset.html", {"ruleset": summarize_ruleset(BUILTIN[slug])})


@require_safe
@login_not_required
def healthz(request):
    """For a load balancer's health check, and the benchmarks' bare-view baseline."""
    return HttpResponse("ok", content_type="text/plain")

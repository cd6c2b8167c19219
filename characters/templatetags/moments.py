"""When something happened, said as people say it: Django's timesince says "0 minutes" for
anything under a minute, which reads as a glitch; `{% if when|just_now %}` lets a template say
"just now" (French "à l'instant") instead."""

from datetime import timedelta

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def just_now(when) -> bool:
    return when is not None and timezone.now() - when < timedelta(minutes=1)

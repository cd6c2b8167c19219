"""A player's notifications: what the GM did (services.notifications), newest first."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from characters.errors import ServiceError
from characters.forms.api_tokens import NotificationEmailForm
from characters.selectors.notifications import notifications_for
from characters.services.notifications import notification_email_set, notifications_mark_read


def notifications(request):
    if request.method == "POST":  # "Mark all as read"
        notifications_mark_read(user=request.user)
        return redirect("notifications")
    return render(request, "notifications.html", {"items": notifications_for(request.user)})


@require_POST
def notification_email(request):
    """The account page's address for notifications (a plain form: the page redirects)."""
    form = NotificationEmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not saved: {reason}").format(reason=form.errors["email"][0]))
        return redirect("account")
    address = form.cleaned_data["email"]
    try:
        notification_email_set(user=request.user, email=address)
    except ServiceError as error:
        messages.error(request, _("Not saved: {reason}").format(reason=error))
        return redirect("account")
    if address:
        messages.success(request, _("Notifications go to {address}.").format(address=address))
    else:
        messages.success(request, _("No notification e-mails."))
    return redirect("account")

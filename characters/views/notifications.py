"""A player's notifications: what the GM did (services.notifications), newest first."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.errors import ServiceError
from characters.forms.api_tokens import NotificationEmailForm
from characters.models import Notification
from characters.selectors.notifications import notifications_for
from characters.services.notifications import notification_email_set, notifications_mark_read
from characters.views.methods import page_with_form


@page_with_form
def notifications(request):
    if request.method == "POST":  # "Mark all as read"
        notifications_mark_read(user=request.user)
        return redirect("notifications")
    return render(request, "notifications.html", {"items": notifications_for(request.user)})


# Experience and the GM's answers to requests are read on the advancement page; a build
# approved or sent back, in the builder.
ON_ADVANCEMENT = {
    Notification.Kind.EXPERIENCE,
    Notification.Kind.SPEND_ACCEPTED,
    Notification.Kind.SPEND_REFUSED,
}


@require_safe
def notification_open(request, pk):
    """A notification's link: it is read once opened (a GET, as a mail's link is followed;
    marking it read changes nothing but the header's count), then the page it is about."""
    note = get_object_or_404(request.user.notifications, pk=pk)
    notifications_mark_read(user=request.user, pk=note.pk)
    page = "character_advancement" if note.kind in ON_ADVANCEMENT else "character_builder"
    return redirect(page, note.character_id)


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

"""A character's portrait: the builder's upload form (a plain multipart post), and the
picture itself for whoever may see the character. What is served is only ever the JPEG
characters.images drew, with its own type and no sniffing."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import portrait_bytes
from characters.errors import PortraitBusy, ServiceError
from characters.images import MAX_BYTES
from characters.selectors.access import character_for_owner, character_for_viewer
from characters.services import portraits as services


def portrait_response(character) -> HttpResponse:
    content = portrait_bytes(character)
    if content is None:
        raise Http404("No portrait")
    response = HttpResponse(content, content_type="image/jpeg")
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = 'inline; filename="portrait.jpg"'
    response["Cache-Control"] = "private, max-age=3600"  # the URL names the picture's digest
    return response


@require_safe
def character_portrait(request, pk):
    return portrait_response(character_for_viewer(request.user, pk))


@require_POST
def portrait_upload(request, pk):
    character = character_for_owner(request.user, pk)
    upload = request.FILES.get("portrait")
    try:
        if request.POST.get("remove"):
            services.portrait_remove(character=character, actor=request.user)
            messages.success(
                request, _("{name}'s portrait is removed.").format(name=character.name)
            )
        elif upload is None:
            raise ServiceError("Choose a picture to upload: a PNG, JPEG or WebP.")
        elif upload.size > MAX_BYTES:
            raise ServiceError(
                _(
                    "The file is {size} MB: at most {most} MB. Save it smaller and upload it again."
                ).format(
                    size=formats.number_format(round(upload.size / 1024 / 1024, 1), 1),
                    most=MAX_BYTES // 1024 // 1024,
                )
            )
        else:
            services.portrait_set(character=character, actor=request.user, data=upload.read())
            messages.success(request, _("{name}'s portrait is set.").format(name=character.name))
    except PortraitBusy as busy:
        context = {"message": str(busy), "character": character}
        response = render(request, "characters/portrait_busy.html", context, status=busy.status)
        response["Retry-After"] = str(busy.retry_after)
        return response
    except ServiceError as error:
        messages.error(request, _("Portrait not saved: {reason}").format(reason=error))
    return redirect("character_builder", pk)

"""A portrait and a share link (issue 26). A portrait is any PNG, JPEG or WebP within the
limits, drawn again as a square JPEG (nothing of the upload is served back); a polyglot or a
50-megapixel PNG is refused with a message that says what to do. A share link shows the
sheet (HTML and PDF) without an account, says when it was last opened, and once revoked, or
guessed, is a plain 404."""

import io
import zipfile

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from characters import images
from characters.adapters import portrait_bytes, portrait_data_url
from characters.errors import ServiceError
from characters.models import CharacterEvent, ReviewComment, ShareLink
from characters.services.keeping import character_archive
from characters.services.portraits import portrait_set
from characters.services.sharing import share_link_create, share_link_revoke
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved
from tests.support.builder_fixtures import *  # noqa: F403


def picture(kind="PNG", size=(800, 400), mode="RGB", colour=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, colour if mode == "RGB" else 1).save(out, kind)
    return out.getvalue()


def a_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("evil.html", "<script>alert(1)</script>")
    return out.getvalue()


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP"])
def test_a_portrait_is_drawn_again_as_a_square_jpeg(character, player, login, kind):
    portrait_set(character=character, actor=player, data=picture(kind))
    kept = portrait_bytes(character)
    image = Image.open(io.BytesIO(kept))
    assert (image.format, image.size) == ("JPEG", (400, 400))  # the centre square
    assert image.getpixel((200, 200))[0] > 150  # still red
    response = login(player).get(reverse("character_portrait", args=[character.pk]))
    assert response["Content-Type"] == "image/jpeg" and response.content == kept
    assert response["X-Content-Type-Options"] == "nosniff"
    assert portrait_data_url(character).startswith("data:image/jpeg;base64,/9j/")
    event = character.events.get(action="portrait_set")
    assert len(event.after["sha256"]) == 64


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # A PNG that is also a web page: bytes after IEND.
        (
            lambda: picture("PNG") + b"<html><script>alert(1)</script></html>",
            "carries other data after the picture",
        ),
        # A JPEG that is also a ZIP archive (the classic polyglot).
        (lambda: picture("JPEG") + a_zip(), "carries other data after the picture"),
        # Markup inside the picture's own chunks (a PNG text chunk).
        (lambda: _png_with_text(b"<svg onload=alert(1)>"), "web page, script or archive"),
        # 50 megapixels, refused from its header before it is decoded.
        (
            lambda: picture("PNG", size=(10_000, 5_000), mode="1"),
            "10000 by 5000 pixels (50.0 megapixels): at most 16 megapixels",
        ),
        # The probe's picture: 25 megapixels in a 73 KB PNG, refused as well.
        (
            lambda: picture("PNG", size=(5_000, 5_000)),
            "5000 by 5000 pixels (25.0 megapixels): at most 16 megapixels",
        ),
        (lambda: picture("GIF"), "This is a GIF picture: upload a PNG, JPEG or WebP"),
        (lambda: b"GIF89a not really", "not a picture Fairsheet reads"),
        (lambda: picture("PNG", size=(20, 20)), "at least 64 on each side"),
        (lambda: picture("PNG")[:-200], "carries other data after the picture"),
    ],
)
def test_a_portrait_that_is_not_just_a_picture_is_refused(character, player, login, data, message):
    client = login(player)
    upload = io.BytesIO(data())
    upload.name = "portrait.png"
    response = client.post(
        reverse("portrait_upload", args=[character.pk]), {"portrait": upload}, follow=True
    )
    assert response.status_code == 200
    assert message in response.content.decode().replace("&#x27;", "'")
    assert portrait_bytes(character) is None
    assert not character.events.filter(action="portrait_set").exists()


def test_a_portrait_is_turned_upright_and_kept_on_white(character, player):
    # A camera's JPEG stored on its side (EXIF orientation 6: turn it a quarter clockwise),
    # red on its left and blue on its right: upright, the red is on top.
    sideways = Image.new("RGB", (1200, 800), (220, 0, 0))
    sideways.paste((0, 0, 220), (600, 0, 1200, 800))
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    sideways.save(out, "JPEG", exif=exif.tobytes())
    portrait_set(character=character, actor=player, data=out.getvalue())
    kept = Image.open(io.BytesIO(portrait_bytes(character)))
    assert kept.size == (512, 512)
    top, bottom = kept.getpixel((256, 20)), kept.getpixel((256, 490))
    assert top[0] > 180 and top[2] < 60 and bottom[2] > 180 and bottom[0] < 60
    # A large PNG with transparency, shrunk a band of rows at a time: its transparent left
    # half comes out white, its right half still red.
    half_clear = Image.new("RGBA", (2600, 2400), (0, 0, 0, 0))
    half_clear.paste((200, 30, 30, 255), (1300, 0, 2600, 2400))
    out = io.BytesIO()
    half_clear.save(out, "PNG")
    portrait_set(character=character, actor=player, data=out.getvalue())
    kept = Image.open(io.BytesIO(portrait_bytes(character)))
    assert kept.size == (512, 512)
    assert kept.getpixel((20, 256)) == (255, 255, 255)
    assert kept.getpixel((490, 256))[0] > 180 and kept.getpixel((490, 256))[1] < 60


def test_a_portrait_waits_its_turn_then_is_told_to_try_again(character, player, login, settings):
    # Another upload holds this process's only decoding slot for longer than the wait.
    settings.PORTRAIT_WAIT_SECONDS = 0.2
    assert settings.PORTRAIT_DECODES_PER_PROCESS == 1
    images._decode_slots.acquire()
    try:
        upload = io.BytesIO(picture("PNG"))
        upload.name = "portrait.png"
        response = login(player).post(
            reverse("portrait_upload", args=[character.pk]), {"portrait": upload}
        )
    finally:
        images._decode_slots.release()
    assert response.status_code == 503 and response["Retry-After"] == "5"
    page = response.content.decode().replace("&#x27;", "'")
    assert "The server is busy reading other pictures, so this portrait was not saved." in page
    assert f'href="/characters/{character.pk}/">Back to Brogo</a>' in page
    assert portrait_bytes(character) is None
    # The slot free again, the same upload is kept.
    upload.seek(0)
    response = login(player).post(
        reverse("portrait_upload", args=[character.pk]), {"portrait": upload}
    )
    assert response.status_code == 302 and portrait_bytes(character) is not None


def _png_with_text(text: bytes) -> bytes:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", text.decode())
    out = io.BytesIO()
    Image.new("RGB", (100, 100)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def test_the_portrait_is_on_the_builder_sheet_party_and_pdf(character, player, gm, login):
    approved(character, gm)
    portrait_set(character=character, actor=player, data=picture("PNG"))
    owner, master = login(player), login(gm)
    builder = owner.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert f"/characters/{character.pk}/portrait/?v=" in builder
    sheet = owner.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert 'class="portrait sheet-portrait"' in sheet and "data:image/jpeg;base64," in sheet
    party = master.get(reverse("campaign_party", args=[character.campaign_id])).content.decode()
    assert 'class="portrait portrait-party"' in party
    pdf = owner.get(reverse("character_sheet_pdf", args=[character.pk])).content
    assert b"/Subtype /Image" in pdf or b"/Subtype/Image" in pdf


def test_only_the_player_sets_the_portrait(character, gm, login):
    response = login(gm).post(
        reverse("portrait_upload", args=[character.pk]), {"portrait": io.BytesIO(picture())}
    )
    assert response.status_code == 404
    assert login(gm).get(reverse("character_portrait", args=[character.pk])).status_code == 404


def test_a_share_link_shows_the_sheet_without_an_account_until_revoked(
    character, climbing, player, gm, login
):
    approved(character, gm)
    ReviewComment.objects.create(
        character=character, author=gm, body="GM ONLY: he is the traitor", version=1
    )
    owner = login(player)
    response = owner.post(reverse("share_link_create", args=[character.pk]))
    assert response.status_code == 302
    link = ShareLink.objects.get()
    assert len(link.token) >= 32
    anonymous = Client()
    page = anonymous.get(reverse("shared_sheet", args=[link.token]))
    assert page.status_code == 200 and page["X-Robots-Tag"] == "noindex, nofollow"
    body = page.content.decode()
    assert "Brogo" in body and "Climbing" in body
    assert "GM ONLY" not in body and "/characters/" not in body  # no way into private pages
    pdf = anonymous.get(reverse("shared_sheet_pdf", args=[link.token]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    link.refresh_from_db()
    assert link.opened_count == 2 and link.last_opened_at is not None
    builder = owner.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Last opened" in builder and "(2 times)" in builder
    with pytest.raises(ServiceError, match="has a share link already"):
        share_link_create(character=character, actor=player)
    # The token never reaches the record.
    assert link.token not in str(list(CharacterEvent.objects.values_list("after", flat=True)))
    share_link_revoke(link=link, actor=player)
    assert anonymous.get(reverse("shared_sheet", args=[link.token])).status_code == 404
    assert anonymous.get(reverse("shared_sheet_pdf", args=[link.token])).status_code == 404


@pytest.mark.parametrize("token", ["x" * 32, "short", "a" * 200])
def test_a_guessed_share_link_is_a_plain_404(character, player, token):
    share_link_create(character=character, actor=player)
    response = Client().get(reverse("shared_sheet", args=[token]))
    assert response.status_code == 404


def test_archiving_ends_the_share_link_and_only_the_player_shares(character, player, gm, login):
    link = share_link_create(character=character, actor=player)
    assert login(gm).post(reverse("share_link_create", args=[character.pk])).status_code == 404
    character_archive(character=character, actor=player)
    assert Client().get(reverse("shared_sheet", args=[link.token])).status_code == 404
    link.refresh_from_db()
    assert link.revoked_at is not None

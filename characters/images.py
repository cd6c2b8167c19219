"""Portraits: an uploaded picture checked, decoded and drawn again with Pillow, so what is
kept and served back is only ever a square JPEG Fairsheet wrote itself: no metadata, no
trailing bytes, nothing another program could read as a page or a script.

Refused with a message that says what to do: a file too large, a picture of too many
pixels (checked from its header, before anything is decoded), anything but PNG, JPEG or
WebP, and a polyglot (a picture with other data after its end, or markup inside it).

Decoding is what costs: a 16-megapixel PNG is 64 MB of bitmap however small its file. So a
web process decodes PORTRAIT_DECODES_PER_PROCESS pictures at once (the others wait up to
PORTRAIT_WAIT_SECONDS, then are told to try again: PortraitBusy), a JPEG is decoded at the
smallest of 1/2, 1/4 or 1/8 of its size that still covers the kept square, and the full
bitmap is dropped as soon as the square is drawn from it (README, "Throttling and limits")."""

import io
import os
import struct
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.utils.translation import gettext as _
from PIL import Image

from characters.errors import PortraitBusy

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 16_000_000  # 16 megapixels: a phone photo, never a decompression bomb
MIN_SIDE = 64
SIDE = 512  # the square kept
FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "WEBP": "WebP"}
# Markup or archives hidden in a picture's bytes: what makes it a page, script or archive
# as well (a polyglot). Compressed image data holds none of these by chance in practice.
FOREIGN = (b"<script", b"<html", b"<body", b"<svg", b"<?php", b"%PDF-", b"PK\x03\x04")
# EXIF orientation: how a camera's picture is turned upright (as PIL.ImageOps.exif_transpose
# does, but on the small square, never on the full bitmap).
UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
# The mode a picture is shrunk in: averaged colours (a palette's and black-and-white's too).
# Any other (16-bit grey, say) is shrunk as RGB.
SHRINK_MODES = {
    "1": "L",
    "L": "L",
    "LA": "LA",
    "P": "RGBA",
    "PA": "RGBA",
    "RGB": "RGB",
    "RGBA": "RGBA",
    "CMYK": "CMYK",
}
_decode_slots = threading.BoundedSemaphore(settings.PORTRAIT_DECODES_PER_PROCESS)
DECODER_NICENESS = 10  # a tenth of a page's share of a busy CPU


def _lower_priority() -> None:
    """The decoding threads yield the CPU to the threads that serve pages: a picture may
    take a moment longer, another user's page should not. Linux sets a thread's priority
    alone; elsewhere the call would set the whole process's, so it is not made."""
    if sys.platform == "linux":
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), DECODER_NICENESS)


# Decoding happens on these threads, started when first needed (in each server process).
_decoders = ThreadPoolExecutor(
    settings.PORTRAIT_DECODES_PER_PROCESS, "portrait-decoder", initializer=_lower_priority
)


class PortraitRefused(ValueError):
    """Why an upload is not a portrait, in words for the player."""


def portrait_from_upload(data: bytes) -> bytes:
    """The square JPEG kept for an uploaded PNG, JPEG or WebP, or PortraitRefused."""
    if len(data) > MAX_BYTES:
        raise PortraitRefused(
            f"The file is {len(data) / 1024 / 1024:.1f} MB: at most {MAX_BYTES // 1024 // 1024} "
            "MB. Save it smaller (or as JPEG) and upload it again."
        )
    try:
        image = Image.open(io.BytesIO(data))
    except (OSError, Image.DecompressionBombError):
        raise PortraitRefused(
            "This file is not a picture Fairsheet reads: upload a PNG, JPEG or WebP."
        ) from None
    if image.format not in FORMATS:
        raise PortraitRefused(
            f"This is a {image.format} picture: upload a PNG, JPEG or WebP instead."
        )
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise PortraitRefused(
            f"The picture is {width} by {height} pixels ({width * height / 1e6:.1f} "
            f"megapixels): at most {MAX_PIXELS // 1_000_000} megapixels. Make it smaller "
            "and upload it again."
        )
    if min(width, height) < MIN_SIDE:
        raise PortraitRefused(
            f"The picture is {width} by {height} pixels: at least {MIN_SIDE} on each side."
        )
    _refuse_polyglot(data, image.format)
    if not _decode_slots.acquire(timeout=settings.PORTRAIT_WAIT_SECONDS):
        raise PortraitBusy(
            _(
                "The server is busy reading other pictures, so this portrait was not saved. "
                "Upload it again in a few seconds."
            )
        )
    try:
        square = _decoders.submit(_decoded_square, image).result()
    finally:
        image.close()  # the full bitmap goes now, before the JPEG is written
        _decode_slots.release()
    return _square_jpeg(square)


def _decoded_square(image: Image.Image) -> Image.Image:
    """The centre square, SIDE pixels a side (smaller pictures keep their size), upright,
    decoded with no more of the picture's bitmap in memory than its format allows."""
    kind = image.format
    # JPEG only: libjpeg decodes straight to 1/2, 1/4 or 1/8 of the size, at least SIDE
    # pixels a side. Any other format ignores it.
    image.draft(image.mode, (SIDE, SIDE))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image.load()
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombWarning):
        raise PortraitRefused(
            f"This {FORMATS[kind]} file is damaged or cut short: save it again and "
            "upload the new file."
        ) from None
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    factor = side // (2 * SIDE)  # shrunk by whole steps while over twice the size kept
    if factor > 1:
        square = _reduced_square(image, left, top, side, factor)
    else:
        square = image.crop((left, top, left + side, top + side))
    if min(square.size) > SIDE:
        square = square.resize((SIDE, SIDE), Image.Resampling.LANCZOS)
    # The centre square of an upright picture is the upright centre square.
    turn = UPRIGHT.get(image.getexif().get(0x0112))  # 0x0112: Orientation
    return square.transpose(turn) if turn is not None else square


def _reduced_square(image: Image.Image, left: int, top: int, side: int, factor: int):
    """The square at (left, top), `side` pixels a side, shrunk `factor` times by averaging,
    a band of rows at a time: never a second copy of the whole bitmap (Pillow's own reduce
    and resize copy a picture with transparency whole first)."""
    mode = SHRINK_MODES.get(image.mode, "RGB")
    square = Image.new(mode, (-(-side // factor),) * 2)
    band = factor * 64
    for y in range(0, side, band):
        rows = image.crop((left, top + y, left + side, top + min(y + band, side)))
        square.paste(rows.convert(mode).reduce(factor), (0, y // factor))
    return square


def _refuse_polyglot(data: bytes, kind: str) -> None:
    end = _picture_end(data, kind)
    if end is None or data[end:].strip(b"\x00"):
        raise PortraitRefused(
            f"This {FORMATS[kind]} file carries other data after the picture (it is a picture "
            "and something else at once): only a plain picture is accepted. Export it again "
            "from an image editor and upload that."
        )
    lowered = data.lower()
    if any(marker.lower() in lowered for marker in FOREIGN):
        raise PortraitRefused(
            f"This {FORMATS[kind]} file has a web page, script or archive inside it: only a "
            "plain picture is accepted. Export it again from an image editor and upload that."
        )


def _picture_end(data: bytes, kind: str) -> int | None:
    """Where the picture's own bytes end, as its format says; None if it never says."""
    if kind == "PNG":  # chunks after the 8-byte signature, up to IEND
        at = 8
        while at + 8 <= len(data):
            (length,) = struct.unpack(">I", data[at : at + 4])
            chunk, at = data[at + 4 : at + 8], at + 12 + length  # length, type, data, CRC
            if chunk == b"IEND":
                return at
        return None
    if kind == "JPEG":
        at = data.rfind(b"\xff\xd9")
        return None if at < 0 else at + 2
    # WebP: a RIFF file says its own length after "RIFF".
    if len(data) < 12:
        return None
    (size,) = struct.unpack("<I", data[4:8])
    return 8 + size + (size & 1)


def _square_jpeg(image: Image.Image) -> bytes:
    """The square as a JPEG, on white where the picture was transparent."""
    # Any mode with an alpha band (RGBA, LA, PA, premultiplied La and RGBa) or a palette.
    if "A" in image.getbands() or "a" in image.getbands() or image.mode == "P":
        image = image.convert("RGBA")
        flat = Image.new("RGB", image.size, "white")
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue()

"""Portraits: an uploaded picture checked, decoded and drawn again with Pillow, so what is
kept and served back is only ever a square JPEG Fairsheet wrote itself: no metadata, no
trailing bytes, nothing another program could read as a page or a script.

Refused with a message that says what to do: a file too large, a picture of too many
pixels (checked from its header, before anything is decoded), anything but PNG, JPEG or
WebP, and a polyglot (a picture with other data after its end, or markup inside it)."""

import io
import struct
import warnings

from PIL import Image, ImageOps

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 25_000_000  # 25 megapixels: any phone photo, never a decompression bomb
MIN_SIDE = 64
SIDE = 512  # the square kept
FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "WEBP": "WebP"}
# Markup or archives hidden in a picture's bytes: what makes it a page, script or archive
# as well (a polyglot). Compressed image data holds none of these by chance in practice.
FOREIGN = (b"<script", b"<html", b"<body", b"<svg", b"<?php", b"%PDF-", b"PK\x03\x04")


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
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image.load()
            image = ImageOps.exif_transpose(image)
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombWarning):
        raise PortraitRefused(
            f"This {FORMATS[image.format]} file is damaged or cut short: save it again and "
            "upload the new file."
        ) from None
    return _square_jpeg(image)


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
    """The centre square, SIDE pixels a side (smaller pictures keep their size), on white
    where the picture was transparent."""
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    image = image.crop((left, top, left + side, top + side))
    if side > SIDE:
        image = image.resize((SIDE, SIDE), Image.Resampling.LANCZOS)
    if image.mode in ("RGBA", "LA", "P"):
        image = image.convert("RGBA")
        flat = Image.new("RGB", image.size, "white")
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue()

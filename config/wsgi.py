import ctypes
import os

from django.core.wsgi import get_wsgi_application

# glibc's mallopt: blocks this large or larger are mapped on their own and given back to the
# system when freed.
M_MMAP_THRESHOLD = -3
LARGE_BLOCK = 4 * 1024 * 1024


def give_large_blocks_back() -> None:
    """A decoded portrait is up to 64 MB of bitmap in 16 MB blocks (characters/images.py).
    By default glibc raises its threshold for mapping blocks on their own after the first such
    block is freed, and later ones are kept, freed, in the arena of the thread that used them:
    in a threaded server every thread that ever decoded one keeps its bitmap's worth
    (8 uploads at once: 343 MB more, against 149 MB with a fixed threshold, bench.limits).
    Elsewhere than glibc (no mallopt) nothing changes."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK)


give_large_blocks_back()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

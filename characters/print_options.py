"""How a sheet is printed: the paper, a fillable or a flat PDF, the reference page, pencil
play. Plain values, shared by the renderer (characters.pdf), the web forms, the stored pack
jobs and `render_sheet`."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

PAPER_SIZES = {"a4": "A4", "letter": "letter"}  # ?paper= and --paper -> CSS @page size
PAPER_NAMES = {"a4": "A4", "letter": gettext_lazy("US Letter")}


@dataclass(frozen=True)
class PrintOptions:
    """How to print: the paper, a fillable or a flat PDF, the reference page, pencil play."""

    paper: str = "a4"
    fillable: bool = True  # wound boxes, points, experience and notes as PDF form fields
    reference: bool = False  # the trait ladder and cost tables on a page of their own
    pencil: bool = False  # current wounds, points and experience left blank

    def __post_init__(self):
        if self.paper not in PAPER_SIZES:
            raise ValueError(f"paper must be one of {', '.join(PAPER_SIZES)}, not {self.paper!r}")

    @property
    def key(self) -> str:
        """ "a4-fillable", "letter-flat-reference-pencil": for cache keys and stored jobs."""
        words = [self.paper, "fillable" if self.fillable else "flat"]
        words += [
            word for word, on in (("reference", self.reference), ("pencil", self.pencil)) if on
        ]
        return "-".join(words)

    @classmethod
    def from_key(cls, key: str) -> "PrintOptions":
        paper, form, *extras = key.split("-")
        return cls(paper, form == "fillable", "reference" in extras, "pencil" in extras)

    @property
    def label(self) -> str:
        """ "A4, fillable, reference page", for the GM's list of packs."""
        words = [str(PAPER_NAMES[self.paper]), _("fillable") if self.fillable else _("flat")]
        words += [
            word
            for word, on in ((_("reference page"), self.reference), (_("pencil"), self.pencil))
            if on
        ]
        return ", ".join(words)


DEFAULT_PRINT = PrintOptions()  # A4, fillable, no reference page, values filled in

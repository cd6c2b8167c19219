"""Plain text as the HTML of Foundry's notes, and back."""

import html
import re
from html.parser import HTMLParser


def escape(text) -> str:
    return html.escape(str(text), quote=True)


def paragraphs(text: str) -> str:
    """Plain text as HTML paragraphs: blank lines part them, single line breaks stay."""
    blocks = [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]
    return "".join("<p>" + escape(block).replace("\n", "<br>") + "</p>" for block in blocks)


class _TextParser(HTMLParser):
    BLOCKS = frozenset(("p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6"))

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Foundry's HTML notes as plain text: tags dropped, blocks on lines of their own."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    text = re.sub(r"[ \t]+\n", "\n", "".join(parser.parts))
    return re.sub(r"\n{3,}", "\n\n", text).strip()

"""The visible text of an HTML page, with the stdlib parser: scripts, styles and the title are dropped, block
elements (paragraphs, headings, list items, table rows, <br>) become line breaks, runs of spaces collapse."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Elements whose content is never shown. Not `head`: HTML5 lets `</head>` be omitted, and a hidden head would
# then swallow the whole body; what the head holds is either void (meta, link, base) or listed here.
_HIDDEN = frozenset({"script", "style", "title", "noscript", "template", "svg"})
_BLOCKS = frozenset(
    {"p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "h1", "h2", "h3", "h4", "h5",
     "h6", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "blockquote", "pre", "hr", "br", "form", "fieldset",
     "figure", "figcaption", "address", "details", "summary"}
)  # fmt: skip
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\f\v\u00a0]+")


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden_depth += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")
        elif tag in _CELLS:
            self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden_depth = max(0, self._hidden_depth - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden_depth:
            self.parts.append(data.replace("\n", " "))


def html_text(markup: str) -> str:
    collector = _TextCollector()
    collector.feed(markup)
    collector.close()
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(collector.parts).split("\n"))
    text = "\n".join(line for line in lines if line)
    return text + "\n" if text else ""

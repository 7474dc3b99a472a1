"""Checks on a document an LLM wrote, each problem worded so it can be sent back to the model as a fix to make.

A synthetic document must not carry its own answers: no summary, decision list, action-item list, next steps or
key takeaways, whether as a heading, a labelled line ("Action items: ...") or a list introduced by such a line.
Meeting dialogue lines are `Full Name: text` with the brief's participants as speakers; an e-mail starts with
its From/To/Subject/Date headers; a PDF document has a title and sections.
"""

from __future__ import annotations

import re

from gaia_eval.artifacts.documents import EmailHeaders
from gaia_eval.generation.llm.pdf import Block
from gaia_eval.generation.llm.scenario import Brief

MAX_PROBLEMS = 6  # enough to fix in one go; more would drown the model's repair prompt
MIN_EMAIL_BODY_WORDS = 20
MIN_PDF_HEADINGS = 2

_LABELS = (
    r"(?:(?:meeting|executive|email|e-mail|document)\s+)?summary(?:\s+of\s+\w+(?:\s+\w+)?)?|recap|tl;?\s?dr"
    r"|action\s+items?|action\s+points|next\s+steps|(?:key\s+)?decisions(?:\s+made)?|(?:key\s+)?takeaways"
    r"|to-?dos?"
)
_EMPHASIS = r"(?:\*\*|__|\*|_)?"
# "## Action Items", "**Key Takeaways:**", "3. Next steps", "SUMMARY"
_HEADING = re.compile(
    rf"^\s*(?:#{{1,6}}\s*)?(?:\d+[.)]\s+)?{_EMPHASIS}\s*(?:{_LABELS})\s*:?\s*{_EMPHASIS}\s*:?\s*$", re.IGNORECASE
)
# "Action items: Bob sends the deck", "- **Decisions:** keep the date"
_LABELLED = re.compile(rf"^\s*(?:[-*\u2022]\s+)?{_EMPHASIS}(?:{_LABELS}){_EMPHASIS}\s*:", re.IGNORECASE)
# "Here are the action items:" followed by a list
_LIST_INTRO = re.compile(rf"\b(?:{_LABELS})\b.*:\s*{_EMPHASIS}\s*$", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d{1,3}[.)])\s+\S")
_SPEAKER_LINE = re.compile(r"^(?P<name>[^:\n]{1,60}?):[ \t]+(?P<text>\S.*)$")
_HEADER_LINE = re.compile(r"^(?P<field>[A-Za-z][A-Za-z-]{0,30}):[ \t]*(?P<value>.*)$")
_FENCE = re.compile(r"^\s*```[\w-]*\s*$")
_PDF_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")


def _quote(line: str, limit: int = 80) -> str:
    flat = " ".join(line.split())
    return '"' + (flat if len(flat) <= limit else flat[: limit - 3] + "...") + '"'


def clean_reply(text: str, *, truncated: bool) -> str:
    """The document in a model's reply: code fences dropped, line endings normalized, and the cut-off last line
    removed when the reply hit max_tokens (a half sentence is worse than none)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    lines = [line for line in lines if not _FENCE.match(line)]
    if truncated and len(lines) > 1:
        lines = lines[:-1]
    return "\n".join(lines).strip("\n")


def forbidden_sections(text: str, *, speaker_lines: bool = False) -> list[str]:
    """Each place where the document summarizes itself. With `speaker_lines`, the words after `Name: ` are
    checked too (a speaker who reads out "Action items:" is the same section in a transcript)."""
    problems: list[str] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        candidates = [line]
        if speaker_lines:
            match = _SPEAKER_LINE.match(line)
            if match:
                candidates.append(match.group("text"))
        if any(_HEADING.match(c) or _LABELLED.match(c) for c in candidates):
            problems.append(f"remove the summary-style section {_quote(line)}")
            continue
        following = next((ln for ln in lines[index + 1 :] if ln.strip()), "")
        if any(_LIST_INTRO.search(c) for c in candidates) and _LIST_ITEM.match(following):
            problems.append(f"remove the list introduced by {_quote(line)}")
    return problems


def check_meeting_dialogue(dialogue: str, brief: Brief) -> list[str]:
    """Every line `Full Name: text` spoken by a listed participant; at least two of them speak."""
    names = {p.name for p in brief.people}
    problems: list[str] = []
    speakers: set[str] = set()
    bad_lines: list[str] = []
    for line in dialogue.split("\n"):
        if not line.strip():
            continue
        match = _SPEAKER_LINE.match(line)
        if match is None:
            bad_lines.append(f"{_quote(line)} is not a `Full Name: text` line")
        elif match.group("name") not in names:
            bad_lines.append(f"{_quote(line)} is spoken by '{match.group('name')}', who is not a listed participant "
                             "(use the full names exactly as listed)")
        else:
            speakers.add(match.group("name"))
    problems += bad_lines[:3]
    if len(bad_lines) > 3:
        problems.append(f"{len(bad_lines) - 3} more lines have the same problem: every line must be `Full Name: text`")
    if not bad_lines and len(speakers) < 2:
        problems.append("at least two participants must speak")
    problems += forbidden_sections(dialogue, speaker_lines=True)
    return problems[:MAX_PROBLEMS]


def parse_email_headers(text: str) -> tuple[dict[str, str], str]:
    """The header fields of an e-mail (lines up to the first blank line) and its body."""
    head, _, body = text.partition("\n\n")
    fields: dict[str, str] = {}
    for line in head.split("\n"):
        match = _HEADER_LINE.match(line)
        if match:
            fields.setdefault(match.group("field").lower(), match.group("value").strip())
    return fields, body


def check_email(text: str, brief: Brief) -> tuple[EmailHeaders | None, list[str]]:
    """The e-mail's headers (None when they are not usable) and its problems."""
    problems: list[str] = []
    first_line = text.split("\n", 1)[0]
    if not first_line.startswith("From:"):
        problems.append(f"the e-mail must start with its `From:` header line, not {_quote(first_line)}")
    fields, body = parse_email_headers(text)
    for name in ("from", "to", "subject", "date"):
        if not fields.get(name):
            problems.append(f"the header block at the top must have a non-empty `{name.capitalize()}:` line")
    if fields.get("from") and brief.sender.name not in fields["from"]:
        problems.append(f"the e-mail must be from {brief.sender.mailbox}, not {_quote(fields['from'])}")
    if len(body.split()) < MIN_EMAIL_BODY_WORDS:
        problems.append("after the headers and a blank line, write the body of the e-mail")
    problems += forbidden_sections(text)
    headers = None
    if not problems:
        recipients = [r.strip() for key in ("to", "cc") for r in fields.get(key, "").split(",") if r.strip()]
        headers = EmailHeaders(
            sender=fields["from"], recipients=recipients, subject=fields["subject"], date=fields["date"]
        )
    return headers, problems[:MAX_PROBLEMS]


def check_pdf_document(markup: str, blocks: list[Block]) -> list[str]:
    """A title first, at least two section headings, no tables (the renderer writes prose and lists)."""
    problems: list[str] = []
    if not blocks or blocks[0].kind != "title":
        problems.append("start with the title on its own line as `# Title`")
    if sum(b.kind == "heading" for b in blocks) < MIN_PDF_HEADINGS:
        problems.append(f"use at least {MIN_PDF_HEADINGS} section headings, each on its own line as `## Heading`")
    table = next((line for line in markup.split("\n") if _PDF_TABLE_LINE.match(line)), None)
    if table is not None:
        problems.append(f"tables cannot be rendered ({_quote(table)}): give the figures in sentences or as "
                        "`- label: value` list items")
    problems += forbidden_sections(markup)
    return problems[:MAX_PROBLEMS]

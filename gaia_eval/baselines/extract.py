"""Rule-based extraction of participants (with roles) and topics (agenda, topic cues, keyphrases)."""

from __future__ import annotations

import re

from gaia_eval.baselines.document import Analysis
from gaia_eval.baselines.text import capitalize_first, clean_clause, dedupe, topic_terms
from gaia_eval.baselines.textrank import keyphrases


def participants(analysis: Analysis) -> list[str]:
    """Every person the document names as a participant, speaker or correspondent, with a stated role."""
    return [person.render() for person in analysis.people]


_TOPIC_CUE_RE = re.compile(
    r"(?:\blet's (?:start|begin|kick off) with|\blet's (?:talk|move on) (?:about|to)|\bmov(?:e|ing) on to|"
    r"^next(?: up| item| topic)?(?: is)?,|\blast item,|\bfirst item,|\bfirst up,|\bthe next (?:topic|item) is|"
    r"\bturning to)\s+(?:the\s+)?(?P<topic>[^.?!,]{3,60})(?=[.?!,]|$)",
    re.I,
)


_SPOKEN_AGENDA_RE = re.compile(
    r"\b(?:agenda|get through|time we have|to cover|on the list)\b[^:.?!]{0,20}:\s*(?P<items>[^.?!]+)"
    r"|\b(?:I've got|I have|we've got|we have)\s+(?P<listed>[^.?!]+?)\s+on the (?:list|agenda)\b"
    r"|\b(?:we need to|we'll|we will|we're going to|let's) cover\s+(?P<covered>[^.?!]+?)(?=,\s*and\s+I\b|[.?!]|$)",
    re.I,
)
_LIST_SPLIT_RE = re.compile(r",\s*(?:and\s+)?|\s+and\s+|;\s*")


def topics(analysis: Analysis, count: int = 6) -> list[str]:
    """Agenda items when the document lists them; else the subject, topic cues ('moving on to X') and
    keyphrases of the text, most central first (memoized on the analysis)."""
    return analysis.memo(f"topics:{count}", lambda: _find_topics(analysis, count))


def _spoken_agenda(analysis: Analysis) -> list[str]:
    """'On the agenda today: A, B, and C.' said in the meeting rather than written in its header."""
    for sentence in analysis.sentences[:40]:
        if match := _SPOKEN_AGENDA_RE.search(sentence.text):
            listed = match["items"] or match["listed"] or match["covered"]
            items = [re.sub(r"^(?:and|the)\s+", "", item.strip(), flags=re.I) for item in _LIST_SPLIT_RE.split(listed)]
            return [clean_clause(item) for item in items if topic_terms(item)]
    return []


def _find_topics(analysis: Analysis, count: int) -> list[str]:
    if analysis.agenda:
        return [clean_clause(item) for item in analysis.agenda[:count]]
    found: list[str] = _spoken_agenda(analysis)
    if analysis.kind == "email" and analysis.title:
        subject = re.sub(r"^(?:re|fw|fwd):\s*", "", analysis.title, flags=re.I)
        found.extend(clean_clause(p) for p in re.split(r"\s[-\u2013|:]\s", subject) if p.strip())
    for sentence in analysis.sentences:
        if (cue := _TOPIC_CUE_RE.search(sentence.text)) and len(topic_terms(cue.group("topic"))) >= 1:
            found.append(clean_clause(cue.group("topic")))
    found.extend(capitalize_first(p) for p in keyphrases(analysis, count))
    return dedupe(found, threshold=0.5)[:count]

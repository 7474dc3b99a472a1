"""The two offline summarizers, `lead` (position and keywords) and `textrank` (graph ranking plus rules).

Both read only the document text and return the six styles of groundtruth `Summaries`.
"""

from __future__ import annotations

import re
from collections import Counter

from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.baselines import extract
from gaia_eval.baselines.actions import action_items
from gaia_eval.baselines.decisions import decisions as find_decisions
from gaia_eval.baselines.document import Analysis, Sentence, analyze
from gaia_eval.baselines.text import is_content_word, strip_discourse, tokens, word_count
from gaia_eval.baselines.textrank import top_sentences

SUMMARIZERS: tuple[str, ...] = ("lead", "textrank")
LEAD_EXECUTIVE_SENTENCES = 3
LEAD_DETAILED_SENTENCES = 8
LIST_LIMIT = 8
MIN_SUBSTANTIVE_WORDS = 6  # "Good morning, everyone." is not content


def _substantive(analysis: Analysis) -> list[Sentence]:
    """Statements of some length: greetings, acknowledgements and questions are not content."""
    return [s for s in analysis.sentences if word_count(s.text) >= MIN_SUBSTANTIVE_WORDS and not s.text.endswith("?")]


def _as_sentence(text: str) -> str:
    """A bullet or heading line reads as a sentence in running prose only with a final stop."""
    text = text.strip()
    return text if not text or text[-1] in ".!?\"')" else f"{text}."


def _join(sentences: list[Sentence]) -> str:
    return " ".join(_as_sentence(s.text) for s in sentences)


def lead_summaries(document: str) -> Summaries:
    """The deliberately simple baseline: first sentences, keyword hits, labels in order, frequent words."""
    analysis = analyze(document)
    body = _substantive(analysis)
    if analysis.kind == "email":
        people = [part.strip() for key in ("from", "to", "cc") for part in analysis.headers.get(key, "").split(",")]
        participant_list = [p for p in people if p]
    else:
        participant_list = list(analysis.speaker_labels)
    counts = Counter(w for s in analysis.sentences for w in tokens(s.text)
                     if is_content_word(w) and len(w) > 2 and not w[0].isdigit())
    return Summaries(
        executive_summary=_join(body[:LEAD_EXECUTIVE_SENTENCES]),
        detailed_summary=_join(body[:LEAD_DETAILED_SENTENCES]),
        action_items=[s.text for s in analysis.sentences if re.search(r"\bwill\b", s.text, re.I)][:LIST_LIMIT],
        key_decisions=[s.text for s in analysis.sentences if "decid" in s.text.lower()][:LIST_LIMIT],
        participants=participant_list,
        topics_discussed=[word for word, _ in counts.most_common(5)],
    )


def _opening(analysis: Analysis) -> str:
    """One framing sentence from the headers and the topic list: what the document is, when, who took
    part and what they discussed."""
    if not analysis.title and analysis.date is None:
        return ""
    title = re.sub(r"^(?:(?:re|fw|fwd):\s*)+", "", analysis.title or "", flags=re.I)
    what = title or ("Email" if analysis.kind == "email" else "Meeting")
    when = f" ({analysis.date.isoformat()})" if analysis.date else ""
    if analysis.kind == "email" and analysis.sender:
        to = ", ".join(analysis.recipients[:4])
        return f"{what}{when}: email from {analysis.sender}" + (f" to {to}." if to else ".")
    names = [p.name for p in analysis.people[:6]]
    subjects = [_in_running_text(analysis, t) for t in extract.topics(analysis)[:4]]
    discussed = f" discussed {_and_join(subjects)}" if subjects and names else ""
    return f"{what}{when}" + (f" with {_and_join(names)}" if names else "") + f"{discussed}."


def _in_running_text(analysis: Analysis, topic: str) -> str:
    """'Vendor migration budget' -> 'vendor migration budget', but 'Austin site rollout' stays capitalized:
    lower-case the first word only when the document itself writes it in lower case."""
    first = topic.split(" ", 1)[0]
    lowered = first.lower()
    if lowered != first and any(re.search(rf"\b{re.escape(lowered)}\b", s.text) for s in analysis.sentences):
        return lowered + topic[len(first):]
    return topic


def _and_join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _cue_bonus(analysis: Analysis, decisions: list[str]) -> dict[int, float]:
    """Sentences carrying a decision or a figure are what an executive reads first: boost their rank."""
    bonus: dict[int, float] = {}
    decision_words = [set(tokens(d)) for d in decisions]
    for sentence in analysis.sentences:
        words = set(tokens(sentence.text))
        if any(len(words & dw) >= max(2, len(dw) // 2) for dw in decision_words):
            bonus[sentence.index] = 2.0
        elif re.search(r"[$€£]\s?\d|\d\s?%|\bpercent\b", sentence.text):
            bonus[sentence.index] = 1.3
    return bonus


def _sentence_text(sentence: Sentence) -> str:
    return _as_sentence(strip_discourse(sentence.text))


def textrank_summaries(document: str) -> Summaries:
    """TextRank sentences for the prose styles, rules for the lists (see `extract`)."""
    analysis = analyze(document)
    decisions = find_decisions(analysis)
    actions = action_items(analysis)
    bonus = _cue_bonus(analysis, decisions)
    opening = _opening(analysis)
    said = (opening,) if opening else ()
    executive = [_sentence_text(s) for s in top_sentences(analysis, 2 if opening else 3, bonus, said)]
    detailed = [_sentence_text(s) for s in top_sentences(analysis, 6, bonus, said)]
    if decisions:
        detailed.append("Decisions: " + "; ".join(decisions[:5]) + ".")
    if actions:
        detailed.append("Action items: " + "; ".join(item.render() for item in actions[:5]) + ".")
    if not executive and not detailed:
        # Too little text to rank (a few short lines): fall back to what is there.
        executive = detailed = [s.text for s in analysis.sentences[:3]]
    return Summaries(
        executive_summary=" ".join(([opening] if opening else []) + executive).strip(),
        detailed_summary=" ".join(([opening] if opening else []) + detailed).strip(),
        action_items=[item.render() for item in actions][:LIST_LIMIT * 2],
        key_decisions=decisions[:LIST_LIMIT * 2],
        participants=extract.participants(analysis),
        topics_discussed=extract.topics(analysis),
    )


def summarize(model: str, document: str) -> Summaries:
    """All six styles from summarizer `model` ("lead" or "textrank"), computed once per cached document."""
    builders = {"lead": lead_summaries, "textrank": textrank_summaries}
    if model not in builders:
        raise ValueError(f"unknown summarizer {model!r}; expected one of {SUMMARIZERS}")
    cached = analyze(document).memo(f"summaries:{model}", lambda: builders[model](document))
    return cached.model_copy(deep=True)


def render_style(summaries: Summaries, style: str) -> str:
    """One style as plain text: prose as is, lists as '- item' lines."""
    value = getattr(summaries, style)
    if isinstance(value, list):
        return "\n".join(f"- {item}" for item in value)
    return value

"""Ground truth derived from planted facts alone: the six summary styles and question/answer pairs.

Both are pure functions of the facts (and, for QA, the document text that every answer is checked against),
so equal facts always give byte-identical ground truth.
"""

from __future__ import annotations

import datetime as dt
import re

from gaia_eval.artifacts.documents import ActionItem, KeyFigure, PlantedFacts
from gaia_eval.artifacts.groundtruth import QAPair, Summaries
from gaia_eval.generation import factprose as fp
from gaia_eval.generation.scenario import contains_value, month_day

MAX_TASK_QUESTIONS = 3  # per kind (owner, due): enough to test, few enough to leave room for figures


def type_label(doc_kind: str, doc_type: str) -> str:
    """"daily standup", "customer support reply", ...; an unknown type is spelled out from its name."""
    if doc_kind == "meeting":
        from gaia_eval.generation.banks.meetings import MEETING_SPECS as specs
    else:
        from gaia_eval.generation.banks.emails import EMAIL_SPECS as specs  # type: ignore[assignment]
    spec = specs.get(doc_type)
    return spec.label if spec else doc_type.replace("_", " ")


def _due_text(action: ActionItem) -> str:
    return month_day(dt.date.fromisoformat(action.due))


# ---- summaries ---------------------------------------------------------------------------------------------


def summaries_from_facts(facts: PlantedFacts, doc_kind: str, doc_type: str) -> Summaries:
    label = type_label(doc_kind, doc_type)
    topics = fp.join_list([fp.with_article(t) for t in facts.topics])
    people = [p.name for p in facts.participants]
    if doc_kind == "meeting":
        meeting = fp.indefinite(label).capitalize()
        opening = f"{meeting} ({facts.title}) in which {len(people)} participants discussed {topics}."
    else:
        recipients = fp.join_list(people[1:])
        opening = f"An e-mail ({label}) from {people[0]} to {recipients}, titled \"{facts.title}\", about {topics}."
    executive = [opening]
    if facts.decisions:
        executive.append(f"It was decided {fp.decision_clause(facts.decisions)}.")
    owners = list(dict.fromkeys(a.owner for a in facts.action_items))
    if owners:
        executive.append(f"Follow-up tasks are owned by {fp.join_list(owners)}.")

    detailed = [opening]
    if facts.key_figures:
        detailed.append(f"Key figures: {'; '.join(fp.figure_phrase(f) for f in facts.key_figures)}.")
    if facts.decisions:
        detailed.append(f"Decisions: {'; '.join(fp.lower_first(d) for d in facts.decisions)}.")
    if facts.action_items:
        tasks = [fp.action_phrase(a, _due_text(a)) for a in facts.action_items]
        detailed.append(f"Action items: {'; '.join(tasks)}.")
    return Summaries(
        executive_summary=" ".join(executive[:3]),
        detailed_summary=" ".join(detailed),
        action_items=[f"{a.owner}: {a.task} (due {a.due})" for a in facts.action_items],
        key_decisions=list(facts.decisions),
        participants=[f"{p.name} ({p.role})" for p in facts.participants],
        topics_discussed=list(facts.topics),
    )


# ---- evidence ----------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'$])")


def _has(span: str, needle: str) -> bool:
    """Plain containment, except for figures and dates, which must appear whole ("March 1" is not in "March 14")."""
    if needle[:1].isdigit() or needle[:1] == "$" or re.match(r"[A-Z][a-z]+ \d", needle):
        return contains_value(span, needle)
    return needle in span


def find_evidence(text: str, anchor: str, needed: list[str]) -> str | None:
    """The shortest span of `text` that contains `anchor` and every needed string: a sentence, a line, or a
    few consecutive lines (a question and its answer in a transcript)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not _has(line, anchor):
            continue
        for sentence in _SENTENCE_END.split(line):
            if _has(sentence, anchor) and all(_has(sentence, n) for n in needed):
                return sentence
        if all(_has(line, n) for n in needed):
            return line
        for low, high in ((i - 1, i), (i, i + 1), (i - 1, i + 1), (i, i + 2), (i - 2, i)):
            window = "\n".join(lines[max(low, 0) : high + 1])
            if all(_has(window, n) for n in needed):
                return window
    return None


def _figure_evidence(text: str, figure: KeyFigure) -> str | None:
    """The sentence that states the figure; with several candidates, the one sharing most words with its label."""
    label_words = {w for w in re.findall(r"[a-z]+", figure.label.lower()) if len(w) > 3}
    best: tuple[int, str] | None = None
    for line in text.splitlines():
        for sentence in _SENTENCE_END.split(line):
            if _has(sentence, figure.value):
                overlap = len(label_words & set(re.findall(r"[a-z]+", sentence.lower())))
                if best is None or overlap > best[0]:
                    best = (overlap, sentence)
    return best[1] if best else None


def _slug(words: str, limit: int = 5) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", words.lower())[:limit])


def _header_names(text: str, field: str) -> tuple[list[str], str] | None:
    """Names in an e-mail's To:/Cc: line, and the line itself."""
    for line in text.splitlines():
        if line.startswith(f"{field}: "):
            return [part.split(" <")[0].strip() for part in line[len(field) + 2 :].split(", ")], line
        if not line.strip():
            return None  # the headers ended
    return None


# ---- questions ---------------------------------------------------------------------------------------------


def qa_from_facts(facts: PlantedFacts, doc_kind: str, doc_type: str, text: str) -> list[QAPair]:
    """Questions whose answers are planted facts, each with a span of `text` that contains its answer."""
    candidates: list[tuple[str, str, str, str, str, str | None]] = []  # kind, slug, query, answer, type, evidence
    names = {p.name: p for p in facts.participants}

    for action in facts.action_items[:MAX_TASK_QUESTIONS]:
        first = action.owner.split()[0]
        evidence = find_evidence(text, action.task, [action.owner]) or (
            find_evidence(text, action.task, [first]) if doc_kind == "email" else None
        )
        candidates.append(("owner", _slug(action.task), f"Who will {action.task}?", action.owner, "string", evidence))
    for action in facts.action_items[:MAX_TASK_QUESTIONS]:
        due = _due_text(action)
        candidates.append(("due", _slug(action.task), f"By what date will {action.owner} {action.task}?", due,
                           "string", find_evidence(text, action.task, [due])))
    for figure in facts.key_figures:
        answer_type = "number" if figure.kind in ("amount", "count", "percent") else "string"
        candidates.append(("figure", _slug(figure.label), f"What is the {figure.label}?", figure.value, answer_type,
                           _figure_evidence(text, figure)))

    if doc_kind == "meeting":
        block = _participant_block(text)
        candidates.append(("attendees", "meeting", "Who attended the meeting?", ", ".join(names), "list",
                           block if block and all(n in block for n in names) else None))
        asked = {p.name: p for p in facts.participants[1:2] + facts.participants[-1:]}  # one of us, one guest
        for person in asked.values():
            line = f"- {person.name} ({person.role})"
            candidates.append(("role", _slug(person.name), f"What is {person.name}'s role in the meeting?",
                               person.role, "string", line if line in text.splitlines() else None))
    else:
        sender = facts.participants[0]
        from_line = next((ln for ln in text.splitlines() if ln.startswith("From: ")), None)
        candidates.append(("sender", "email", "Who sent the email?", sender.name, "string",
                           from_line if from_line and sender.name in from_line else None))
        for field, query in (("To", "Who was the email sent to?"), ("Cc", "Who was copied on the email?")):
            found = _header_names(text, field)
            if found:
                listed, line = found
                candidates.append(("recipients" if field == "To" else "copied", "email", query,
                                   ", ".join(listed), "list", line))
        signature = f"\n{sender.name}\n{sender.role}, "
        if signature in text:
            start = text.index(signature) + 1
            evidence = text[start : text.index("\n", start + len(signature) - 1)]
            candidates.append(("role", _slug(sender.name), f"What is {sender.name}'s role?", sender.role, "string",
                               evidence))

    pairs: list[QAPair] = []
    for kind, slug, query, answer, answer_type, evidence in candidates:
        if evidence is None or evidence not in text:
            continue  # never ask what the document does not visibly support
        pairs.append(QAPair(id=f"q{len(pairs) + 1:02d}-{kind}-{slug}", query=query, answer=answer,
                            answer_type=answer_type, evidence=evidence))  # type: ignore[arg-type]
    return pairs


def _participant_block(text: str) -> str | None:
    lines = text.splitlines()
    if "Participants:" not in lines:
        return None
    start = lines.index("Participants:")
    end = start + 1
    while end < len(lines) and lines[end].startswith("- "):
        end += 1
    return "\n".join(lines[start:end])

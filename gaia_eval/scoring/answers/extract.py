"""Where the answer is in a response: explicit markers (`FINAL ANSWER:`, `<answer>`, `\\boxed{}`, `####`), the
"the answer is" phrase, sentences, the sentence an unmarked response answers in, and the leading answer
before an explanation ("Paris - the capital").
"""

from __future__ import annotations

import re
from functools import lru_cache

from gaia_eval.scoring.answers.text import tokens

# --- extraction ----------------------------------------------------------------------------------

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.IGNORECASE | re.DOTALL)
_BOXED = re.compile(r"\\(?:boxed|fbox)\{((?:[^{}]|\{[^{}]*\})*)\}")
_FINAL_ANSWER = re.compile(
    r"(?:\bfinal\s+answer|^[ \t>#*_]*answer)[ \t]*(?:\*\*|__)?[ \t]*[:\uff1a][ \t]*(?:\*\*|__)?[ \t]*(.*)",
    re.IGNORECASE | re.MULTILINE)
_GSM8K_MARK = re.compile(r"^[ \t]*####[ \t]*(.+)$", re.MULTILINE)
_ANSWER_PHRASE = re.compile(
    r"\b(?:(?:the|my|our)\s+)?(?:final\s+|correct\s+|short\s+|right\s+)?answer"
    r"(?:\s+to\s+(?:the|this|your)\s+question)?\s*(?:(?:is|would\s+be|should\s+be|will\s+be)\b(?!')|=|:)"
    r"\s*:?\s*",
    re.IGNORECASE)
_LATEX_WRAPPER = re.compile(r"\\(?:text|mathrm|textbf|mathbf|operatorname)\{([^{}]*)\}")
_SENTENCE_END = re.compile(r"[.!?](?=[\s\"')\]]|$)|\n")


def _strip_latex(span: str) -> str:
    span = _LATEX_WRAPPER.sub(r"\1", span)
    return span.replace("\\,", "").replace("\\!", "").replace("\\%", "%").replace("\\$", "$").replace("\\ ", " ")


def extract_marked(text: str, lowered: str) -> tuple[str, str] | None:
    """The span after an explicit answer marker, and which marker; the last marker wins.

    `lowered` is text.casefold(), passed in because the caller needs it too.
    """
    if "<answer>" in lowered:
        found = _ANSWER_TAG.findall(text)
        if found:
            return found[-1], "the <answer> tag"
    if "\\boxed" in text or "\\fbox" in text:
        found = _BOXED.findall(text)
        if found:
            return _strip_latex(found[-1]), "\\boxed{}"
    if "answer" in lowered:
        matches = list(_FINAL_ANSWER.finditer(text))
        if matches:
            last = matches[-1]
            span = last.group(1).strip()
            if not span:  # "FINAL ANSWER:" alone on its line: the answer is the next non-empty line
                rest = text[last.end():].strip()
                span = rest.split("\n", 1)[0] if rest else ""
            return span, "the 'FINAL ANSWER:' marker"
    if "####" in text:
        found = _GSM8K_MARK.findall(text)
        if found:
            return found[-1], "the '####' marker"
    return None


def extract_phrase(text: str) -> tuple[str, str] | None:
    """After the last "the answer is" phrase: the rest of its sentence, and the whole sentence (for hedges)."""
    matches = list(_ANSWER_PHRASE.finditer(text))
    if not matches:
        return None
    last = matches[-1]
    rest = text[last.end():]
    end = _SENTENCE_END.search(rest)
    span = rest[:end.start()] if end else rest
    sentence_start = 0
    for boundary in _SENTENCE_END.finditer(text, 0, last.start()):
        sentence_start = boundary.end()
    return span, text[sentence_start:last.end() + len(span)]


# --- sentences -----------------------------------------------------------------------------------

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]*[ \t]+(?=[\"'(\[]?[A-Z0-9])|[ \t]*\n\s*")
_ABBREVIATION_END = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|no|inc|ltd|co|mt|ft|gen|gov|sen|rep|approx|fig|vol|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)|\b[A-Z]|\be\.g|\bi\.e|\bu\.s|\ba\.m|\bp\.m)\.$",
    re.IGNORECASE)

_SENTENCE_BREAK_HINT = re.compile(r"[.!?\n]\s")


def may_have_sentences(text: str) -> bool:
    """A cheap test that text might hold more than one sentence (so `sentences` is worth calling)."""
    return _SENTENCE_BREAK_HINT.search(text) is not None


@lru_cache(maxsize=1024)
def sentences(text: str) -> tuple[str, ...]:
    """Sentences and lines of a response, not split after abbreviations or initials."""
    parts = [p for p in _SENTENCE_SPLIT.split(text) if p and p.strip()]
    merged: list[str] = []
    for part in parts:
        if merged and _ABBREVIATION_END.search(merged[-1]) and "\n" not in merged[-1]:
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return tuple(m.strip() for m in merged)


_FILLER = frozenset({
    "sure", "ok", "okay", "certainly", "of course", "great", "alright", "all right", "hello", "hi", "well",
    "hmm", "absolutely", "got it", "understood", "good question", "great question", "let me think",
    "let me check", "lets see", "let me see", "here is the answer", "heres the answer", "here it is",
    "happy to help", "sure thing", "thanks", "thank you",
})
_CONCLUSION_START = re.compile(
    r"^(?:so|therefore|thus|hence|in conclusion|in total|in all|overall|in summary|altogether|in short|"
    r"finally|to conclude|to summarize|to sum up)\b", re.IGNORECASE)


_LONGEST_FILLER = 30  # characters, with punctuation: "Here is the answer!"
_ENUMERATOR = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|step\s+\d{1,2}[.:]?)\s*$", re.IGNORECASE)


def is_filler(sentence: str) -> bool:
    """A sentence that carries no answer: "Sure!", "Let me check.", an intro ending with a colon, or the
    enumerator of a numbered list ("1.")."""
    if sentence.rstrip().endswith(":") or not any(c.isalnum() for c in sentence):
        return True  # an intro, or a line of punctuation only (a reply that opens with "?\n\n")
    if len(sentence) > _LONGEST_FILLER:
        return False
    return " ".join(tokens(sentence)) in _FILLER or _ENUMERATOR.match(sentence) is not None


def answer_sentence(text: str) -> str:
    """The sentence an unmarked response answers in: a final "So/Therefore ..." one, else the first real one."""
    parts = sentences(text)
    if not parts:
        return ""
    if len(parts) > 1 and _CONCLUSION_START.match(parts[-1]):
        return parts[-1]
    for part in parts:
        if not is_filler(part):
            return part
    return parts[-1]


# A leading answer followed by its explanation: "Paris - the capital", "12 (three boxes of four)".
_EXPLANATION_SEPARATOR = re.compile(
    r"\s+-\s+(?![\d-])|\s*\u2014\s*|\s+\(|,\s+(?:as|which|given|from|per|since|i\.e\.|e\.g\.)(?!\w)|"
    r",?\s+(?:because|based on|according to)\b", re.IGNORECASE)
_MAY_EXPLAIN = re.compile(r"[-\u2014(,]|because|based on|according to")


def leading_segment(sentence: str) -> str:
    """The part of a sentence before an explanation separator (the whole sentence when there is none)."""
    if not _MAY_EXPLAIN.search(sentence):
        return sentence
    match = _EXPLANATION_SEPARATOR.search(sentence)
    if match and match.start() > 0:
        return sentence[:match.start()].strip()
    return sentence


_SENTENCE_BOUNDARY = re.compile(r"[.!?](?=\s|$)|\n")


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of `text` that holds text[start:end]."""
    left = 0
    for boundary in _SENTENCE_BOUNDARY.finditer(text, 0, start):
        left = boundary.end()
    right = _SENTENCE_BOUNDARY.search(text, end)
    return text[left:right.start() if right else len(text)].strip()

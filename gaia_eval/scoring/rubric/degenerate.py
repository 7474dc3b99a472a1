"""Outputs that are not summaries at all, whatever their criteria measure: too short, a repetition loop, cut off
mid-sentence, transcript speech copied as it was said, or a verbatim copy of the source. The free-text grade rates
such an output Poor on every criterion, with the reason (as it does an empty output).

Each rule is narrow on purpose: on the human-rated data the weights were fit on (DialSummEval, SummEval) the
rules fire on outputs people rated low (SummEval's repetition loops and truncated extracts), and they leave alone
what people rated high (a chat of 40 words copied almost whole: DialSummEval's annotators rated those 4.9 of 5
for relevance, so a copy is caught only from a source of COPY_MIN_SOURCE_WORDS words on).
"""

from __future__ import annotations

import re

from gaia_eval.scoring.text import tokenize

# Fewer words than this is not a summary of anything ("Yes.", "Meeting.").
MIN_WORDS = 3
# A repetition loop: this share of the output's word trigrams are repeats of an earlier one. Human-rated
# SummEval outputs at or above it are rated 3.0 for relevance against 3.8 overall.
LOOP_SHARE = 0.3
# Words an English sentence does not end on: an output ending on one without final punctuation was cut off.
NO_SENTENCE_END = frozenset(
    """a an the and or but nor of to with for from by at as into onto than that which who whose whom if because
    while whereas although though when where his their its my our your is are was were be been being have has had
    will would can could should shall may might must do does did not very such""".split()
)
_FINAL_PUNCTUATION = re.compile(r"[.!?…:;\"'”’)\]]\s*$")
# Disfluencies and transcript markup: a written summary never says "um".
DISFLUENCIES = frozenset("um uh uhm erm er mm mhm hmm disfmarker vocalsound nonvocalsound".split())
SPEECH_MIN_DISFLUENCIES = 2
SPEECH_MIN_SHARE = 0.02
# A verbatim copy: at least COPY_SOURCE_SHARE of the source's length, COPY_SHARE of it in verbatim spans of
# COPY_SPAN_WORDS words, from a source of COPY_MIN_SOURCE_WORDS words on (see the module docstring).
COPY_SOURCE_SHARE = 0.85
COPY_SHARE = 0.8
COPY_SPAN_WORDS = 6
COPY_MIN_SOURCE_WORDS = 60


def copied_share(words: list[str], source_words: list[str], span: int = COPY_SPAN_WORDS) -> float:
    """Share of `words` inside verbatim runs of `span`+ words of `source_words`."""
    if len(words) < span:
        return 0.0
    spans = {tuple(source_words[i : i + span]) for i in range(len(source_words) - span + 1)}
    copied = [False] * len(words)
    for i in range(len(words) - span + 1):
        if tuple(words[i : i + span]) in spans:
            copied[i : i + span] = [True] * span
    return sum(copied) / len(words)


def repeated_trigram_share(words: list[str]) -> float:
    """Share of the word trigrams that repeat an earlier one (0 for fewer than three words)."""
    trigrams = [tuple(words[i : i + 3]) for i in range(len(words) - 2)]
    return 1 - len(set(trigrams)) / len(trigrams) if trigrams else 0.0


def degenerate_reason(output: str, source: str | None) -> str | None:
    """Why `output` is not a summary, or None. An empty output is the caller's business."""
    words = tokenize(output)
    if len(words) < MIN_WORDS:
        return f"too short to be a summary ({len(words)} word{'s' if len(words) != 1 else ''})"
    loop = repeated_trigram_share(words)
    if loop >= LOOP_SHARE:
        return f"a repetition loop ({loop:.0%} of its word trigrams repeat)"
    last = re.findall(r"[^\W_]+", output.lower())
    if last and last[-1] in NO_SENTENCE_END and not _FINAL_PUNCTUATION.search(output):
        return f"cut off mid-sentence (ends on “{last[-1]}” without punctuation)"
    spoken = sum(w in DISFLUENCIES for w in re.findall(r"[a-z]+", output.lower()))
    if spoken >= SPEECH_MIN_DISFLUENCIES and spoken / len(words) >= SPEECH_MIN_SHARE:
        return f"transcript speech, not a summary ({spoken} disfluencies such as “um”)"
    if source and source.strip():
        source_words = tokenize(source)
        if (
            len(source_words) >= COPY_MIN_SOURCE_WORDS
            and len(words) >= COPY_SOURCE_SHARE * len(source_words)
            and copied_share(words, source_words) >= COPY_SHARE
        ):
            return "a verbatim copy of the source"
    return None

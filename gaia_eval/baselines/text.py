"""Plain-text primitives shared by the offline baselines: cleanup, sentence splitting, tokens, terms, overlap."""

from __future__ import annotations

import re
from functools import lru_cache

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are aren't as at be because been before being
    below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
    during each either else ever every few for from further had hadn't has hasn't have haven't having he he'd
    he'll he's her here here's hers herself him himself his how how's however i i'd i'll i'm i've if in into
    is isn't it it's its itself just let let's may me might more most much must mustn't my myself neither no
    nor not now of off on once only or other ought our ours ourselves out over own per quite rather same
    shall shan't she she'd she'll she's should shouldn't since so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this those though
    through thus to too under until up upon us very via was wasn't we we'd we'll we're we've were weren't
    what what's whatever when when's where where's whether which while who who's whom whose why why's will
    with within without won't would wouldn't yet you you'd you'll you're you've your yours yourself
    yourselves one two three four five six seven eight nine ten also etc
    """.split()
)

# Words that are frequent in speech and email but carry no topic: kept out of keyphrases and topic lists.
FILLER: frozenset[str] = frozenset(
    """
    yeah yes yep okay ok oh um uh uhm hmm mm ah right well like really actually basically just sure
    thanks thank great good fine cool alright anyway kind sort lot lots bit thing things stuff something
    anything everything nothing someone anyone everyone guys folks everybody somebody people way ways
    think thought know knew see saw say said says get gets got getting go goes going gone went gonna wanna
    make makes made want wanted need needs needed let look looking looks come comes came take took give
    gave put mean means meant maybe probably perhaps definitely absolutely totally pretty quick quickly
    today tomorrow yesterday morning afternoon evening week weeks day days time times year years month
    months next last first second new old big small little sounds sound hi hello hey dear regards best
    sincerely cheers please question questions point points talk talking discuss discussed start
    call meeting email team everyone's us mr ms mrs dr hon chair
    """.split()
)

ABBREVIATIONS: frozenset[str] = frozenset(
    "mr mrs ms dr prof sr jr st inc ltd co corp vs etc e.g i.e approx dept fig jan feb mar apr jun jul aug "
    "sep sept oct nov dec mon tue tues wed thu thur thurs fri hon u.s a.m p.m".split()
)

_ANNOTATION_RE = re.compile(r"\{[a-z_]+\}|\[(?:inaudible|crosstalk|laughter|laughs|pause|music)\]", re.I)
_SPACE_BEFORE_PUNCT_RE = re.compile(r"\s+([.,!?;:%])")
_MULTI_SPACE_RE = re.compile(r"[ \t]+")
# A sentence ends at . ! ? (optionally followed by closing quotes/brackets) before whitespace.
_SENTENCE_END_RE = re.compile(r"[.!?]+[\"')\]]*(?=\s)")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d+(?:[.,]\d+)*")
_DISCOURSE_RE = re.compile(
    r"^(?:(?:okay|ok|so|alright|all right|right|well|great|good|perfect|yeah|yes|and|also|then|now|um|uh|oh|"
    r"sounds good|makes sense|got it|thanks|thank you)\b[,.!]?\s+)+",
    re.I,
)


def clean_text(text: str) -> str:
    """Drop transcription annotations ({vocalsound}, [laughter]) and fix the ' .' spacing of ASR output."""
    text = _ANNOTATION_RE.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT_RE.sub(r"\1", text)
    return _MULTI_SPACE_RE.sub(" ", text).strip()


def split_sentences(text: str) -> list[str]:
    """Sentences of one paragraph or dialogue turn; abbreviations and decimals do not end a sentence."""
    text = clean_text(text)
    if not text:
        return []
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END_RE.finditer(text):
        end = match.end()
        if match.group().startswith(".") and len(match.group().rstrip("\"')]")) == 1:
            prev_word = text[start:match.start()].rsplit(None, 1)[-1:] or [""]
            token = prev_word[0].lower().lstrip("(\"'")
            if token in ABBREVIATIONS or (len(token) == 1 and token.isalpha()):
                continue
        nxt = text[end:].lstrip()[:1]
        if nxt and nxt.islower():
            continue  # "e.g. the" or an ASR fragment: the sentence goes on
        piece = text[start:end].strip()
        if piece:
            sentences.append(piece)
        start = end
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def tokens(text: str) -> list[str]:
    """Lower-cased word and number tokens."""
    return [t.lower() for t in _WORD_RE.findall(text)]


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """A light suffix stripper so 'decided'/'decides'/'decision' and 'budgets'/'budget' meet; not Porter."""
    for suffix, min_stem in (("ational", 4), ("ations", 4), ("ation", 4), ("ings", 4), ("ing", 4), ("ies", 3),
                             ("ied", 3), ("ions", 4), ("ion", 4), ("ness", 4), ("ment", 4), ("ers", 4),
                             ("ed", 4), ("es", 4), ("ly", 4), ("er", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= min_stem:
            base = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                base += "y"
            return base.rstrip("e") if len(base) > 4 else base
    return word.rstrip("e") if len(word) > 4 else word


def is_content_word(word: str) -> bool:
    return len(word) > 1 and word not in STOPWORDS and word not in FILLER and not word.isdigit()


def content_terms(text: str) -> list[str]:
    """Stemmed content terms: the unit of every overlap, BM25 and TextRank computation."""
    return [stem(w) for w in tokens(text) if w not in STOPWORDS and len(w) > 1]


def topic_terms(text: str) -> list[str]:
    """Stemmed terms that can name a topic (stopwords and conversational filler removed)."""
    return [stem(w) for w in tokens(text) if is_content_word(w)]


def strip_discourse(sentence: str) -> str:
    """'Okay, so we agreed ...' -> 'We agreed ...': leading fillers add nothing to an extracted item."""
    stripped = _DISCOURSE_RE.sub("", sentence).strip()
    if not stripped:
        return sentence.strip()
    return stripped[0].upper() + stripped[1:]


def word_count(text: str) -> int:
    return len(text.split())


def capitalize_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


@lru_cache(maxsize=4096)
def _term_set(text: str) -> frozenset[str]:
    return frozenset(topic_terms(text))


def term_overlap(a: str, b: str) -> float:
    """Shared topic terms relative to the shorter text: 1.0 when one says all the other says."""
    terms_a, terms_b = _term_set(a), _term_set(b)
    return len(terms_a & terms_b) / max(1, min(len(terms_a), len(terms_b)))


def dedupe(texts: list[str], threshold: float) -> list[str]:
    """The texts in order, leaving out any that mostly repeats an earlier one."""
    kept: list[str] = []
    for text in texts:
        if text and not any(term_overlap(text, other) >= threshold for other in kept):
            kept.append(text)
    return kept


def clean_clause(text: str) -> str:
    """A clause as a list item: trimmed, no final punctuation, capitalized."""
    return capitalize_first(text.strip().rstrip(".?!,;:").strip())

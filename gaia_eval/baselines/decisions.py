"""Rule-based decision extraction: cue-phrase statements, and proposals that another speaker confirms."""

from __future__ import annotations

import re

from gaia_eval.baselines.document import Analysis, Sentence
from gaia_eval.baselines.text import FILLER, clean_clause, strip_discourse, term_overlap, topic_terms

_DECISION_CUE_RE = re.compile(
    r"\bdecision(?:, then)?:|"
    r"\b(?:we(?:'ve| have)? agreed|agreed (?:to|that|on)|decided|decision (?:is|was) (?:to|that)|"
    r"let(?:'s| us) go with|we(?:'ll| will) go with|(?:we're|we are) going with|approved?|final call|make the call|"
    r"we(?:'ll| will) move|mov(?:e|ing) forward with|signed off|sign(?:ing)? off on|settled on|locked in|"
    r"lock (?:it|this|that) in|green[- ]?lit|green[- ]?light(?:ed)?|the plan is to|we(?:'ll| will) proceed|"
    r"go ahead with|(?:we're|we are) dropping|(?:we're|we are) keeping|confirmed that|make it official|"
    r"where we(?:'ve)? landed|we(?:'ve)? landed on)\b",
    re.I,
)
_UNDECIDED_RE = re.compile(
    r"n't\b|\b(?:not|never|yet to|undecided|whether|if we|once we|need to decide|needs? (?:to be )?approv|"
    r"pending|haven't|hasn't|until we|before we|might|maybe)\b",
    re.I,
)
_AFFIRMATION_RE = re.compile(
    r"\b(?:agreed|i agree|approved|yes|yeah|yep|sounds good|sounds right|works for me|that works|makes sense|"
    r"no objections?|none from me|fine by me|fine with me|good with that|on board|let(?:'s| us) do (?:it|that|this)|"
    r"let(?:'s| us) go with (?:it|that|this)|go for it|that's fair|right call|can live with|deal|absolutely|"
    r"definitely|of course|perfect|support that|how i heard it|how i read it|make it official|\+1)\b",
    re.I,
)
_NEGATION_RE = re.compile(r"n't\b|\b(?:no(?! objection)|not|disagree|but|however|wait|hmm)\b", re.I)
_PROPOSAL_RE = re.compile(
    r"^(?:[^:]{0,40}:\s*)?(?:(?:so|okay|ok|then|and|well|honestly),?\s+)*"
    r"(?:should we|shall we|can we|could we|what if we|how about(?: we)?|why don't we|"
    r"can i propose(?: that)?(?: we)?|i(?:'d)? propose(?: that)?(?: we)?|"
    r"i(?:'d)? suggest(?: that)?(?: we)?|my (?:vote|recommendation|suggestion|proposal) is(?: that)?(?: we)?|"
    r"i recommend(?: that)?(?: we)?|i(?:'d)? say(?: that)? we|it sounds like we|i think we should|we could|"
    r"(?:i think )?i(?:'d| would) like (?:us )?to|"
    r"we should|maybe we|let(?:'s| us)|we(?:'ll| will)|we(?:'re| are) going to|"
    r".{0,30}\bi(?:'d)? (?:propose|suggest|recommend)(?: that)?:? we)\s+(?P<rest>.+)$",
    re.I,
)
# Everything up to and including the cue that frames a stated decision: "I'm going to make the call: we ...".
_DECISION_PREFIX_RE = re.compile(
    r"^(?:.*?\b(?:make the call|decision(?:, then)?|final call|where we(?:'ve)? landed|bottom line)\s*[:,]\s*"
    r"(?:we(?:'ll| will)?\s+)?|"
    r"we(?:'ve| have)? (?:also |all |finally |now )?(?:agreed|decided) (?:to|that|on)\s+|"
    r"it(?:'s| is| was| has been) decided that\s+|the (?:final )?decision (?:is|was) (?:to|that)\s+|"
    r"the final call is (?:to|that)\s+|the plan is to\s+|we're going to\s+)",
    re.I,
)
_COMMITMENT_RE = re.compile(r"\bI(?:'ll| will| am going to|'m going to)\b")
SAME_DECISION = 0.8
MAX_ITEMS = 40  # share of the shorter item's terms: above it, two items state one decision
_FILLER_PROPOSAL = {"sure", "mind", "start", "started", "begin", "wrap", "move", "go", "keep", "moving", "on"}


def is_affirmation(text: str) -> bool:
    """A short reply that agrees and says little else: 'Agreed.', 'No objection from me.', 'Okay, I can live
    with that.' ('The committee approved the budget.' states a decision instead.)"""
    if len(text.split()) > 10 or len(topic_terms(text)) > 3 or not _AFFIRMATION_RE.search(text):
        return False
    return not _NEGATION_RE.search(_AFFIRMATION_RE.sub(" ", text))


def _proposal_text(sentence: Sentence) -> str | None:
    """What a proposal proposes ('Can I propose we move the launch?' -> 'move the launch'), if concrete."""
    match = _PROPOSAL_RE.match(strip_discourse(sentence.text)) or _PROPOSAL_RE.match(sentence.text)
    if not match:
        return None
    # "... and revisit if it doesn't work" hedges the proposal; it does not negate it.
    rest = re.sub(r"\s+and (?:revisit|reassess|re-evaluate|see)\b.*$|[?.!]\s*$", "", match.group("rest"))
    if _NEGATION_RE.search(rest):
        return None
    content = [t for t in topic_terms(rest) if t not in _FILLER_PROPOSAL and t not in FILLER]
    return rest if len(content) >= 2 else None


def _proposal_before(analysis: Analysis, sentence: Sentence) -> tuple[Sentence, str] | None:
    """The proposal an agreement answers: one of the few sentences before it, not the agreeing speaker's
    own from an earlier turn."""
    for index in range(sentence.index - 1, max(-1, sentence.index - 5), -1):
        candidate = analysis.sentences[index]
        if candidate.speaker == sentence.speaker and candidate.turn != sentence.turn:
            continue
        if (proposed := _proposal_text(candidate)) is not None:
            return candidate, proposed
    return None


def _statement_after(analysis: Analysis, sentence: Sentence) -> Sentence | None:
    """'Let's lock it in. We move the launch.': the decision follows the cue in the same turn."""
    following = sentence.index + 1
    if following < len(analysis.sentences) and analysis.sentences[following].turn == sentence.turn:
        candidate = analysis.sentences[following]
        if re.match(r"^we\s", candidate.text, re.I) and len(topic_terms(candidate.text)) >= 2:
            return candidate
    return None


def decisions(analysis: Analysis) -> list[str]:
    """Sentences that state a decision by cue phrase, and proposals that another speaker agrees to
    (memoized on the analysis)."""
    return analysis.memo("decisions", lambda: _find_decisions(analysis))


def _find_decisions(analysis: Analysis) -> list[str]:
    stated: list[tuple[int, str]] = []
    confirmed: list[tuple[int, str]] = []
    confirmed_ids: set[int] = set()
    for sentence in analysis.sentences:
        text = strip_discourse(sentence.text)
        short_cue = len(topic_terms(text)) < 3 and _DECISION_CUE_RE.search(text)
        if short_cue and (after := _statement_after(analysis, sentence)) is not None:
            stated.append((after.index, clean_clause(re.sub(r"^we\s+", "", after.text, flags=re.I))))
            continue
        if is_affirmation(text) or short_cue:
            found = _proposal_before(analysis, sentence)
            if found is not None and found[0].index not in confirmed_ids:
                confirmed_ids.add(found[0].index)
                confirmed.append((found[0].index, clean_clause(found[1])))
            continue
        if text.endswith("?") or not _DECISION_CUE_RE.search(text) or _UNDECIDED_RE.search(text):
            continue
        framed = _DECISION_PREFIX_RE.sub("", text)
        if framed == text and _COMMITMENT_RE.search(text):
            continue  # "I'll approve the request by Friday" is an action item, not a decision
        stated.append((sentence.index, clean_clause(framed)))
    # A stated decision that restates a confirmed proposal wins: it usually names the thing decided.
    kept: list[tuple[int, str]] = []
    for index, text in stated + confirmed:
        if text and not any(term_overlap(text, other) >= SAME_DECISION for _, other in kept):
            kept.append((index, text))
            if len(kept) == MAX_ITEMS:
                break  # more than a summary can list; stop before the duplicate check turns quadratic
    return [text for _, text in sorted(kept)]

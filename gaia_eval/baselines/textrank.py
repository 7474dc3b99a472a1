"""TextRank in pure Python: sentence centrality over a similarity graph, and keyphrases over a word graph."""

from __future__ import annotations

import calendar
import math
import re
from collections import Counter, defaultdict
from typing import TypeVar

from gaia_eval.baselines.document import Analysis, Sentence
from gaia_eval.baselines.text import FILLER, STOPWORDS, stem, tokens, topic_terms

N = TypeVar("N")  # a graph node: a sentence index or a word stem
DAMPING = 0.85
MAX_ITERATIONS = 50
TOLERANCE = 1e-4  # summed absolute change of scores that sum to 1: rankings are stable well before this
MAX_WORDS = 800  # word-graph nodes for keyphrases: the most frequent candidate words
MAX_NODES = 400  # longer documents are pre-filtered by centroid weight so ranking stays well under a second
MIN_SUMMARY_WORDS = 7  # "Agreed, that works for engineering." is central but says nothing alone
NEIGHBOURS = 12
MIN_DF_CAP = 25  # each sentence keeps its strongest edges only: a sparse graph keeps power iteration cheap


def pagerank(edges: dict[N, dict[N, float]], nodes: list[N]) -> dict[N, float]:
    """Weighted PageRank by power iteration (Mihalcea & Tarau 2004, eq. 2) over an undirected graph."""
    if not nodes:
        return {}
    count = len(nodes)
    position = {node: i for i, node in enumerate(nodes)}
    # Per source: (target position, weight / source's total weight), so one iteration is a flat loop.
    links: list[list[tuple[int, float]]] = []
    for node in nodes:
        targets = [(position[t], w) for t, w in edges.get(node, {}).items() if t in position and w > 0]
        total = sum(w for _, w in targets)
        links.append([(t, w / total) for t, w in targets])
    dangling_ids = [i for i, out in enumerate(links) if not out]
    score = [1.0 / count] * count
    base = (1 - DAMPING) / count
    for _ in range(MAX_ITERATIONS):
        spill = DAMPING * sum(score[i] for i in dangling_ids) / count
        fresh = [base + spill] * count
        for source, out in enumerate(links):
            share = DAMPING * score[source]
            for target, weight in out:
                fresh[target] += share * weight
        delta = sum(abs(a - b) for a, b in zip(fresh, score, strict=True))
        score = fresh
        if delta < TOLERANCE:
            break
    return {node: score[i] for i, node in enumerate(nodes)}


def _sentence_terms(sentence: Sentence) -> set[str]:
    return {t for t in sentence.terms if t not in _FILLER_STEMS and not t[0].isdigit()}


_FILLER_STEMS = frozenset(stem(w) for w in FILLER)


def rank_sentences(sentences: list[Sentence], min_terms: int = 3) -> dict[int, float]:
    """TextRank score per sentence index; sentences with fewer than `min_terms` topic terms are not ranked."""
    term_sets = {s.index: _sentence_terms(s) for s in sentences}
    candidates = [i for i, terms in term_sets.items() if len(terms) >= min_terms]
    if not candidates:
        return {}
    df = Counter(t for i in candidates for t in term_sets[i])
    idf = {t: math.log(1 + len(candidates) / n) for t, n in df.items()}
    if len(candidates) > MAX_NODES:
        # Centroid pre-selection (Radev et al.): keep the sentences richest in the document's frequent terms.
        centroid = {t: n * idf[t] for t, n in df.items()}
        candidates.sort(key=lambda i: -sum(centroid[t] for t in term_sets[i]) / math.sqrt(len(term_sets[i])))
        candidates = sorted(candidates[:MAX_NODES])
    postings: dict[str, list[int]] = defaultdict(list)
    for i in candidates:
        for term in term_sets[i]:
            postings[term].append(i)
    overlap: dict[tuple[int, int], float] = defaultdict(float)
    max_df = max(MIN_DF_CAP, len(candidates) // 10)
    for term, members in postings.items():
        if len(members) < 2 or len(members) > max_df:
            continue  # very common terms link everything to everything and say little about centrality
        weight = idf[term]
        for a_pos, a in enumerate(members):
            for b in members[a_pos + 1:]:
                overlap[(a, b)] += weight
    neighbours: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for (a, b), shared in overlap.items():
        similarity = shared / (math.log(1 + len(term_sets[a])) + math.log(1 + len(term_sets[b])))
        neighbours[a].append((similarity, b))
        neighbours[b].append((similarity, a))
    edges: dict[int, dict[int, float]] = {i: {} for i in candidates}
    for node, linked in neighbours.items():
        for similarity, other in sorted(linked, reverse=True)[:NEIGHBOURS]:
            edges[node][other] = similarity
            edges[other][node] = similarity
    return pagerank(edges, candidates)


def top_sentences(
    analysis: Analysis, count: int, bonus: dict[int, float] | None = None, said: tuple[str, ...] = ()
) -> list[Sentence]:
    """The `count` best-ranked sentences, returned in document order. `bonus` multiplies chosen scores;
    sentences that mostly repeat what `said` already says are skipped."""
    scores = analysis.memo("sentence_rank", lambda: rank_sentences(analysis.sentences))
    if bonus:
        scores = {i: s * bonus.get(i, 1.0) for i, s in scores.items()}
    chosen: list[int] = []
    chosen_terms: list[set[str]] = [set(topic_terms(text)) for text in said]
    for index in sorted(scores, key=lambda i: -scores[i]):
        if len(analysis.sentences[index].text.split()) < MIN_SUMMARY_WORDS:
            continue
        terms = _sentence_terms(analysis.sentences[index])
        # Skip near-duplicates (MMR-style redundancy check) so the summary says more than one thing.
        if any(len(terms & other) / max(1, len(terms)) > 0.6 for other in chosen_terms):
            continue
        chosen.append(index)
        chosen_terms.append(terms)
        if len(chosen) == count:
            break
    return [analysis.sentences[i] for i in sorted(chosen)]


_CALENDAR_WORDS = frozenset(
    name.lower() for name in (*calendar.month_name, *calendar.month_abbr, *calendar.day_name) if name
)
_PHRASE_BREAK_RE = re.compile(r"[.,;:!?()\"\u2014\u2013]|\s-\s")


def keyphrases(analysis: Analysis, count: int) -> list[str]:
    """Noun-phrase-ish keyphrases: runs of up to three content words between stopwords (people's names
    excluded), scored by the TextRank of their words over a co-occurrence graph (window 2) times how often
    the phrase occurs. Memoized on the analysis."""
    ranked = analysis.memo("keyphrases", lambda: _rank_keyphrases(analysis))
    return ranked[:count]


def _rank_keyphrases(analysis: Analysis, limit: int = 20) -> list[str]:
    excluded = {word.lower() for person in analysis.people for word in person.name.split()} | _CALENDAR_WORDS
    phrases: Counter[tuple[str, ...]] = Counter()
    surface: dict[tuple[str, ...], str] = {}
    edges: dict[str, dict[str, float]] = defaultdict(dict)

    def add_run(run: list[str], stems: list[str]) -> None:
        for size in (1, 2, 3):
            for start in range(len(run) - size + 1):
                gram = tuple(stems[start:start + size])
                phrases[gram] += 1
                if gram not in surface:
                    surface[gram] = " ".join(run[start:start + size])

    for sentence in analysis.sentences:
        for chunk in _PHRASE_BREAK_RE.split(sentence.text):
            run: list[str] = []
            stems: list[str] = []
            previous: str | None = None  # window 2 over content words: stopwords between them do not break it
            for word in tokens(chunk):
                if len(word) > 2 and word not in STOPWORDS and word not in FILLER and word not in excluded \
                        and not word[0].isdigit():
                    key = stem(word)
                    run.append(word)
                    stems.append(key)
                    if previous is not None and previous != key:
                        edges[previous][key] = edges[previous].get(key, 0.0) + 1.0
                        edges[key][previous] = edges[key].get(previous, 0.0) + 1.0
                    previous = key
                elif run:
                    add_run(run, stems)
                    run, stems = [], []
            if run:
                add_run(run, stems)
    if not phrases:
        return []
    frequent = sorted(edges, key=lambda w: -sum(edges[w].values()))[:MAX_WORDS]
    kept_words = set(frequent)
    graph = {w: {o: n for o, n in edges[w].items() if o in kept_words} for w in frequent}
    word_rank = pagerank(graph, frequent) if graph else {}
    scored: list[tuple[float, tuple[str, ...]]] = []
    for gram, seen in phrases.items():
        if seen < 2 and len(analysis.sentences) > 6:
            continue
        rank = sum(word_rank.get(w, 0.0) for w in gram)
        scored.append((rank * math.log(1 + seen), gram))
    chosen: list[tuple[str, ...]] = []
    for _, gram in sorted(scored, reverse=True):
        if any(set(gram) <= set(other) or set(other) <= set(gram) for other in chosen):
            continue  # "budget" is covered by "vendor migration budget"
        chosen.append(gram)
        if len(chosen) == limit:
            break
    return [surface[g] for g in chosen]

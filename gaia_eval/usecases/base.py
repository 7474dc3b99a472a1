"""What a use case is: everything the pipeline needs to know about one kind of task, as one value.

A use case says what a model is asked for an item (the six summary styles of a document, or the answer to a
question about it), how prompts name the document, which ground truth it accepts, which scorer grades it in
each mode, what the judge is told, what a rater rates and how reports title it. Stages, the report and the
viewer ask the use case (`gaia_eval.usecases.get(name)`) and never branch on its name; a new use case is one
module holding a `UseCase` plus its registration: an entry point of the group `gaia_eval.usecases` in its
package's pyproject.toml (gaia-eval's own use cases and another package's alike).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

# What a model writes for one item, which is also the ground truth's shape: "summaries" (the six summary styles
# of a document; ground truth `summaries`/`references`) or "answer" (the answer to the item's question; ground
# truth `qa_pairs`).
Answers = Literal["summaries", "answer"]
# A scorer slot: the mode ("comparative": against ground truth; "standalone": against the source only), and
# whether the ground truth is free text (human-written references; a long-form expected answer).
ScorerSlot = tuple[str, bool]


@dataclass(frozen=True)
class UseCase:
    """One use case. Every field is data or a registry name, so building one imports nothing heavy. It is checked
    when first loaded (`gaia_eval.usecases.check_use_case`): its name must be the entry point's, `answers` a known
    kind, each `scorers` slot ("comparative" | "standalone", free_text: bool) a scorer that loads and declares
    its criteria (which are then this use case's: the report, templates and viewer show them).

    Fields (see the comments below): name, title, answers ("summaries" | "answer"), scorers, description,
    doc_label, system_prompt, judge_task, kin, rating_dimensions, baseline, template_instructions,
    answers_instructions, groundtruth_prompt, participants_note.

    Example:
        >>> incidents = UseCase(name="incidents", title="Incident write-ups", answers="summaries",
        ...                     scorers={("standalone", False): "summaries_standalone"})
        >>> incidents.asks_questions
        False
    """

    name: str  # as written in artifacts (`use_case`) and on command lines (`--use-case`)
    title: str  # report section and viewer heading
    answers: Answers
    # Scorer registry names (gaia_eval.registry.SCORERS, or "module:function") by slot; a slot left out cannot be
    # scored (a question needs its expected answer, so qa has no standalone slot).
    scorers: Mapping[ScorerSlot, str]
    description: str = ""  # one line for listings and --help
    doc_label: str = "document"  # how prompts name the document ("business email")
    system_prompt: str = ""  # the solver's default system prompt ("" : the default of its `answers` kind)
    judge_task: str = ""  # "summaries of business meetings and emails": what the judge is told it grades
    # Other use cases whose ground truth, templates and documents this one takes as its own (email <-> summarization)
    kin: tuple[str, ...] = ()
    rating_dimensions: tuple[str, ...] = ()  # what a rater scores 1-5 in `annotate`
    baseline: str = "textrank"  # the offline baseline that suits it best (the default config without -c)
    # Instructions written into `create-template` files for whoever fills them in ("": those of its kind's built-in)
    template_instructions: str = ""  # the responses template (one `response` cell per record)
    answers_instructions: str = ""  # the answers template (JSON fields)
    groundtruth_prompt: str = "groundtruth_summaries.j2"  # the jinja prompt `groundtruth --provider` sends
    participants_note: str = ""  # who takes part, for the ground-truth prompt ("the sender, the recipients and ...")

    @property
    def asks_questions(self) -> bool:
        """Each item is a question about a document, answered in words (qa-shaped ground truth)."""
        return self.answers == "answer"

    def shares_data_with(self, other: str) -> bool:
        """This use case's ground truth and documents serve `other` too (itself, or a kin)."""
        return other == self.name or other in self.kin

    def scorer_name(self, mode: str, free_text: bool) -> str | None:
        return self.scorers.get((mode, free_text))

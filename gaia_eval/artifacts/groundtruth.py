"""Artifacts of the groundtruth stage: expected answers per input document, and their consolidation."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, SerializerFunctionWrapHandler, model_serializer

from gaia_eval.artifacts.base import Artifact, Count, NonNegative, Strict, Usage
from gaia_eval.artifacts.documents import PlantedFacts
from gaia_eval.artifacts.store import load_json_file, parse_artifact
from gaia_eval.errors import ArtifactError
from gaia_eval.registry import USE_CASES as USE_CASE_REGISTRY


class UnknownUseCase(ValueError):
    """A file names a use case nothing registers: most likely the package that adds it is not installed here."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown use case '{name}'")
        self.fix = (f"install the package that registers it under gaia_eval.usecases, or use one of: "
                    f"{', '.join(USE_CASE_REGISTRY.names())}")


def _known_use_case(name: str) -> str:
    """A use case name the registry knows (built in, or from an installed package's entry point)."""
    if name not in USE_CASE_REGISTRY:
        raise UnknownUseCase(name)
    return name


# A use case's name. Which names exist is the registry's say (gaia_eval.registry.USE_CASES), so a package that adds
# a use case adds a name artifacts accept.
UseCase = Annotated[str, AfterValidator(_known_use_case)]

# The six summary styles; the same keys for meetings and emails so eval compares like with like.
SUMMARY_STYLES: tuple[str, ...] = (
    "executive_summary",
    "detailed_summary",
    "action_items",
    "key_decisions",
    "participants",
    "topics_discussed",
)


class Summaries(Strict):
    executive_summary: str = ""
    detailed_summary: str = ""
    action_items: list[str] = Field(default_factory=list)
    key_decisions: list[str] = Field(default_factory=list)
    participants: list[str] = Field(default_factory=list)
    topics_discussed: list[str] = Field(default_factory=list)


class QAPair(Strict):
    id: str  # stable within the document, e.g. "q01-owner"
    query: str
    answer: str
    answer_type: Literal["number", "string", "list"]
    evidence: str | None = None  # span of the document that supports the answer
    # More reference answers to the same question (e.g. NarrativeQA's two human answers): an answer that gives
    # any of them is correct. Written only when there are some, so files of one answer keep their bytes.
    other_answers: list[str] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("other_answers"):
            data.pop("other_answers", None)
        return data

    @property
    def answers(self) -> list[str]:
        """Every reference answer: `answer` first."""
        return [self.answer, *self.other_answers]


class SourceDocument(Strict):
    path: str  # as found (relative to the folder given to the stage)
    fingerprint: str
    text: str  # embedded so later stages never depend on the source path still resolving


class Provenance(Strict):
    """Where imported ground truth came from: `human` references read from a user's file."""

    kind: Literal["human"] = "human"
    file: str
    fingerprint: str  # sha256 of the imported file's bytes
    line: Count  # the item's line (jsonl, csv) or position (json, 1-based) in that file


class GroundTruth(Artifact):
    """`<stem>.<use_case>.groundtruth.json`."""

    kind: Literal["groundtruth"] = "groundtruth"
    use_case: UseCase
    item_id: str  # the document stem, unique within a consolidated file
    source: SourceDocument
    doc_type: str | None = None
    method: str  # "planted_facts" or "llm:<provider>:<model>"
    summaries: Summaries | None = None
    qa_pairs: list[QAPair] | None = None
    facts: PlantedFacts | None = None  # kept when known: lets deterministic checkers match owners and dates
    usage: Usage | None = None
    cost_usd: NonNegative | None = None
    # Imported human ground truth only (absent from generated files, so their bytes and fingerprints are unchanged):
    provenance: Provenance | None = None
    references: list[str] | None = None  # every human reference summary, free text; scored best-of (see freetext)

    @model_serializer(mode="wrap")
    def _omit_absent_import_fields(self, handler):
        data = handler(self)
        for key in ("provenance", "references"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


class ConsolidatedEntry(Strict):
    item_id: str
    groundtruth_file: str
    fingerprint: str


class ConsolidatedGroundTruth(Artifact):
    """`consolidated_<use_case>_groundtruth.json`: every per-file artifact of one output folder, embedded."""

    kind: Literal["consolidated_groundtruth"] = "consolidated_groundtruth"
    use_case: UseCase
    source_files: list[ConsolidatedEntry]
    items: list[GroundTruth]


def read_groundtruth_file(path: Path) -> list[GroundTruth]:
    """The ground-truth items of a consolidated file or of one document's file."""
    data = load_json_file(path)
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "consolidated_groundtruth":
        return parse_artifact(path, data, ConsolidatedGroundTruth).items
    if kind == "groundtruth":
        return [parse_artifact(path, data, GroundTruth)]
    raise ArtifactError(
        f"is not a ground-truth file (kind: {kind or 'missing'})",
        file=path,
        fix="pass a *.groundtruth.json written by `gaia-eval groundtruth`, or a folder of .txt documents",
    )

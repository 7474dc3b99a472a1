"""The base classes every artifact model derives from: strict keys, schema_version, recorded input fingerprints."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1


class Strict(BaseModel):
    """Any nested record: unknown keys are an error, so typos and drift never pass silently."""

    model_config = ConfigDict(extra="forbid")


class Artifact(Strict):
    """A top-level file. `inputs` holds the fingerprints of everything it was made from (files and settings);
    a stage skips an output whose recorded `inputs` equal the ones it would use now."""

    schema_version: int = SCHEMA_VERSION
    inputs: dict[str, str] = Field(default_factory=dict)


class Usage(Strict):
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )

    def __sub__(self, other: "Usage") -> "Usage":
        return Usage(
            input_tokens=max(0, self.input_tokens - other.input_tokens),
            output_tokens=max(0, self.output_tokens - other.output_tokens),
        )

"""The base classes every artifact model derives from: strict keys, schema_version, recorded input fingerprints."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

SCHEMA_VERSION = 1
MAX_COUNT = 10**15  # far above any real token count; 1e30 tokens is a broken file, not a big run


def _not_a_bool(value: Any) -> Any:
    # pydantic reads true as 1 and 1.0 in lax mode: a flag where a number belongs is a mistake, not a one.
    if isinstance(value, bool):
        raise ValueError("must be a number, not true or false")
    return value


# The numeric fields of every artifact: counts are whole and non-negative, measures finite (never NaN or
# infinite), costs, times and rates also non-negative. A file breaking one is refused with its field named.
Count = Annotated[int, BeforeValidator(_not_a_bool), Field(ge=0, le=MAX_COUNT)]
NonNegative = Annotated[float, BeforeValidator(_not_a_bool), Field(ge=0, allow_inf_nan=False)]
Finite = Annotated[float, BeforeValidator(_not_a_bool), Field(allow_inf_nan=False)]
Share = Annotated[float, BeforeValidator(_not_a_bool), Field(ge=0, le=1, allow_inf_nan=False)]


class Strict(BaseModel):
    """Any nested record: unknown keys are an error, so typos and drift never pass silently."""

    model_config = ConfigDict(extra="forbid")


class Artifact(Strict):
    """A top-level file. `inputs` holds the fingerprints of everything it was made from (files and settings);
    a stage skips an output whose recorded `inputs` equal the ones it would use now."""

    schema_version: int = SCHEMA_VERSION
    inputs: dict[str, str] = Field(default_factory=dict)


class Usage(Strict):
    input_tokens: Count = 0
    output_tokens: Count = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )

    def __sub__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=max(0, self.input_tokens - other.input_tokens),
            output_tokens=max(0, self.output_tokens - other.output_tokens),
        )

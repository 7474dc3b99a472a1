"""The one exception tree of gaia-eval; the CLI turns its root into a one-line message and an exit code.

Exit codes: 2 for usage and input errors (the user can fix the command or the file), 1 for a run that
failed (some items errored, a provider failed for good).
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gaia_eval.artifacts.base import Usage


class GaiaEvalError(Exception):
    """Root of every error gaia-eval raises on purpose. `str(err)` is the full one-line message."""

    exit_code = 1

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        field: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.field = field
        self.fix = fix
        super().__init__(self.one_line())

    def one_line(self) -> str:
        parts = []
        if self.file:
            parts.append(self.file)
        if self.field:
            parts.append(f"field '{self.field}'")
        head = ": ".join(parts)
        text = f"{head}: {self.message}" if head else self.message
        if self.fix:
            text = f"{text} (fix: {self.fix})"
        # Keep the promise of one line even when a message embeds a multi-line SDK error.
        return " ".join(text.split())


class UsageError(GaiaEvalError):
    """A bad command line, a bad input file or a bad config: the user must change something."""

    exit_code = 2


class InputError(UsageError):
    """An input file is missing, unreadable, empty, binary or of the wrong kind."""


class ConfigError(UsageError):
    """An experiment config (or other settings file) does not validate."""


class PluginError(ConfigError):
    """An installed package's code (or a `module:attr` a user named) failed while it was imported or called: a
    provider factory, a use case, scorer, match mode or runner that raises. Where one item or experiment uses it,
    that item or experiment fails with this reason and the others go on."""


class ArtifactError(UsageError):
    """An artifact file does not parse or validate against its schema."""


class MissingCredentialsError(UsageError):
    """A cloud provider needs an API key that is not in the environment."""


class StorageError(GaiaEvalError):
    """A file could not be written (disk full, permissions): the run stops; what was written before stays."""


def storage_error(path: str | Path, exc: OSError) -> StorageError:
    """The one-line error for a write the file system refused mid-run (ENOSPC and the like)."""
    reason = exc.strerror or type(exc).__name__
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        fix = "free disk space (or pass an output folder on another disk), then run the same command again to resume"
    else:
        fix = "check the folder and its disk, then run the same command again to resume"
    return StorageError(f"cannot be written ({reason})", file=path, fix=fix)


class RunFailed(GaiaEvalError):
    """The run finished but some work failed; the artifacts record which and why."""

    exit_code = 1


class ProviderError(GaiaEvalError):
    """A model call failed. `retryable` says whether the concurrency helper may try again."""

    retryable = False
    reason = "provider_error"

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs) -> None:
        self.retry_after = retry_after
        super().__init__(message, **kwargs)


class RateLimitError(ProviderError):
    retryable = True
    reason = "rate_limit"


class ServerError(ProviderError):
    retryable = True
    reason = "server_error"


class ProviderTimeoutError(ProviderError):
    retryable = True
    reason = "timeout"


class ContextOverflowError(ProviderError):
    """The prompt does not fit the model's context window. Not transient: the same request fails the same way,
    so it is never retried; the fix is a shorter input or a model served with a larger context."""

    reason = "context_overflow"


class ConnectionFailedError(ProviderError):
    retryable = True
    reason = "connection"


class MalformedResponseError(ProviderError):
    # A garbled body is often a transient proxy/server fault, so one more attempt is worth it.
    retryable = True
    reason = "malformed_response"
    raw_text: str | None = None  # the reply as received (key-free), when the provider had one
    # The tokens the unusable reply was billed for, when it reported them: spent all the same, so counted.
    usage: Usage | None = None


class AuthError(ProviderError):
    reason = "auth"


class BadRequestError(ProviderError):
    reason = "bad_request"


class BatchRequestError(ProviderError):
    """One request inside a provider batch did not succeed (errored, expired, canceled): recorded as an error item
    with the provider's reason. Not retried inside the run (the batch is over); `--retry-errors` asks again."""

    reason = "batch"

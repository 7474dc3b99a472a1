"""A click choice whose names come from one of gaia_eval.registry's open registries, read when first needed (help,
a name that is not built in), so other packages' entry points are not scanned at CLI start."""

from __future__ import annotations

import click


class RegistryChoice(click.Choice):
    """The names of the registry `gaia_eval.registry.<registry>` (e.g. "MATCH_MODES"), built in first."""

    def __init__(self, registry: str) -> None:
        self._registry = registry
        super().__init__(())

    def _names(self):
        from gaia_eval import registry

        return getattr(registry, self._registry)

    @property
    def choices(self) -> tuple[str, ...]:
        return self._names().names()

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ assigns it; the registry is the source
        pass

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value in self._names().builtin:
            return value  # a built-in name needs no entry-point scan
        return super().convert(value, param, ctx)


class UseCaseChoice(RegistryChoice):
    """A --use-case: every registered use case (a package's too), none imported to list them; an unknown name is
    refused with the names there are."""

    def __init__(self) -> None:
        super().__init__("USE_CASES")

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value in self._names():  # a built-in name needs no entry-point scan
            return value
        self.fail(f"unknown use case '{value}': use one of: {', '.join(self.choices)}", param, ctx)


class ProviderChoice(RegistryChoice):
    """A --provider: every registered provider. `follows_prompts=True` leaves out the offline baselines; `extra`
    adds choices of the command's own (generate's `offline`)."""

    def __init__(self, *, follows_prompts: bool | None = None, extra: tuple[str, ...] = ()) -> None:
        self._follows_prompts = follows_prompts
        self._extra = extra
        super().__init__("PROVIDERS")

    @property
    def choices(self) -> tuple[str, ...]:
        from gaia_eval.registry import provider_names

        return (*self._extra, *provider_names(follows_prompts=self._follows_prompts))

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ assigns it; the registry is the source
        pass

    def convert(self, value, param, ctx):
        if value in self._extra:
            return value
        if isinstance(value, str) and value in self._names().builtin:  # a built-in name needs no entry-point scan
            from gaia_eval.registry import provider_entry

            if self._follows_prompts in (None, provider_entry(value).follows_prompts):
                return value
        return click.Choice.convert(self, value, param, ctx)

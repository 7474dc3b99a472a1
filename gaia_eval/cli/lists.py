"""List-valued options given as separate words (`--meeting-types standup planning`) as well as with commas
(`--meeting-types standup,planning`): the reference tool's documentation uses the first form, click only
knows the second. A command built with `ListOptionsCommand` folds the words after such an option into one
comma-separated value before click parses them."""

from __future__ import annotations

import click


def fold_list_words(
    args: list[str], list_options: set[str], repeat_options: frozenset[str] | set[str] = frozenset()
) -> list[str]:
    """`--opt a b c --next` -> `--opt a,b,c --next`: every word up to the next option joins the list. For a
    path option in `repeat_options` (a shell glob: `-i gt/consolidated_*.json`), the option is repeated instead:
    `-i a b` -> `-i a -i b`, since a path may hold a comma."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        out.append(arg)
        i += 1
        if arg == "--":
            out.extend(args[i:])
            break
        if arg not in list_options and arg not in repeat_options:
            continue
        words: list[str] = []
        while i < len(args) and not args[i].startswith("-"):
            words.append(args[i])
            i += 1
        if not words:
            continue
        if arg in repeat_options:
            out.append(words[0])
            for word in words[1:]:
                out.extend([arg, word])
        else:
            out.append(",".join(words))
    return out


def split_list(value: str | None) -> list[str] | None:
    """'a,b c' -> ['a', 'b', 'c']; None or blank -> None (the option's default)."""
    if not value:
        return None
    return [t for t in value.replace(",", " ").split() if t] or None


class ListOptionsCommand(click.Command):
    """A click command whose list-valued options (named in `list_options`) also take separate words."""

    def __init__(
        self, *args, list_options: tuple[str, ...] = (), repeat_options: tuple[str, ...] = (), **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.list_options = set(list_options)
        self.repeat_options = set(repeat_options)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, fold_list_words(list(args), self.list_options, self.repeat_options))

"""The `kscore` command: score kingdom files (and, later, photos) and rank the players.

`main()` dispatches: if the first argument names a subcommand in SUBCOMMANDS it
runs that Typer app, otherwise the root `kscore FILE...` score command. Typer
cannot mix a positional FILE... root command with subcommands, hence this.
Every bad input ends as one line on stderr and exit code 2 (3: nothing
recognisable in a photo); no traceback reaches the user.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Optional

import typer
from typer._click.exceptions import ClickException  # typer 0.28 vendors click
from rich.console import Console

from kscore.app.inputs import (
    emit_json, every_file_failed, failures_json, is_folder, load_game, load_games, one_game, say_failures, score_games,
)
from kscore.app.interrupt import INTERRUPTED, say_interrupted
from kscore.errors import KscoreError
from kscore.filetypes import DECODABLE_SUFFIXES, each_once, is_image
from kscore.game import registry
from kscore.game.ranking import dynasty, rank
from kscore.game.rules import GameRules


#: Subcommands: name -> ("module:attribute" of a typer.Typer, one-line help).
#: Imported only when run, so scoring text never loads models. Add one with one line.
#: train and eval live in the lab layer, above this one: named here, never imported by it.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "dynasty": ("kscore.app.cli:dynasty_app", "sum each player's scores over several games (one file per game)"),
    "serve": ("kscore.app.web.serve:serve_app", "a page to score the table from a phone and fix a square with a tap (--host 0.0.0.0 for phones)"),
    "train": ("kscore.lab.commands:train_app", "rebuild the recognition models from labelled boards"),
    "eval": ("kscore.lab.commands:eval_app", "measure recognition on a labelled folder (--cv: grouped cross-validation)"),
}

_FORMAT_HELP = "The kingdom text format and the --json schema: README.md, sections 'The kingdom text format' and 'JSON output'."

_EXIT_HELP = ("Exit codes: 0 scored; 2 bad input (unreadable file, parse error, unsupported size, bad option); "
              "3 nothing recognisable in a photo. With several files, one that fails is reported and the others "
              "are still scored (the exit code is then the failure's; --json lists it under \"failures\").")


def _epilog() -> str:
    subs = "\n\n".join(f"kscore {name} --help : {text}" for name, (_, text) in SUBCOMMANDS.items())
    return (
        "[b]Examples[/b]\n\n"
        "kscore game.kingdom : score every kingdom in a file, then rank them\n\n"
        "kscore alice.kingdom bob.kingdom -v harmony -v middle-kingdom : one kingdom per file, variants on\n\n"
        "kscore game.kingdom --json : one JSON document on stdout, nothing else\n\n"
        "kscore photo.jpg : a photo of the table; writes what it read to photo.kingdom, unsure squares marked ?\n\n"
        "kscore photo.kingdom : rescore after fixing a square in that file\n\n"
        "kscore photo.jpg --overlay check.jpg : draw the grid and every reading on the photo\n\n"
        "kscore table.jpg --names Anna,Ben --sheet sheet.png : name the photo's kingdoms, draw the score sheet\n\n"
        "kscore game.kingdom --csv - : the CSV alone on standard output (points per terrain and bonus)\n\n"
        "kscore tournament/ --each --csv results.csv : every photo of a folder its own game, one CSV line per kingdom\n\n"
        f"[b]Subcommands[/b]\n\n{subs}\n\n"
        f"{_EXIT_HELP}\n\n{_FORMAT_HELP}"
    )


def _interruptible(command):
    """Ctrl-C ends a command with exit code 130 (click would say 'Aborted!' and exit 1); main() says
    "interrupted". Files are written whole or not at all (pipeline.write_whole)."""
    import functools

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            raise typer.Exit(INTERRUPTED) from None

    return run


def _fail(error: KscoreError) -> typer.Exit:
    print(f"kscore: {error}", file=sys.stderr)
    return typer.Exit(error.exit_code)


def base_rules(variants: list[str], no_tileset: bool, game: str = "kingdomino") -> GameRules:
    """Rules from the command-line flags; each file's header adds to them (its `game:` wins over --game)."""
    names = [v.strip().lower() for value in variants for v in value.split(",") if v.strip()]  # -v a,b as in files
    for name in names:
        if name not in registry.VARIANTS:
            raise KscoreError(f"unknown variant '{name}' (expected one of {', '.join(registry.VARIANTS)})")
    if game.strip().lower() not in registry.GAMES:
        raise KscoreError(f"unknown game '{game}' (expected one of {', '.join(registry.GAMES)})")
    return GameRules(game=game.strip().lower(), variants=frozenset(names), use_tileset=not no_tileset)


def player_names(value: str | None) -> list[str]:
    """`--names Anna,Ben` -> ['Anna', 'Ben']; a name a [Name] line cannot hold, or given twice, is refused."""
    if value is None:
        return []
    names = [n.strip() for n in value.split(",")]
    for name in names:
        if not name or any(c in name for c in "[]#"):
            raise KscoreError(f"--names {value}: {name!r} cannot be a player's name (no empty names, no [ ] #)")
    folded = [n.casefold() for n in names]
    twice = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if twice:
        raise KscoreError(f"--names {value}: {', '.join(twice)} given twice; each player needs their own name")
    return names


def _once(files: list[Path]) -> list[Path]:
    """Each file once: `kscore a.kingdom a.kingdom` scores one kingdom, not two players tied."""
    repeated: list[str] = []
    out = each_once(files, repeated)
    for note in repeated:
        print(f"kscore: {note}", file=sys.stderr)
    return out


class PlainHelp(typer.core.TyperCommand):
    """Help as a person reads it: `Usage: kscore [OPTIONS] FILE...`, no `<bool>` beside -h and no
    `{FILE}` or `<path>` beside FILE (Typer 0.28 prints its braces and Python types there)."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, typer.core.TyperArgument) and param.metavar:
                shown = param.metavar + ("..." if param.nargs != 1 else "")
                shown = shown if param.required else f"[{shown}]"
                # Typer 0.28 asks the argument for its usage name and its type for the type column.
                param.make_metavar = lambda ctx, usage=False, shown=shown, name=param.metavar: shown if usage else name
                param.type.get_metavar = lambda param, ctx: ""
        return params


# ---------------------------------------------------------------- kscore FILE...

score_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode="rich",
                        context_settings={"help_option_names": ["-h", "--help"]})

_FILES = typer.Argument(..., metavar="FILE", show_default=False,
                        help="Kingdom text files (*.kingdom or any text), photos "
                             f"({' '.join(sorted(DECODABLE_SUFFIXES))}) "
                             "or folders of photos; - reads a kingdom text from standard input.")
_JSON = typer.Option(False, "--json", metavar="", help="Print one JSON document on stdout and nothing else.")
_VARIANT = typer.Option([], "--variant", "-v", metavar="NAME",
                        help=f"Turn a variant on for every kingdom (repeatable): {', '.join(registry.VARIANTS)}.")
_NO_TILESET = typer.Option(False, "--no-tileset", metavar="", help="Skip the plausibility checks against the real tile box.")
_GAME = typer.Option("kingdomino", "--game", metavar="NAME",
                     help=f"The game of files whose header has no 'game:' line: {', '.join(registry.GAMES)}.")


_SCORE_HELP = (
    "Score finished Kingdomino kingdoms and rank the players.\n\n"
    "All the kingdoms given are the players of one game (a file may hold several, each under a [Name] line). "
    "Several players get a score sheet: a column each, points per terrain and per bonus, total, place and the "
    "tiebreak that decided it (official: points, largest property, most crowns, else shared); --detail adds each "
    "kingdom's grid and property table. One kingdom gets its grid and table."
)


_OVERLAY = typer.Option(None, "--overlay", metavar="OUT.jpg",
                        help="Photos: draw the grid, each square's reading, unsure squares, properties and score "
                             "(a file replaced is kept as .bak).")
_CSV = typer.Option(None, "--csv", metavar="OUT.csv",
                    help="Also write one line per kingdom (place, total, points per terrain and per bonus) to a CSV "
                         "file (a file replaced is kept as .bak); --csv - writes only the CSV, to standard output.")
_DETAIL = typer.Option(False, "--detail", "-d", metavar="",
                       help="After the score sheet, each kingdom's grid, property table, bonus reasons, unsure squares "
                            "and warnings.")
_SHEET = typer.Option(None, "--sheet", metavar="OUT.png",
                      help="Draw the score sheet as a picture (.png, .jpg or .svg) with each kingdom's grid beside "
                           "its column, for sharing (a file replaced is kept as .bak).")
_NAMES = typer.Option(None, "--names", metavar="A,B,...",
                      help="Photos: the players' names, in photo order (top to bottom, left to right).")
_REREAD = typer.Option(False, "--reread", metavar="",
                       help="Photos: score what the photo reads even when its .kingdom file holds your corrections.")
_EACH = typer.Option(False, "--each", metavar="", help="Each file is its own game (a tournament's folder), ranked alone.")
_JOBS = typer.Option(0, "--jobs", "-j", metavar="N", show_default=False,
                     help="Photos read at once, each in its own process (default: the cores you have; 1: one at a time).")
_FORCE = typer.Option(False, "--force", metavar="", help="Photos: replace an existing photo.kingdom (the old one kept as .bak).")


def _print_version(value: bool) -> None:
    if value:
        from kscore import __version__

        print(f"kscore {__version__}")
        raise typer.Exit()


_VERSION = typer.Option(False, "--version", metavar="", is_eager=True, callback=_print_version,
                        help="Print kscore's version and exit.")


@score_app.command(help=_SCORE_HELP, epilog=_epilog(), cls=PlainHelp)
@_interruptible
def score(files: list[Path] = _FILES, as_json: bool = _JSON, variant: list[str] = _VARIANT,
          no_tileset: bool = _NO_TILESET, game: str = _GAME, overlay: Optional[Path] = _OVERLAY,
          csv: Optional[Path] = _CSV, sheet: Optional[Path] = _SHEET, detail: bool = _DETAIL,
          names: Optional[str] = _NAMES, reread: bool = _REREAD, each: bool = _EACH, force: bool = _FORCE,
          jobs: int = _JOBS,
          version: bool = _VERSION) -> None:
    """Score the kingdoms in FILE... (see _SCORE_HELP)."""
    from kscore.app import report

    try:
        rules = base_rules(variant, no_tileset, game)
        if csv is not None and str(csv) == "-" and as_json:
            raise KscoreError("--csv - and --json both want standard output: choose one (or --csv FILE)")
        if overlay or csv or sheet or each or names or any(is_folder(p) or is_image(p) for p in files):
            # Photos, folders, several games, files written: kscore.app.batch (imported only then).
            from kscore.app.batch import Outputs, run_score

            outputs = Outputs(as_json=as_json, overlay=overlay, csv_path=csv, sheet=sheet, detail=detail,
                              names=player_names(names), reread=reread)
            if jobs < 0:
                raise KscoreError(f"--jobs {jobs}: give a number of processes, 1 or more (0: one per core)")
            if jobs == 0:
                from kscore.app.parallel import default_jobs

                jobs = default_jobs()
            code = run_score(files, rules, outputs, each=each, force=force, jobs=jobs)
            if code:
                raise typer.Exit(code)
            return
        games, failures = load_games(_once(files), lambda path: load_game(path, rules))  # the others still scored
        if not games:
            raise every_file_failed(failures, as_json, {"kingdoms": [], "ranking": []})
        played = one_game(games)
    except KscoreError as error:
        raise _fail(error) from None
    scores = score_games(games)
    ranking = rank(scores, played)
    if as_json:
        document = report.scores_json(scores, ranking)
        if failures:
            document["failures"] = failures_json(failures)
        emit_json(document)
    else:
        title = report.game_title([g.source for g in games], games[0].rules)
        report.print_scores(Console(emoji=False), scores, ranking, detail=detail, title=title)  # names as written
    code = say_failures(failures)
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------- kscore dynasty FILE...

dynasty_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode="rich",
                        context_settings={"help_option_names": ["-h", "--help"]})


@dynasty_app.command(cls=PlainHelp, epilog="[b]Example[/b]\n\nkscore dynasty game1.kingdom game2.kingdom game3.kingdom\n\n"
                     + _EXIT_HELP + "\n\n" + _FORMAT_HELP)
@_interruptible
def dynasty_command(files: list[Path] = _FILES, as_json: bool = _JSON, variant: list[str] = _VARIANT,
                    no_tileset: bool = _NO_TILESET, game: str = _GAME) -> None:
    """Dynasty: add up each player's totals over several games (one file per game; players matched by name)."""
    from kscore.app import report

    try:
        rules = base_rules(variant, no_tileset, game)
    except KscoreError as error:
        raise _fail(error) from None
    # A dynasty's totals need every game, so a bad file stops it; but every bad
    # file is named at once, so all can be fixed before the next run.
    games, failures = load_games(_once(files), lambda path: load_game(path, rules))  # a game given twice counts once
    if failures:  # --json still prints its one document, naming what failed
        if as_json:
            emit_json({"games": [], "players": [], "ranking": [], "warnings": [], "failures": failures_json(failures)})
        raise typer.Exit(say_failures(failures))
    try:
        for g in games:
            _one_player_per_name(g)
    except KscoreError as error:
        raise _fail(error) from None
    per_game = [score_games([g]) for g in games]
    names = [Path(g.source).name for g in games]
    result = dynasty(per_game, names)
    if as_json:
        emit_json(report.dynasty_json(result, names, per_game))
    else:
        console = Console(emoji=False)  # a name like a:smile: is shown as written
        for scores, g in zip(per_game, games):
            report.print_scores(console, scores, rank(scores), title=report.game_title([g.source], g.rules))
        report.print_dynasty(console, result, names)


def _one_player_per_name(game) -> None:
    """A dynasty matches players by name, ignoring case and spacing: two kingdoms of one game whose names
    match that way would be one player with one score lost, so they are refused."""
    seen: dict[str, str] = {}
    for kingdom in game.kingdoms:
        key = " ".join(kingdom.name.split()).casefold()
        if key in seen:
            raise KscoreError(f"{game.source}: '{seen[key]}' and '{kingdom.name}' are one player in a dynasty "
                              "(names match ignoring case and spaces): rename one")
        seen[key] = kingdom.name


# ---------------------------------------------------------------- entry point


def _subcommand_app(name: str) -> typer.Typer:
    module, _, attribute = SUBCOMMANDS[name][0].partition(":")
    return getattr(importlib.import_module(module), attribute)


def main(argv: Optional[list[str]] = None) -> None:
    """Console-script entry point: dispatch to a subcommand or the score command."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "" in args:  # Path("") is ".": `kscore "$PHOTO"` with PHOTO unset would score the current folder
        print("kscore: an empty argument (an unset variable in a script?): name a file", file=sys.stderr)
        sys.exit(2)
    try:
        if args and args[0] in SUBCOMMANDS:
            name = f"kscore {args[0]}"
            code = _subcommand_app(args[0])(args=args[1:], prog_name=name, standalone_mode=False)
        else:
            name = "kscore"
            code = score_app(args=args, prog_name=name, standalone_mode=False)
        if code == INTERRUPTED:  # typer also turns a Ctrl-C while parsing into this code
            say_interrupted()
        sys.exit(code if isinstance(code, int) else 0)  # typer.Exit(code) is returned when not standalone
    except ClickException as error:  # click would draw a framed box over several lines
        message = error.format_message().rstrip(".")
        print(f"kscore: {message[:1].lower() + message[1:]}; {name} --help lists what it takes", file=sys.stderr)
        sys.exit(2)
    except KscoreError as error:  # raised outside a command's own handling
        print(f"kscore: {error}", file=sys.stderr)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        say_interrupted()
    except BrokenPipeError:  # `kscore ... | head`: the reader left; nothing to say
        sys.exit(INTERRUPTED)
    except OSError as error:  # a file kscore could not use: bad input, one line
        print(f"kscore: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        sys.exit(2)
    except Exception as error:  # never a traceback for the user
        print(f"kscore: internal error: {type(error).__name__}: {error} (please report it)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

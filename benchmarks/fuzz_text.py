"""Fuzz kscore's text input: mutated .kingdom files through the real command line (in process).

    python benchmarks/fuzz_text.py [--count 100000] [--seed 16]

Each input is a seed file (tests/data, sample_images) mutated a few times: bytes
flipped, spans cut or repeated, lines swapped, and tokens a hostile user would
type inserted (numbers of 5,000 digits, superscript digits, [ ] : #, CR, VT, NEL,
U+2028, NUL, other games' keys). It is written to a file and scored with
`kscore FILE --json` (one in 50 without --json, through the terminal tables).

Counted: exit codes, runs that raised out of main() (a traceback), errors that are
not one line, and the shape of each error line: `file:line:col: ...`, or `file: ...`
for problems of the whole file (empty, binary, no kingdom). Prints the figures and
exits 1 if any run exited with other than 0 or 2, raised, or said more than a line.
"""

from __future__ import annotations

import argparse
import collections
import io
import random
import re
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.app.cli import main as kscore_main  # noqa: E402

HOSTILE = ["9" * 5000, "1" * 4301, "²", "³", "٣", "-1", "+2", "1_000", "0x10", "[", "]", "[A]", "[]", ":", "#", "\r",
           "\r\n", "\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x00", "\ufeff", " ", "\t", "?", "g", "g0",
           "g99", "M3g3", "C1", ".", "W9", "coins: ", "buildings: ", "cavemen: ", "warrior:2@1,1", "hunter:lake@9,9",
           "frame: ", "frame: maybe", "variants: ", "game: queendomino\n", "game: origins\n", "game: chess\n",
           "quests: ", "tileset: none\n", "knights: ", "towers: ", "queen: ", "resources: ", "totems: mammoth",
           "x" * 100_000, "é", "\udcff"]


def seeds() -> list[bytes]:
    files = sorted((PROJECT / "tests" / "data").rglob("*.kingdom")) + sorted((PROJECT / "sample_images").glob("*.kingdom"))
    return [f.read_bytes() for f in files]


def mutate(data: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        at = rng.randint(0, len(data))
        if kind == 0 and data:  # flip a byte
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif kind == 1:  # a hostile token
            token = rng.choice(HOSTILE).encode("utf-8", "surrogateescape")
            data = data[:at] + token + data[at:]
        elif kind == 2:  # cut a span
            data = data[:at] + data[at + rng.randint(1, 40):]
        elif kind == 3:  # repeat a span
            data = data[:at] + data[at:at + rng.randint(1, 60)] * rng.randint(2, 5) + data[at:]
        elif kind == 4:  # swap two lines
            lines = data.split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                data = b"\n".join(lines)
        elif kind == 5:  # truncate
            data = data[:at]
        else:  # a whole line of hostile tokens
            line = " ".join(rng.choice(HOSTILE) for _ in range(rng.randint(1, 6))).encode("utf-8", "surrogateescape")
            data = data[:at] + b"\n" + line + b"\n" + data[at:]
    if rng.random() < 0.02:
        data = data.decode("utf-8", "replace").encode("utf-16")
    return data


LOCATED = re.compile(r"^kscore: .+?:\d+:\d+: ")
WHOLE_FILE = re.compile(r"^kscore: .+?: ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    corpus = seeds()
    exits: collections.Counter = collections.Counter()
    shapes: collections.Counter = collections.Counter()
    bad: list[str] = []
    whole_file: collections.Counter = collections.Counter()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.kingdom"
        for n in range(args.count):
            data = mutate(rng.choice(corpus), rng)
            path.write_bytes(data)
            argv = [str(path)] + ([] if n % 50 == 0 else ["--json"])
            out, err = io.StringIO(), io.StringIO()
            try:
                with redirect_stdout(out), redirect_stderr(err):
                    kscore_main(argv)
                code = 0
            except SystemExit as done:
                code = done.code or 0
            except BaseException as error:  # what a user would see as a traceback
                code = "raised"
                bad.append(f"run {n}: raised {type(error).__name__}: {str(error)[:200]}")
            exits[code] += 1
            said = err.getvalue().split("\n")[:-1]  # only \n ends a line on a terminal
            lines = [line for line in said if line.startswith("kscore: ")]
            if code == 2:
                errors = [line for line in lines if str(path) in line]
                if len(errors) != 1 or len(said) != len(lines):
                    shapes["not one line"] += 1
                    bad.append(f"run {n}: {err.getvalue()[:300]!r}")
                elif LOCATED.match(errors[0]):
                    shapes["file:line:col"] += 1
                elif WHOLE_FILE.match(errors[0]):
                    shapes["file (whole-file problem)"] += 1
                    whole_file[re.sub(r"\d+", "N", errors[0].split(": ", 2)[2])[:70]] += 1
                if len(errors[0] if errors else "") > 600:  # the longest real one lists the 17 quests
                    shapes["longer than 600 characters"] += 1
                    bad.append(f"run {n}: {len(errors[0])} characters: {errors[0][:150]}...{errors[0][-150:]}")
            elif code not in (0,):
                bad.append(f"run {n}: exit {code}: {err.getvalue()[:300]!r}")
            if (n + 1) % 10_000 == 0:
                print(f"  {n + 1} runs, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"{args.count} mutated inputs (seed {args.seed}) in {time.perf_counter() - start:.0f} s")
    print("exit codes:", dict(sorted(exits.items(), key=str)))
    print("error lines:", dict(shapes))
    for message, count in whole_file.most_common():
        print(f"  whole-file: {count:6}  {message}")
    print(f"problems: {len(bad)}")
    for line in bad[:20]:
        print("  ", line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

"""``croupier integrity`` and ``croupier rng-test``.

CSV rows are numbered as a spreadsheet shows them: the header is row 1.
Exit codes (both commands): 0 every set ok (``rng-test``: pass), 2 malformed input or a ledger
that cannot be read, 3 an alert (``rng-test``: fail), 4 ``integrity`` only: no alert, but a set
with too little data to judge.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.roulette.wheel import WHEELS, Pocket

# The monitors pull in numba and scipy: imported where they are used, so that registering
# these commands (``croupier --help``) stays fast.
if TYPE_CHECKING:
    from croupier.integrity.dice import DiceMonitor
    from croupier.integrity.model import MonitorConfig, SetReport
    from croupier.integrity.wheel import WheelMonitor


class CsvError(ValueError):
    """A malformed CSV file: one line naming the file, row and column."""


_INT = re.compile(r"^(0|[1-9][0-9]*)$")


def _rows(
    path: str, required: tuple[str, ...], optional: tuple[str, ...]
) -> Iterator[tuple[int, dict[str, str]]]:
    try:
        handle = open(path, encoding="utf-8", newline="")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise CsvError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        reader = csv.reader(handle)
        try:
            names = _header(path, next(reader, None), required)
            wanted = [c for c in (*required, *optional) if c in names]
            for row in reader:
                line = reader.line_num
                if row and any(f.strip() for f in row):
                    yield line, _record(path, line, row, names, wanted)
        except UnicodeDecodeError:
            raise CsvError(f"{path}: not UTF-8 text") from None
        except csv.Error as exc:
            raise CsvError(f"{path}: row {reader.line_num}: {exc}") from None


def _header(path: str, header: list[str] | None, required: tuple[str, ...]) -> list[str]:
    """The column names of the header row, every required one present."""
    if header is None:
        raise CsvError(f"{path}: row 1: no header (expected columns {','.join(required)})")
    names = [h.strip() for h in header]
    for col in required:
        if col not in names:
            raise CsvError(f"{path}: row 1, column {col}: missing from the header")
    return names


def _record(path: str, line: int, row: list[str], names: list[str],
            wanted: list[str]) -> dict[str, str]:
    """Row ``line``'s ``wanted`` fields, by column name (a row longer than the header, or
    short of a wanted column, is malformed)."""
    if len(row) > len(names):
        raise CsvError(f"{path}: row {line}, column {len(names) + 1}: more fields than the header")
    record = {}
    for col in wanted:
        i = names.index(col)
        if i >= len(row):
            raise CsvError(f"{path}: row {line}, column {col}: missing")
        record[col] = row[i].strip()
    return record


def read_dice(path: str, config: MonitorConfig, trace: bool = False) -> list[SetReport]:
    """One report per dice set (column ``dice_set``, else one set named ``dice``)."""
    from croupier.integrity.dice import DiceMonitor

    monitors: dict[str, DiceMonitor] = {}
    for line, rec in _rows(path, ("die1", "die2"), ("dice_set",)):
        faces = []
        for col in ("die1", "die2"):
            if not _INT.match(rec[col]) or not 1 <= int(rec[col]) <= 6:
                raise CsvError(f"{path}: row {line}, column {col}: not a die face 1 to 6: {rec[col]!r}")
            faces.append(int(rec[col]))
        set_id = rec.get("dice_set", "") or "dice"
        if set_id not in monitors:
            monitors[set_id] = DiceMonitor(set_id, config, trace_every=10 if trace else 0)
        monitors[set_id].observe(faces[0], faces[1])
    return [m.report() for m in monitors.values()]


def read_wheel(path: str, config: MonitorConfig, wheel_type: str, trace: bool = False) -> list[SetReport]:
    """One report per wheel (column ``wheel``, else one wheel named ``wheel``)."""
    from croupier.integrity.wheel import WheelMonitor

    wheel = WHEELS[wheel_type]
    monitors: dict[str, WheelMonitor] = {}
    for line, rec in _rows(path, ("number",), ("wheel",)):
        text = rec["number"]
        number: Pocket
        if text == "00":
            number = "00"
        elif _INT.match(text) and int(text) <= 36:
            number = int(text)
        else:
            raise CsvError(
                f"{path}: row {line}, column number: not a roulette number 0 to 36 or 00: {text!r}"
            )
        if number not in wheel.pockets:
            raise CsvError(f"{path}: row {line}, column number: {text} is not on the {wheel.name}")
        wheel_id = rec.get("wheel", "") or "wheel"
        if wheel_id not in monitors:
            monitors[wheel_id] = WheelMonitor(wheel, wheel_id, config, trace_every=10 if trace else 0)
        monitors[wheel_id].observe(number)
    return [m.report() for m in monitors.values()]


def read_ledger(url: str, config: MonitorConfig, trace: bool = False) -> list[SetReport]:
    """One report per dice set (by serials) and per wheel (by table), from a croupier ledger:
    every decided roll and spin, voided rounds left out."""
    from croupier.integrity.dice import DiceMonitor
    from croupier.integrity.wheel import WheelMonitor
    from croupier.service import store
    from croupier.service.monitoring import ledger_outcomes

    engine = store.make_engine(url)
    every = 10 if trace else 0
    dice: dict[str, DiceMonitor] = {}
    wheels: dict[str, WheelMonitor] = {}
    try:
        with engine.connect() as conn:
            for o in ledger_outcomes(conn):
                if o.kind == "dice":
                    if o.set_id not in dice:
                        dice[o.set_id] = DiceMonitor(o.set_id, config, trace_every=every)
                    dice[o.set_id].observe(*o.value)
                elif o.wheel is not None:
                    if o.set_id not in wheels:
                        wheels[o.set_id] = WheelMonitor(o.wheel, o.set_id, config, trace_every=every)
                    wheels[o.set_id].observe(o.value)
    finally:
        engine.dispose()
    return [m.report() for m in dice.values()] + [m.report() for m in wheels.values()]


def _ledger_url(args: argparse.Namespace) -> str | None:
    from croupier.service import store

    if args.database:
        return str(args.database)
    if not (args.data_dir / "croupier.db").exists():
        return None
    return store.database_url(args.data_dir, None)


class _Stop(Exception):
    """``croupier integrity`` cannot go on: the line to print (the exit status is 2)."""


def _cmd_integrity(args: argparse.Namespace) -> int:
    from croupier.integrity.model import MonitorConfig
    from croupier.integrity.report import exit_status, to_html, to_json, to_table

    try:
        if not args.dice and not args.wheel and not args.ledger:
            raise _Stop("croupier integrity: give --dice FILE.csv, --wheel FILE.csv and/or "
                        "--ledger")
        try:
            config = MonitorConfig(alpha=args.alpha, horizon=args.horizon)
        except ValueError as exc:
            raise _Stop(f"croupier integrity: {exc}") from None
        reports = _read_all(args, config, trace=bool(args.html))
    except _Stop as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if args.html:
        with open(args.html, "w", encoding="utf-8") as handle:
            handle.write(to_html(reports, config))
    if args.json:
        sys.stdout.write(json.dumps(to_json(reports, config), indent=2) + "\n")
    else:
        sys.stdout.write(to_table(reports, config))
    return exit_status(reports)


def _read_all(args: argparse.Namespace, config: MonitorConfig, trace: bool) -> list[SetReport]:
    """The reports of every dice set, wheel and the ledger's outcomes the options name."""
    reports: list[SetReport] = []
    try:
        for path in args.dice or []:
            reports += read_dice(path, config, trace)
        for path in args.wheel or []:
            reports += read_wheel(path, config, args.wheel_type, trace)
    except CsvError as exc:
        raise _Stop(str(exc)) from None
    if args.ledger:
        url = _ledger_url(args)
        if url is None:
            raise _Stop(f"croupier integrity: no ledger in {args.data_dir}")
        try:
            reports += read_ledger(url, config, trace)
        except Exception as exc:  # a database that cannot be read: one line, no traceback
            raise _Stop(f"croupier integrity: cannot read the ledger: {exc}") from None
    return reports


def _cmd_rng_test(args: argparse.Namespace) -> int:
    from croupier.integrity.rng import production_scalers, run_battery, verdict

    if args.samples < 1000:
        print("croupier rng-test: --samples must be at least 1000", file=sys.stderr)
        return 2
    if not 0 < args.alpha < 1:
        print("croupier rng-test: --alpha must be between 0 and 1", file=sys.stderr)
        return 2
    scalers = production_scalers(modulo=args.modulo)
    if args.raw:
        source = next(iter(scalers.values())).source  # the bytes the scalers draw from
        with open(args.raw, "wb") as handle:
            left = args.raw_bytes
            while left > 0:
                chunk = min(left, 1 << 20)
                handle.write(source(chunk))
                left -= chunk
    each = args.alpha / len(scalers)
    reports = [run_battery(die, args.samples, each, name) for name, die in scalers.items()]
    passed = verdict(reports)
    result: dict[str, Any] = {
        "rng": "modulo-scaled os.urandom (deliberately biased)"
        if args.modulo
        else "os.urandom, rejection-scaled",
        "alpha": args.alpha,
        "verdict": "pass" if passed else "fail",
        "scalers": [r.to_json() for r in reports],
    }
    if args.raw:
        result["raw"] = {"file": args.raw, "bytes": args.raw_bytes, "source": "os.urandom"}
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        for r in reports:
            print(
                f"{r.name}: {r.samples} samples, level {r.level:.3g} per test: "
                f"{'pass' if r.passed else 'FAIL'}"
            )
            for t in r.tests:
                flag = "  <- fails" if t.p_value < r.level else ""
                print(f"  {t.name:<20} p = {t.p_value:<10.4g} {t.detail}{flag}")
        print(f"verdict: {result['verdict']}")
    return 0 if passed else 3


def register(subparsers: Any) -> None:
    """Add ``integrity`` and ``rng-test`` to the ``croupier`` command line."""
    p = subparsers.add_parser(
        "integrity", help="fairness of dice sets and wheels from recorded outcomes",
        epilog="exit status: 0 every set ok, 2 malformed input or an unreadable ledger, 3 an "
        "alert, 4 no alert but a set with too little data to judge")
    p.add_argument("--dice", action="append", metavar="FILE.csv", help="columns die1,die2[,dice_set]")
    p.add_argument("--wheel", action="append", metavar="FILE.csv", help="column number (00 allowed)[,wheel]")
    p.add_argument("--wheel-type", choices=sorted(WHEELS), default="double-zero",
                   help="the wheel the --wheel files were spun on (default double-zero)")
    p.add_argument("--ledger", action="store_true",
                   help="the rolls and spins in a croupier serve ledger (per dice set, per wheel)")
    p.add_argument("--data-dir", type=Path, default=Path("./data"),
                   help="with --ledger: the folder of the embedded SQLite ledger (default ./data)")
    p.add_argument("--database", default=os.environ.get("CROUPIER_DATABASE_URL"),
                   help="with --ledger: a database URL instead, e.g. postgresql+psycopg://...")
    p.add_argument("--alpha", type=float, default=0.01, help="false-alarm level per set (default 0.01)")
    p.add_argument("--horizon", type=int, default=10_000, help="run length of the sequential guarantee")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--html", metavar="FILE", help="also write an HTML report with charts")
    p.set_defaults(func=_cmd_integrity)

    r = subparsers.add_parser(
        "rng-test", help="the 25 CFR 547.14 battery on the production RNG's scaled output",
        epilog="exit status: 0 pass, 2 malformed arguments, 3 fail",
    )
    r.add_argument("--samples", type=int, default=1_000_000, help="values per scaler (default 1,000,000)")
    r.add_argument("--alpha", type=float, default=0.01, help="level of the whole battery (default 0.01)")
    r.add_argument(
        "--raw", metavar="FILE", help="write raw RNG bytes (os.urandom) for dieharder and the like"
    )
    r.add_argument("--raw-bytes", type=int, default=16 << 20, help="how many raw bytes (default 16 MiB)")
    r.add_argument("--modulo", action="store_true", help="test the biased byte %% sides scaler instead")
    r.add_argument("--json", action="store_true", help="print JSON")
    r.set_defaults(func=_cmd_rng_test)

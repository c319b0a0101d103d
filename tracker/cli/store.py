"""The match-store commands: ``export`` (JSON or CSV) and ``report`` (an HTML report)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from tracker.cli.common import UserError, one_line, output_file


def cmd_export(args: argparse.Namespace) -> int:
    """A match store (or a run's output folder) as JSON or CSV; ``--format league``: the typed
    match JSON and CSV tables of :mod:`tracker.outputs.export` into a folder."""
    from tracker.outputs.store import STORE_NAME, MatchStore, StoreError, export_csv, export_json

    if args.format == "league":
        return _export_league(args)

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    out = output_file("--out", args.out) if args.out else None
    try:
        store = MatchStore(path, readonly=True)
        text = (json.dumps(export_json(store, args.run), indent=1) + "\n" if args.format == "json"
                else export_csv(store, args.run))
    except StoreError as exc:
        raise UserError(one_line(exc)) from None
    if out is not None:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
        print(json.dumps({"export": args.out, "format": args.format}))
    else:
        sys.stdout.write(text)
    return 0


def _export_league(args: argparse.Namespace) -> int:
    """``export DIR --format league [--out FOLDER]``: match.json and the CSV tables."""
    from tracker.outputs.export import ExportError, write_exports
    from tracker.outputs.store import StoreError

    folder = Path(args.store)
    if not folder.exists():
        raise UserError(f"{folder}: no such folder; give the --out folder of a `process` run")
    if not folder.is_dir():
        raise UserError(f"{folder}: --format league takes the output folder of `process`, "
                        "not a file")
    try:
        files = write_exports(folder, args.out, args.run)
    except (ExportError, StoreError, ValueError) as exc:
        raise UserError(one_line(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    print(json.dumps({"export": [str(f) for f in files], "format": "league"}))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """An HTML report with plots of a run in a match store."""
    from tracker.outputs.report import write_report
    from tracker.outputs.store import STORE_NAME, StoreError

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    output_file("--out", args.out)
    try:
        out = write_report(path, args.out, args.run)
    except StoreError as exc:
        raise UserError(one_line(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    print(json.dumps({"report": str(out)}))
    return 0


def add_export_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``export`` subcommand's arguments (``add``: makes a subparser by name)."""
    ex = add("export", help="a match store as JSON or CSV (one row per stroke); --format league: "
                            "typed match JSON and CSV tables with JSON Schemas")
    ex.add_argument("store", help="match.sqlite, or the output folder of `process`")
    ex.add_argument("--format", choices=("json", "csv", "league"), default="json")
    ex.add_argument("--run", type=int, help="run id (default: the latest run)")
    ex.add_argument("--out", help="file to write (default: standard output); with --format "
                                  "league, the folder (default: STORE/export)")
    ex.set_defaults(func=cmd_export)


def add_report_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``report`` subcommand's arguments (``add``: makes a subparser by name)."""
    rp = add("report", help="an HTML report with plots of a run (per frame and match)")
    rp.add_argument("store", help="match.sqlite, or the output folder of `process`")
    rp.add_argument("--out", default="report.html", help="HTML file to write")
    rp.add_argument("--run", type=int, help="run id (default: the latest run)")
    rp.set_defaults(func=cmd_report)

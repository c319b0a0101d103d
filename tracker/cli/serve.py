"""The serving commands: ``serve`` (live pages over a match store), ``batch`` (a folder of
videos, one Ray task each) and ``hall`` (several live tables)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from tracker.cli.common import (
    DETECTORS,
    EXIT_BAD_INPUT,
    EXIT_MISSING,
    UserError,
    log,
    one_line,
    output_dir,
)
from tracker.cli.process import check_can_listen, print_urls


def cmd_batch(args: argparse.Namespace) -> int:
    """Referee a folder or list of videos, one task per video (Ray, or a plain loop)."""
    from tracker.scale.batch import BatchError, run_batch

    def said(s: dict) -> None:
        if s.get("status") == "done":
            print(f"{s['name']}: done, {s['shots']} strokes, score "
                  + " - ".join(f"{k} {v}" for k, v in s["score"].items()), flush=True)
        else:
            print(f"{s['name']}: FAILED: {s.get('error')}", file=sys.stderr, flush=True)

    output_dir("--out", args.out)
    try:
        res = run_batch(args.videos, args.out, use_ray=not args.no_ray, address=args.address,
                        detector=args.detector, on_done=said)
    except BatchError as exc:
        print(f"snooker-tracker batch: {exc}", file=sys.stderr)
        return exc.code
    print(json.dumps(res), flush=True)
    return 1 if res["failed"] else 0


def cmd_hall(args: argparse.Namespace) -> int:
    """Several live tables as Ray actors, one store, one live server."""
    from tracker.scale.batch import BatchError, require_ray
    from tracker.scale.hall import load_config, run_hall

    try:
        cfg = load_config(args.config)
        output_dir('the hall\'s "out"', cfg["out"])
        require_ray()  # before the server starts
        server = None
        if cfg.get("serve"):
            from tracker.outputs.store import STORE_NAME
            from tracker.server.app import BackgroundServer, new_token, parse_host_port

            host, port = parse_host_port(cfg["serve"])
            token = new_token()
            server = BackgroundServer(Path(cfg["out"]) / STORE_NAME, host, port, token,
                                      Path(cfg["out"]) / "review",
                                      [t["name"] for t in cfg["tables"]])
            print_urls(host, port, token)
            base = f"http://{host}:{port}"
            print(f"hall: every table {base}/hall  one table {base}/table/NAME/ (overlay, "
                  "console under it)", flush=True)
        results = run_hall(cfg, on_done=lambda r: print(json.dumps(r), flush=True))
    except (BatchError, ValueError) as exc:
        print(f"snooker-tracker hall: {exc}", file=sys.stderr)
        return getattr(exc, "code", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return 130
    if server is not None:
        server.stop()
    return 1 if any(r.get("status") != "done" for r in results) else 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the live pages over a match store (another program processes the video)."""
    from tracker.outputs.store import STORE_NAME, MatchStore, StoreError

    try:
        from tracker.server.app import new_token, parse_host_port, serve_forever
    except ImportError as exc:
        raise UserError(f"needs the live extra ({exc.name} is missing): pip install -e "
                        "'.[live]'", EXIT_MISSING) from None

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    try:
        host, port = parse_host_port(args.listen)
        if path.exists():
            MatchStore(path, readonly=True).close()
    except (ValueError, StoreError) as exc:
        raise UserError(one_line(str(exc).replace("--serve", "--listen"))) from None
    check_can_listen(host, port, "--listen")
    if not path.exists():
        log.warning("%s does not exist yet: the pages wait for a run to write it", path)
    token = args.token or new_token()
    print_urls(host, port, token)
    print(f"hall: every table http://{host}:{port}/hall", flush=True)
    serve_forever(path, host, port, token, args.review or path.parent / "review")
    return 0


def add_serve_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``serve`` subcommand's arguments (``add``: makes a subparser by name)."""
    sv = add("serve", help="live scoreboard, overlay, console and review pages over "
                                      "a match store")
    sv.add_argument("--store", required=True, help="match.sqlite, or the output folder of `process`")
    sv.add_argument("--listen", default="127.0.0.1:8765", metavar="HOST:PORT")
    sv.add_argument("--token", help="the console's token (default: a new one, printed)")
    sv.add_argument("--review", help="folder of review pictures (default: review/ beside the store)")
    sv.set_defaults(func=cmd_serve)


def add_batch_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``batch`` subcommand's arguments (``add``: makes a subparser by name)."""
    ba = add("batch", help="referee a folder or list of videos, one Ray task per "
                        "video; resumable (needs the ray extra, or --no-ray)")
    ba.add_argument("videos", help="a folder of videos, or a text file with one path a line")
    ba.add_argument("--out", required=True, help="output folder (one folder and store per "
                    "video, index.json)")
    ba.add_argument("--address", help="a Ray cluster's address (default: a local Ray)")
    ba.add_argument("--no-ray", action="store_true", help="a plain loop in this process")
    ba.add_argument("--detector", choices=DETECTORS, default="auto")
    ba.set_defaults(func=cmd_batch)


def add_hall_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``hall`` subcommand's arguments (``add``: makes a subparser by name)."""
    ha = add("hall", help="several live tables as Ray actors: one store, one live "
                        "server (needs the ray extra)")
    ha.add_argument("config", help="hall configuration (JSON: out, serve, tables: name, source, "
                    "calibration, players)")
    ha.set_defaults(func=cmd_hall)

"""``python -m tracker.cli``: the ``snooker-tracker`` command line."""

from tracker.cli import main

raise SystemExit(main())

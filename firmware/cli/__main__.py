"""`python -m firmware.cli`: the `codenames-table` command without its console script."""

from firmware.cli.main import main

raise SystemExit(main())

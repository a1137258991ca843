"""``python -m tooltape.cli``: the ``tooltape`` command."""

from tooltape.cli import main

raise SystemExit(main())

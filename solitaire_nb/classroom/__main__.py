"""``python -m solitaire_nb.classroom``: serve a lesson to a class (see `launcher`)."""

from .launcher import main

raise SystemExit(main())

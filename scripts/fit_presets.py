"""Fit the rates presets' declared free parameters ([fit.<name>] tables in presets/rates/*.toml)
to the published figures they name, by bounded least squares on the relative errors, running
the engine with the values replaced in memory. The same as `arrayplanner fit`:

    python scripts/fit_presets.py [--rates ID] [--write]

--write records each fitted value in its preset with the figures, the residual per figure (%)
and the date. Re-run it after a change to the engine, then `arrayplanner validate` (and
`validate --cross`) for the scores. docs/model.md §7.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["fit", *sys.argv[1:]]))

"""A price list for goal seeking (app/service/goal_seek.py): what each part costs.

Prices are in whatever unit the user quotes in; only their ratios matter. A list that does not
price every drive type a search tries is not used: the search then costs a design by its drive
count (spares included), and says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

PRICE_TABLES = ("drives", "enclosures", "features")  # [drives] "<drive type id>" = price, ...


@dataclass(frozen=True)
class PriceList:
    drives: Mapping[str, float] = field(default_factory=dict)      # per drive, by drive type id
    enclosures: Mapping[str, float] = field(default_factory=dict)  # per enclosure, by type id
    features: Mapping[str, float] = field(default_factory=dict)    # per premium feature enabled
    currency: str = ""
    source: str = ""  # the file it came from

    def covers(self, drive_types: Sequence[str]) -> bool:
        return bool(self.drives) and all(t in self.drives for t in drive_types)

"""A price list for goal seeking (app/service/goal_seek.py): what each part costs.

Prices are in whatever unit the user quotes in; only their ratios matter. A list that does not
price every drive type a search tries is not used: the search then costs a design by its drive
count (spares included), and says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

# [drives] "<drive type id>" = price, ...; [cache] "<cache setting>:<size>" = price of that size
PRICE_TABLES = ("drives", "enclosures", "features", "cache")


@dataclass(frozen=True)
class PriceList:
    drives: Mapping[str, float] = field(default_factory=dict)      # per drive, by drive type id
    enclosures: Mapping[str, float] = field(default_factory=dict)  # per enclosure, by type id
    features: Mapping[str, float] = field(default_factory=dict)    # per premium feature enabled
    cache: Mapping[str, float] = field(default_factory=dict)       # "write_cache_mb:4000" -> price
    currency: str = ""
    source: str = ""  # the file it came from

    def cache_price(self, setting: str, size: float) -> float:
        """The price of a cache setting at a size (0 when the list does not name it)."""
        return self.cache.get(f"{setting}:{size:g}", 0.0)

    def covers(self, drive_types: Sequence[str]) -> bool:
        return bool(self.drives) and all(t in self.drives for t in drive_types)

"""The platform's own words in the GUI: what its vendor calls a RAID group ("Disk Group" on a Dell
MD, "Aggregate" on a NetApp filer; the preset's group_noun, docs/presets.md). Views name groups
through these helpers so that the tree, the inspector, the dialogs and the menus agree.
Selection references stay "RG 3" (they are identifiers, not words the user reads)."""
from __future__ import annotations

from typing import Any

from app.domain import hardware


def platform_of(document: Any):
    """The document's platform, or None (no document, or a platform the catalog lacks)."""
    try:
        return document.platform if document is not None else None
    except (KeyError, AttributeError):
        return None


def group_noun(document: Any, *, plural: bool = False, in_sentence: bool = False) -> str:
    """"Disk Group", "disk groups", "RAID group" ... for the document's platform."""
    return hardware.group_noun(platform_of(document), plural=plural, in_sentence=in_sentence)


def group_title(document: Any, group_id: int, name: str = "") -> str:
    """"Disk Group 3" (a named group: its name)."""
    return hardware.group_title(platform_of(document), group_id, name)

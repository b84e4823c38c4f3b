"""Edits of cache settings, premium features and the project's information."""
from __future__ import annotations

from dataclasses import fields as dc_fields
from typing import Any

from ..hardware import Catalog
from ..project import Project, ProjectInfo
from .base import Edit
from .change import CACHE, Change, EVENTS, EditError, FEATURES, INFO
from .luns import _MISSING
from .rules import platform_of


class _SetKey(Edit):
    """Set `key` to `value` in one of the project's setting dicts; undo restores the old value,
    or removes the key when it was unset (so the platform default applies again)."""

    key: str
    value: Any
    _old: Any = _MISSING

    def _mapping(self, project: Project) -> dict[str, Any]:
        raise NotImplementedError

    def _change(self) -> Change:
        raise NotImplementedError

    def do(self, project: Project) -> Change:
        mapping = self._mapping(project)
        self._old = mapping.get(self.key, _MISSING)
        mapping[self.key] = self.value
        return self._change()

    def undo(self, project: Project) -> Change:
        mapping = self._mapping(project)
        if self._old is _MISSING:
            mapping.pop(self.key, None)
        else:
            mapping[self.key] = self._old
        return self._change()


class SetCacheSetting(_SetKey):
    def __init__(self, key: str, value: Any, label: str | None = None):
        """label: the setting's name as the platform shows it (for Undo and messages)."""
        self.key, self.value = key, value
        self.text = f"Set {label or key}"
        self._old: Any = _MISSING

    def check(self, project: Project, catalog: Catalog) -> str | None:
        platform = platform_of(project, catalog)
        spec = platform.cache_settings.get(self.key)
        if spec is None:
            return f"the {platform.name} has no cache setting {self.key!r}"
        return spec.check(self.value)

    def _mapping(self, project: Project) -> dict[str, Any]:
        return project.cache

    def _change(self) -> Change:
        return Change.of(CACHE, refs=[f"cache.{self.key}"])


class SetFeature(_SetKey):
    def __init__(self, feature_id: str, enabled: bool):
        self.feature_id, self.enabled = feature_id, bool(enabled)
        self.key, self.value = feature_id, self.enabled
        self.text = f"{'Enable' if enabled else 'Disable'} {feature_id}"
        self._old: Any = _MISSING

    def check(self, project: Project, catalog: Catalog) -> str | None:
        platform = platform_of(project, catalog)
        if self.feature_id not in platform.features:
            return f"the {platform.name} has no premium feature {self.feature_id!r}"
        return None

    def _mapping(self, project: Project) -> dict[str, Any]:
        return project.features

    def _change(self) -> Change:
        return Change.of(FEATURES, refs=[f"feature {self.key}"])


class SetProjectInfo(Edit):
    def __init__(self, **values: Any):
        bad = set(values) - {f.name for f in dc_fields(ProjectInfo)} - {"horizon_h"}
        if bad:
            raise EditError(f"project info has no field {', '.join(sorted(bad))}")
        self.values = values
        self.text = "Edit project info"
        self._old: dict[str, Any] = {}

    def do(self, project: Project) -> Change:
        self._old = {}
        for k, v in self.values.items():
            target = project if k == "horizon_h" else project.info
            self._old[k] = getattr(target, k)
            setattr(target, k, v)
        return Change.of(EVENTS if "horizon_h" in self.values else INFO, refs=["project"])

    def undo(self, project: Project) -> Change:
        for k, v in self._old.items():
            setattr(project if k == "horizon_h" else project.info, k, v)
        return Change.of(EVENTS if "horizon_h" in self.values else INFO, refs=["project"])

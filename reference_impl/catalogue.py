"""What is installed, what is loaded and in which order, and what a conversation may see."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import compress, filterfalse
from operator import attrgetter
from types import MappingProxyType

from reference_impl.errors import PasError
from reference_impl.model import HostConfig, Manifest

_BUILTIN = attrgetter("builtin")


class DuplicateModule(PasError, ValueError):
    """Two installed manifests share one module_name."""

    def __init__(self, *, module_name: str) -> None:
        self.module_name = module_name
        super().__init__(f"two plugins declare module_name '{module_name}'")


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The installed plugins, by module_name, in installation order.

    A plain frozen value: what the scheduler derives from it is cached, if at all, by the
    caller (:class:`~reference_impl.lineup_cache.LineupCache`), never inside it.
    """

    manifests: Mapping[str, Manifest] = field(default_factory=dict)

    @classmethod
    def of(cls, manifests: Iterable[Manifest]) -> Catalogue:
        """Index manifests by module_name; raises DuplicateModule on a clash."""
        index: dict[str, Manifest] = {}
        for manifest in manifests:
            if manifest.module_name in index:
                raise DuplicateModule(module_name=manifest.module_name)
            index[manifest.module_name] = manifest
        return cls(MappingProxyType(index))

    def load_order(self, host: HostConfig) -> tuple[str, ...]:
        """Built-ins first (installation order), then the host's enabled list as declared.

        Enabled entries that are not installed are skipped (HOST-LOAD-2); duplicates and
        built-ins named again are loaded once.
        """
        manifests = self.manifests
        # dict.fromkeys keeps the first of each name, in order; compress, map and filter run the
        # loops in C (a host config change with 10,000 plugins walks all of them).
        builtins = compress(manifests.keys(), map(_BUILTIN, manifests.values()))
        return tuple(dict.fromkeys([*builtins, *filter(manifests.__contains__, host.enabled)]))

    def missing(self, host: HostConfig) -> tuple[str, ...]:
        """Enabled entries that name no installed plugin (each deserves a warning)."""
        return tuple(name for name in host.enabled if name not in self.manifests)

    def available(self, host: HostConfig, adapter: str | None) -> tuple[Manifest, ...]:
        """Loaded, not disabled and supporting ``adapter``: the plugins a conversation can see."""
        manifests, disabled = self.manifests, host.disabled
        loaded = map(manifests.__getitem__, filterfalse(disabled.__contains__, self.load_order(host)))
        if adapter is None:
            return tuple(loaded)
        return tuple(m for m in loaded if not m.support_adapter or adapter in m.support_adapter)

    def find_available(self, module_name: str, host: HostConfig, adapter: str | None) -> Manifest | None:
        """The manifest of ``module_name`` if a conversation on ``adapter`` can see it."""
        manifest = self.manifests.get(module_name)
        if manifest is None or module_name in host.disabled or not manifest.supports(adapter):
            return None
        if not manifest.builtin and module_name not in host.enabled:
            return None
        return manifest

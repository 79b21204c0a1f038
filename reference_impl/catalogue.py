"""What is installed, what is loaded and in which order, and whether a conversation may see a plugin."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import compress
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

    def find_available(self, module_name: str, host: HostConfig, adapter: str | None) -> Manifest | None:
        """The manifest of ``module_name`` if a conversation on ``adapter`` can see it.

        Loaded (a built-in or enabled), not disabled, and supporting ``adapter`` (ACT-STATE-5).
        """
        manifest = self.manifests.get(module_name)
        if manifest is None or module_name in host.disabled or not manifest.supports(adapter):
            return None
        if not manifest.builtin and module_name not in host.enabled:
            return None
        return manifest

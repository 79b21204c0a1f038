"""What is installed, what is loaded and in which order, and whether a conversation may see a plugin."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter

from reference_impl.errors import PasError
from reference_impl.frozen import EMPTY, FrozenMap
from reference_impl.model import HostConfig, Manifest

_BUILTIN = attrgetter("builtin")


class DuplicateModule(PasError, ValueError):
    """Two installed manifests share one module_name."""

    def __init__(self, *, module_name: str) -> None:
        self.module_name = module_name
        super().__init__(f"two plugins declare module_name '{module_name}'")


@dataclass(frozen=True, slots=True, eq=False)
class Catalogue:
    """The installed plugins, by module_name, in installation order.

    A plain frozen value: two catalogues are equal when they install equal manifests in the
    same order (the order decides which built-in loads first), and hash alike then.
    """

    manifests: Mapping[str, Manifest] = EMPTY
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "manifests", FrozenMap.shallow(self.manifests))  # manifests are frozen values
        # The names in order: equal catalogues have equal names, and hashing them is cheaper
        # than hashing thousands of manifests (the fast path keys its caches on a catalogue).
        object.__setattr__(self, "_hash", hash(tuple(self.manifests)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Catalogue):
            return NotImplemented
        return self is other or (self.manifests == other.manifests and list(self.manifests) == list(other.manifests))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Catalogue], tuple[Mapping[str, Manifest]]]:
        # Rebuilt through the constructor, so that the hash is computed again in the new process.
        return (Catalogue, (self.manifests,))

    @classmethod
    def of(cls, manifests: Iterable[Manifest]) -> Catalogue:
        """Index manifests by module_name; raises DuplicateModule on a clash."""
        index: dict[str, Manifest] = {}
        for manifest in manifests:
            if manifest.module_name in index:
                raise DuplicateModule(module_name=manifest.module_name)
            index[manifest.module_name] = manifest
        return cls(index)

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

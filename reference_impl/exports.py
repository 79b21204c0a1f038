"""A package's public face: its public names, handed on lazily from the modules that define them.

A package's ``__init__.py`` lists each public name once, with the module that defines it, and
installs the ``__getattr__`` made here (PEP 562). Nothing is imported until a name is first
used: ``import reference_impl`` and ``import conformance`` cost next to nothing, and taking a
name imports the module that defines it and what that module needs, nothing else. That is
how the vocabulary an implementation speaks (``from reference_impl import RunObservation``)
comes without the reference's rules, and how ``pas --help`` stays quick.
"""

import sys

# Neither typing nor __future__ at run time: importing them would cost more than everything else here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def _split(target: str) -> tuple[str, str | None]:
    """``.module`` or ``.module:attribute`` -> (module, attribute or None)."""
    module, _, attribute = target.partition(":")
    return module, attribute or None


def lazy_exports(package: str, exports: "Mapping[str, str]", *, installs: "Mapping[str, str] | None" = None,
                 ) -> "tuple[Callable[[str], Any], Callable[[], list[str]]]":
    """``__getattr__`` and ``__dir__`` for ``package``, handing on ``exports`` (public name -> module).

    A module is written relative to the package (``.model``); ``.module:attribute`` hands on
    ``attribute`` under the public name. The first use of a name imports its module and keeps
    the object in the package's namespace, so that later uses are plain attribute reads.
    ``__getattr__`` raises AttributeError for a name that is not exported, and ImportError when
    a name's module needs a third-party package that is not installed (``installs`` maps such a
    package to the command that installs it, for the message).
    """
    namespace = sys.modules[package].__dict__
    installs = installs or {}

    def __getattr__(name: str) -> "Any":
        target = exports.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib  # here, not at the top: `import conformance` alone needs none of it

        module_name, attribute = _split(target)
        try:
            module = importlib.import_module(module_name, package)
        except ModuleNotFoundError as error:
            missing = (error.name or "").partition(".")[0]
            if not missing or missing == package.partition(".")[0]:
                raise
            how = f": {installs[missing]}" if missing in installs else ""
            raise ImportError(f"{package}.{name} needs {missing}, which is not installed{how}",
                              name=missing) from error
        value = getattr(module, attribute or name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__

"""Rules that read host configs together with the manifests of the validated set."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from conformance.validate.lint import controller
from conformance.validate.lint.facts import HostFacts, ManifestFacts, make_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem


def check_set(manifests: Sequence[ManifestFacts], hosts: Sequence[HostFacts],
              options: LintOptions) -> Iterator[Problem]:
    """Strategy problems; silent when the set holds no manifest (nothing to compare with)."""
    if not manifests:
        return
    by_name: dict[str, ManifestFacts] = {}
    for facts in manifests:
        by_name.setdefault(facts.module.name, facts)
    scheduler = controller.scheduler_module()
    for host in hosts:
        for entry in host.strategies:
            name, where = entry.module.name, entry.module
            if name == scheduler and entry.strategy == "allow_sleep":
                continue  # controller-sleepable, a document rule, reports it once
            manifest = by_name.get(name)
            if manifest is None:
                if name not in options.known_modules:
                    yield make_problem("unknown-strategy-module",
                                       f"strategy for '{name}', which is not among the {len(by_name)} validated "
                                       "manifests; check the spelling or validate its manifest too",
                                       where.pointer, where.source)
            elif manifest.allow_sleep is False and entry.strategy != "auto":
                yield make_problem("strategy-on-protected",
                                   f"'{name}' is protected (allow_sleep: false in {manifest.module.source.path}), "
                                   f"so strategy {entry.strategy} is ignored; remove it", where.pointer, where.source)
            elif entry.strategy == "allow_sleep" and not manifest.has_brief:
                yield make_problem("strategy-without-brief",
                                   f"strategy allow_sleep has no effect: '{name}' has no sleep_brief, so it never "
                                   "sleeps; remove the strategy or add a brief to the manifest",
                                   where.pointer, where.source)

"""Rules across the validated set of manifests: duplicate module names, dependencies, cycles."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from conformance.validate.lint.facts import ManifestFacts, make_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem


def check_set(manifests: Sequence[ManifestFacts], options: LintOptions) -> Iterator[Problem]:
    """All graph problems of the set; the first manifest declaring a module name is the one kept."""
    first: dict[str, ManifestFacts] = {}
    for facts in manifests:
        kept = first.setdefault(facts.module.name, facts)
        if kept is not facts:
            yield make_problem("duplicate-module-name",
                               f"module_name '{facts.module.name}' is also declared at {kept.module.source}; "
                               "module names must be unique", facts.module.pointer, facts.module.source)
    if len(manifests) >= 2 or options.known_modules:
        yield from _missing(first, options)
    yield from _cycles(first)


def _missing(first: dict[str, ManifestFacts], options: LintOptions) -> Iterator[Problem]:
    for facts in first.values():
        for dep in facts.dependencies:
            if dep.name not in first and dep.name not in options.known_modules:
                yield make_problem("missing-dependency",
                                   f"dependency '{dep.name}' is not among the {len(first)} validated manifests; "
                                   "validate its manifest too or list it in known_modules", dep.pointer, dep.source)


def _edges(first: dict[str, ManifestFacts]) -> dict[str, list[str]]:
    return {name: [d.name for d in facts.dependencies if d.name in first] for name, facts in first.items()}


def _components(edges: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative so 10,000 manifests cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    found.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def _cycle_path(start: str, members: set[str], edges: dict[str, list[str]]) -> list[str]:
    """The shortest path start -> ... -> start inside one component (breadth first)."""
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in edges[node]:
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if child in members and child not in parent:
                    parent[child] = node
                    following.append(child)
        frontier = following
    return [start, start]  # pragma: no cover - a component always has a cycle through start


def _cycles(first: dict[str, ManifestFacts]) -> Iterator[Problem]:
    edges = _edges(first)
    for component in _components(edges):
        start = min(component)
        if len(component) == 1 and start not in edges[start]:
            continue
        path = _cycle_path(start, set(component), edges)
        dep = next(d for d in first[start].dependencies if d.name == path[1])
        yield make_problem("dependency-cycle",
                           f"dependency cycle: {' -> '.join(path)}; remove one of these dependencies",
                           dep.pointer, dep.source)

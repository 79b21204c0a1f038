"""Every problem code PAS emits, registered once: what it means and what to change.

A code is stable and kebab-case. ``product`` says which part of PAS reports it:
``loader`` (reading any YAML or JSON document, paths, and sets of documents: :mod:`conformance.documents.sets`), ``report`` (reading results files), ``validate`` (``pas validate``'s
schema and semantic rules; those have a docs page each and a severity, see
:mod:`conformance.validate.lint.registry`), ``host`` (the reference host, reference_impl: these
codes are part of the host profile's observations), ``suite`` (scenario and expected-failures
files), ``protocol`` (stdio messages), ``adapters`` (checking a ``python:`` implementation), ``simulate``, ``budget``, ``extract``, ``fuzz``.

The tests fail when code emits a code that is not here (tests/conformance/documents/test_problem_codes.py)
and when an entry here is emitted nowhere; docs/generated/problem-codes.md lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True, kw_only=True)
class Code:
    """One problem code: who reports it, what it means, and the fix."""

    code: str
    product: str
    meaning: str
    fix: str


def _table(product: str, *rows: tuple[str, str, str]) -> tuple[Code, ...]:
    return tuple(Code(code=code, product=product, meaning=meaning, fix=fix) for code, meaning, fix in rows)


_ALL: Final = (
    *_table(
        "loader",
        ("path-not-found", "a path, glob or folder given matches no file: missing, or a folder with no YAML or JSON file (exit 2)", "check the spelling, or quote the glob so the shell does not expand it"),
        ("not-a-directory", "a folder was expected but the path is a file", "give the folder that holds the files"),
        ("special-file", "the path is a FIFO, socket or device, which is never opened (exit 2)", "give a regular file"),
        ("symlink-cycle", "a folder's symbolic links lead back into itself", "remove the link, or name the folder it points to"),
        ("unreadable", "the file exists but cannot be read (exit 2)", "fix its permissions"),
        ("file-too-large", "the file is larger than the size cap", "split the file, or check that it is the file you meant"),
        ("not-text", "the file is binary (NUL bytes)", "give a YAML or JSON text file"),
        ("invalid-utf8", "the file is not valid UTF-8", "save the file as UTF-8"),
        ("empty-document", "the file holds no YAML document", "write the document, or remove the file"),
        ("multiple-documents", "the file holds several YAML documents where one is expected", "keep one document per file"),
        ("yaml-syntax", "the YAML or JSON does not parse", "fix the syntax at the line given (the message names where an unclosed construct began)"),
        ("yaml-tag", "a tag such as !!python/object is used; tags are never executed", "remove the tag and write plain YAML"),
        ("yaml-too-deep", "nesting is deeper than the depth cap", "flatten the document"),
        ("yaml-too-many-aliases", "more aliases than the alias cap", "write the values out instead of aliasing them"),
        ("yaml-too-many-nodes", "the document expands to more values than the node cap (alias bomb)", "write the values out; do not nest aliases"),
        ("yaml-complex-key", "a mapping key is itself a mapping or a sequence", "use a string key"),
        ("yaml-merge-key", "a YAML merge key (<<) is used", "write the merged keys out"),
        ("yaml-null-key", "a mapping key is null (~, null or empty) instead of a name", "give the key a name"),
        ("duplicate-key", "a mapping has the same key twice (YAML and JSON)", "keep one of the two keys"),
        ("not-a-mapping", "a document's root is not a mapping", "make the document a mapping of keys to values"),
        ("schema", "the document does not match the plugin-manifest or host-config JSON Schema", "change the value at the JSON pointer as the message says"),
        ("unrecognized-document", "a file named on the command line is neither a manifest nor a host config; skipped", "add the file's kind, or leave it out of the paths"),
        ("wrong-kind", "the file is another kind of document than the option expects (a manifest given as the host config)", "give it where the message says"),
        ("malformed", "the document has the right shape but a value the model cannot take", "change the value at the pointer"),
        ("no-manifests", "a plugin folder holds no plugin manifest, and the command needs plugins (exit 2)", "add manifests, or give the right folder"),
    ),
    *_table(
        "validate",
        ("allow-sleep-without-brief", "allow_sleep is true but sleep_brief is blank, so the plugin never sleeps", "write a one-line sleep_brief"),
        ("brief-too-short", "sleep_brief is shorter than brief_min_length display columns", "say in one line what the plugin can do"),
        ("brief-too-long", "sleep_brief is longer than brief_max_length display columns", "shorten the brief to one line"),
        ("brief-repeats-description", "sleep_brief only repeats the description", "say when the model should activate the plugin"),
        ("protected-brief", "a protected plugin (allow_sleep false) has a sleep_brief the model never sees", "remove the brief, or let the plugin sleep"),
        ("duplicate-method-name", "two methods of one manifest have the same name", "rename one method"),
        ("schema-key-without-value", "a key with no value inside method parameters or the config schema (text cut at a comma)", "quote the text that contains the comma"),
        ("ambiguous-yaml-value", "an unquoted value reads differently in YAML 1.1 tools (yes/no/on/off) or loses digits (1.10)", "write true or false, or quote the value"),
        ("missing-dependency", "a dependency names a module that is not in the validated set", "validate the dependency too, or fix its name"),
        ("dependency-cycle", "manifests in the validated set depend on each other in a cycle", "remove one dependency of the cycle"),
        ("duplicate-module-name", "two manifests in the validated set declare the same module_name", "rename one module_name"),
        ("unknown-strategy-module", "a host-config strategy names a module that is not in the validated set", "fix the module name or remove the strategy"),
        ("strategy-on-protected", "a host-config strategy targets a protected plugin and is ignored", "remove the strategy"),
        ("strategy-without-brief", "strategy allow_sleep on a plugin whose sleep_brief is blank has no effect", "give the plugin a sleep_brief, or remove the strategy"),
        ("controller-sleepable", "a manifest or host-config strategy would let the scheduler plugin plugin_activation sleep", "set allow_sleep: false in its manifest, or remove the strategy"),
        ("unknown-suppression", "a '# pas: disable=' comment names a code that does not exist", "fix the code's spelling (see the problem codes page)"),
        ("brief-without-allow-sleep", "sleep_brief is set but allow_sleep is not, so the plugin never sleeps by default", "add allow_sleep: true"),
        ("version-not-semver", "version is not Semantic Versioning (MAJOR.MINOR.PATCH)", "write the version as MAJOR.MINOR.PATCH, e.g. 1.0.0"),
        ("method-without-description", "a method's description is blank, so the model sees only its name", "describe what the method does and when to call it"),
    ),
    *_table(
        "host",
        ("plugin-not-found", "an enabled plugin is not installed; it is skipped", "install the plugin or remove it from the enabled list"),
        ("plugin-not-loaded", "a command names a plugin that is not loaded", "enable the plugin first"),
        ("invalid-config", "a plugin's merged configuration does not match its config schema", "change the value at the pointer in the layer the message names"),
        ("invalid-config-schema", "a plugin's config schema is not a valid JSON Schema", "fix the plugin's config_schema"),
        ("config-unknown-plugin", "a config entry names no installed plugin", "fix the name or remove the entry"),
        ("env-ambiguous-plugin", "an environment variable could belong to several plugins", "remove the variable or rename one of the plugins"),
        ("env-ambiguous-key", "an environment variable's key path is ambiguous", "use a key path that names one setting"),
        ("env-empty-key", "an environment variable has an empty key between '__' separators", "remove the doubled separator"),
        ("env-no-key", "an environment variable names a plugin but no key", "add the key after the plugin name"),
        ("env-unknown-plugin", "an environment variable names no installed plugin", "fix the plugin name or remove the variable"),
        ("override-syntax", "a command-line override is not KEY=VALUE", "write --set plugin.key=value"),
        ("override-unknown-plugin", "a command-line override names no installed plugin", "fix the plugin name"),
        ("override-plugin-not-loaded", "a command-line override names a plugin that is not loaded", "enable the plugin, or drop the override"),
    ),
    *_table(
        "suite",
        ("unknown-fixture", "a scenario names a plugin fixture that does not exist", "use a name from fixtures.yaml"),
        ("duplicate-scenario-id", "two scenario files share one id", "give each scenario its own id; ids are never reused"),
        ("host-profile-missing", "a scenario with host steps does not list the host profile", "add profiles: [host]"),
        ("host-steps-mixed", "a host scenario mixes host and activation steps", "put activation steps in a scenario of their own"),
        ("host-load-first", "a host scenario does not begin with host_load", "make host_load the first step"),
        ("host-expectation-misplaced", "a host expectation key is on a step that is not a host step", "move it to a host step"),
        ("disclosure-profile-missing", "a scenario with disclosure steps, tools or requires does not list the disclosure profile", "add profiles: [disclosure]"),
        ("disclosure-tools-missing", "a disclosure scenario has no tools catalogue", "add tools: [{name, description}, ...]"),
        ("disclosure-steps-mixed", "a disclosure scenario mixes disclosure steps with activation or host steps", "put those steps in a scenario of their own"),
        ("disclosure-expectation-misplaced", "an expectation key is on a step that cannot produce it (answers off a model_step, shown on a rebuild, expect on a disclosure step)", "move it to a step that produces it"),
        ("no-open-request", "a model_step happens in a thread with no open request", "add a request step for that thread before it"),
        ("requires-too-wide", "a disclosure scenario's requires admits a declaration under which a requirement it covers does not apply, or that declines it", "require the values the requirement's applies_when names, and none its declined_by names"),
        ("unknown-scenario", "an expected-failures entry names no scenario", "remove the entry or fix the id"),
        ("missing-reason", "an expected-failures entry gives no reason", "say why the scenario is expected to fail"),
        ("spec-missing", "the spec's data files cannot be found", "reinstall the package, or run from a checkout with spec/"),
    ),
    *_table(
        "protocol",
        ("protocol-schema", "a stdio message does not match its protocol schema", "send the message the schema under spec/schemas/protocol/ describes"),
    ),
    *_table(
        "adapters",
        ("implementation-factory", "a python: implementation's factory raised, or returned None, when first called (exit 2)", "fix the factory at the line given: it must return the implementation object"),
        ("implementation-interface", "a python: implementation lacks info, start or apply, or one of them has the wrong form or signature (exit 2)", "define the member as the message shows, at the line given"),
    ),
    *_table(
        "report",
        ("invalid-json", "a results file line is not JSON", "give the JSON lines written by pas run -f json"),
        ("not-a-result", "a results file line is not a scenario result", "give the JSON lines written by pas run -f json"),
        ("no-results", "a results file holds no scenario results", "run pas run -f json -o FILE first"),
        ("no-summary", "a results file has no summary line (the run was cut short)", "run the suite again to the end"),
    ),
    *_table(
        "simulate",
        ("unknown-plugin", "a script or host config names a plugin that is not in the set", "fix the name or add the plugin"),
        ("empty-script", "the script has no commands", "write at least 'run'"),
        ("unknown-command", "a script command is not one pas simulate knows", "use a command from the list the message gives"),
        ("missing-argument", "a script command lacks an argument", "add the argument its usage line names"),
        ("unexpected-argument", "a script command has an argument it does not take", "remove it (see the usage line)"),
        ("bad-value", "a script argument is not one of the values the command takes", "use a value the message lists"),
        ("unterminated-string", "a quoted script argument has no closing quote", "close the quote"),
        ("bad-string", "a quoted script argument is not a valid JSON string", "check its backslash escapes"),
        ("not-applicable", "a disclosure script command is not offered under the declared options (a search under load_by_name, a clear without unload: host, a step with no open request)", "change the command, or declare other options with --disclosure"),
    ),
    *_table(
        "budget",
        ("no-run", "the budget script starts no run", "add at least one 'run'"),
        ("not-measured", "a budget script has a disclosure command, which pas budget does not measure", "remove it (pas simulate shows what a disclosure step shows)"),
    ),
    *_table(
        "extract",
        ("syntax-error", "a plugin source file does not parse as Python", "fix the syntax at the line given"),
        ("rejected-plugin-call", "a NekroPlugin(...) call that NekroAgent rejects (TypeError at import)", "use only the keywords NekroPlugin accepts"),
        ("unresolved-field", "a field is not a literal that can be read without running the code", "write the value as a literal, or fill it in the manifest by hand"),
        ("invalid-manifest", "the extracted manifest would not be valid", "fix the plugin source at the line given"),
        ("internal-error", "the generated manifest does not read back as written (a bug in PAS)", "report it, with the plugin source"),
        ("runtime-method-filter", "the plugin filters its shown methods at run time (mount_collect_methods)", "check the budget with the methods the filter keeps"),
        ("method-without-docstring", "a mounted method has no docstring, so NekroAgent leaves it out of the prompt", "write a docstring: it is what the model reads"),
        ("unresolved-method", "a mount names a function that cannot be found or read statically", "mount a function defined in the plugin package"),
        ("unimported-module", "no import of the plugin package reaches this file, so NekroAgent never runs it", "import it from the package, or delete it"),
        ("unlinked-method", "a mount belongs to no NekroPlugin defined in or imported into the package", "mount it on the plugin object"),
        ("unbound-plugin", "a NekroPlugin(...) is not bound to a module-level name, so nothing can mount on it", "assign it: plugin = NekroPlugin(...)"),
        ("mcp-server-failed", "the MCP server did not start, exited, did not answer in time or did not speak MCP (exit 2; its process group is killed)", "run the command by hand to see why, or raise --timeout"),
        ("mcp-not-a-tool-list", "a JSON file holds no MCP tools/list result", "save the tools/list result ({\"tools\": [...]}) or its JSON-RPC response"),
        ("mcp-incomplete-list", "a saved listing says more pages follow (nextCursor)", "save every page's tools in one list"),
        ("mcp-module-name", "the server's name is not a module name: the one made of it is given (an error when none can be made)", "activate the plugin by the module_name given, or name the server in ASCII"),
        ("mcp-guessed-text", "description or sleep_brief were built, not read: from the tools' descriptions, or cut from long instructions (x-pas-guessed)", "read the brief and write a better one in the manifest"),
        ("mcp-tool-left-out", "a tool that cannot be a method (no name, no inputSchema object, a name that clashes) is left out", "fix the tool on the server's side"),
        ("mcp-tool-name", "a tool's name is not an identifier; its method is renamed and x-mcp-name keeps the tool's own", "nothing, unless your host calls methods by the manifest's name"),
        ("mcp-tool-without-description", "a tool has no description, so the model sees only its name and schema", "ask the server's authors for a description"),
        ("mcp-oversized-schema", "a tool's input schema is over 8192 characters of compact JSON", "check that the schema is worth its tokens in every awake run"),
        ("skill-frontmatter", "a SKILL.md's frontmatter breaks a rule of the Agent Skills specification (an error: the skill is not written), or one of its recommendations (a warning)", "fix the key at the line and pointer given"),
        ("skill-client-difference", "a SKILL.md that some Agent Skills clients reject or read differently; the message names them and where it was seen", "keep to the specification's six keys and limits to load everywhere"),
        ("skill-body", "a skill has no body, or one longer than the specification's 500 lines", "write the instructions, or move reference material into references/"),
    ),
    *_table(
        "fuzz",
        ("fuzz-emit", "a shrunk case does not turn into a scenario that fails the same way", "report it: the fuzzer found something it cannot write down"),
        ("fuzz-confirm", "confirming a written finding against the implementation failed", "run pas run --scenario on the written file"),
        ("io-error", "a file could not be written", "check the folder exists and is writable"),
    ),
)

CODES: Final[Mapping[str, Code]] = {entry.code: entry for entry in _ALL}

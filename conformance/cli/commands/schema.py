"""``pas schema NAME``: print a bundled JSON Schema, for editors and other validators."""

from __future__ import annotations

import argparse
import sys

from conformance.documents.exit_codes import ExitCode

HELP = "Print a bundled JSON Schema (manifest, host-config, scenario, protocol/run-request, ...) as JSON or YAML."
_ALIASES = {"manifest": "plugin-manifest"}


def bundled_schemas() -> dict[str, str]:
    """Every bundled schema's name (``plugin-manifest``, ``protocol/run-request``) -> its ``$id``."""
    from conformance.documents.schemas import registry

    return {uri.split("/schemas/", 1)[1].split("/", 1)[1].removesuffix(".schema.json"): uri
            for uri in registry() if uri.endswith(".schema.json")}


def _schema_name(text: str) -> str:
    """argparse type: a bundled schema's name (aliases resolved); loads the schemas only when a name is given."""
    name = _ALIASES.get(text, text)
    try:
        known = bundled_schemas()
    except Exception:  # noqa: BLE001 - a broken installation is reported by run(), with exit 2
        return name
    if name not in known:
        raise argparse.ArgumentTypeError(f"no bundled schema named {text!r} (`pas schema --list` names them all)")
    return name

EPILOG = """\
editors: the YAML language server (VS Code's YAML extension, and others) validates and completes
a file that starts with a modeline naming the schema, by URL or by a path relative to the file:

  # yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json

or, offline, save the schema next to your manifests and point at the copy:

  pas schema manifest > schemas/plugin-manifest.schema.json
  # yaml-language-server: $schema=schemas/plugin-manifest.schema.json

pas validate reads the same modeline (and a $schema key) to tell manifests from host configs.
--id prints only the schema's $id, the URL to put in the modeline; --list names every bundled
schema, the stdio protocol's messages (protocol/run-request, ...) included.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas schema``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("name", nargs="?", type=_schema_name, help="which schema: manifest, host-config, scenario, protocol/run-request ... "
                        "(see --list)")
    parser.add_argument("--list", action="store_true", help="list the names of every bundled schema and exit")
    parser.add_argument("--format", choices=("json", "yaml"), default="json", help="output format (default: json)")
    parser.add_argument("--id", action="store_true", help="print only the schema's $id (its URL)")


def run(args: argparse.Namespace) -> int:
    """Print the schema (or the list); exit 2 (with one line) for an unknown name or unreadable spec files."""
    try:
        from conformance.documents.schemas import registry

        names = bundled_schemas()
        listing = "".join(f"{name}\n" for name in sorted(names))
        if args.list:
            sys.stdout.write(listing)
            return ExitCode.OK
        if args.name is None:
            sys.stderr.write("pas schema: name a schema, one of:\n" + listing)
            return ExitCode.USAGE
        contents = registry()[names[args.name]].contents
        if args.id:
            text = contents["$id"] + "\n"
        elif args.format == "yaml":
            import yaml

            text = yaml.safe_dump(contents, sort_keys=False, allow_unicode=True, width=100)
        else:
            import json

            text = json.dumps(contents, indent=2, ensure_ascii=False) + "\n"
    except Exception as error:  # noqa: BLE001 - no traceback: a broken installation is exit 2
        print(f"pas schema: cannot read the bundled schema: {type(error).__name__}: {error}", file=sys.stderr)
        return ExitCode.USAGE
    sys.stdout.write(text)
    return ExitCode.OK

"""``pas schema NAME``: print a bundled JSON Schema, for editors and other validators."""

from __future__ import annotations

import argparse
import sys

HELP = "Print a bundled JSON Schema (manifest, host-config, scenario) as JSON or YAML."
_NAMES = {"manifest": "plugin-manifest", "plugin-manifest": "plugin-manifest",
          "host-config": "host-config", "scenario": "scenario"}

EPILOG = """\
editors: the YAML language server (VS Code's YAML extension, and others) validates and completes
a file that starts with a modeline naming the schema, by URL or by a path relative to the file:

  # yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json

or, offline, save the schema next to your manifests and point at the copy:

  pas schema manifest > schemas/plugin-manifest.schema.json
  # yaml-language-server: $schema=schemas/plugin-manifest.schema.json

pas validate reads the same modeline (and a $schema key) to tell manifests from host configs.
--id prints only the schema's $id, the URL to put in the modeline.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas schema``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("name", choices=sorted(_NAMES), help="which schema")
    parser.add_argument("--format", choices=("json", "yaml"), default="json", help="output format (default: json)")
    parser.add_argument("--id", action="store_true", help="print only the schema's $id (its URL)")


def run(args: argparse.Namespace) -> int:
    """Print the schema; exit 2 (with one line) if the bundled spec files cannot be read."""
    try:
        from conformance.documents.schemas import schema

        contents = schema(_NAMES[args.name])
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
        return 2
    sys.stdout.write(text)
    return 0

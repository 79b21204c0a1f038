"""Extracting PAS manifests from other frameworks' plugin sources, statically.

``nekro``: NekroAgent plugins (``NekroPlugin(...)`` and its ``mount_*`` decorators), read with
Python's :mod:`ast`; see :mod:`conformance.tools.extract.nekro` and
:mod:`conformance.tools.extract.manifests`. Plugin code is parsed, never imported or run.
"""

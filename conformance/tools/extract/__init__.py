"""Extracting PAS manifests from other frameworks' plugins, tools and skills.

``nekro``: NekroAgent plugins (``NekroPlugin(...)`` and its ``mount_*`` decorators), read with
Python's :mod:`ast`, never imported or run (:mod:`~conformance.tools.extract.nekro`,
:mod:`~conformance.tools.extract.manifests`). ``mcp``: an MCP server's tools, from a saved
``tools/list`` result (:mod:`~conformance.tools.extract.mcp_dumps`) or asked of a stdio server
through the official MCP SDK (:mod:`~conformance.tools.extract.mcp_live`), one server one plugin
(:mod:`~conformance.tools.extract.mcp_tools`). ``skills``: Agent Skills folders
(:mod:`~conformance.tools.extract.skills`, the specification's rules and the clients'
differences in :mod:`~conformance.tools.extract.skill_rules`). Every extractor hands its
manifests to :mod:`~conformance.tools.extract.drafts`, which checks them through the one loader
and writes them with their source map.
"""

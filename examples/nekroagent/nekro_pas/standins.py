"""In-memory stand-ins for NekroAgent's infrastructure: the plugin-data table, the config file, chat lookup.

Each replaces one narrow piece of infrastructure; the code that decides anything (activation
state, eligibility, the template, the controller's replies, the admin handler, the RPC
handler) stays NekroAgent's own. README.md lists every stand-in with the source it replaces.
"""

from __future__ import annotations

from typing import Any

CONFIG_KEYS = ("PLUGIN_ENABLED", "PLUGIN_ACTIVATION_STRATEGIES")


class MemoryDB:
    """What survives a restart: the plugin-data table rows and the saved config file."""

    def __init__(self) -> None:
        self.rows: list[dict] = []  # DBPluginData rows
        self.saved_config: dict = {}  # the config keys NekroAgent writes with save_config
        self.next_id = 1

    def clear(self) -> None:
        """Forget everything (a new scenario)."""
        self.rows.clear()
        self.saved_config.clear()
        self.next_id = 1


DB = MemoryDB()


class _Record:
    def __init__(self, row: dict) -> None:
        self.__dict__.update(row)


class _Query:
    def __init__(self, filters: dict) -> None:
        self.filters = filters

    def _matches(self) -> list[dict]:
        return [r for r in DB.rows if all(r.get(k) == v for k, v in self.filters.items())]

    async def first(self) -> _Record | None:
        rows = self._matches()
        return _Record(rows[0]) if rows else None

    async def update(self, **values: Any) -> int:
        rows = self._matches()
        for row in rows:
            row.update(values)
        return len(rows)


class FakeDBPluginData:
    """In-memory stand-in for the Tortoise model nekro_agent.models.db_plugin_data:DBPluginData."""

    @staticmethod
    def filter(**filters: Any) -> _Query:
        """Rows whose columns equal ``filters``."""
        return _Query(filters)

    @staticmethod
    async def create(**values: Any) -> _Record:
        """Insert a row."""
        row = dict(values, id=DB.next_id)
        DB.next_id += 1
        DB.rows.append(row)
        return _Record(row)


def fake_save_config(config_obj: Any, file_path: Any = None) -> tuple[bool, None]:
    """Stand-in for ConfigService.save_config: the 'file' is DB.saved_config."""
    for key in CONFIG_KEYS:
        value = getattr(config_obj, key)
        DB.saved_config[key] = list(value) if isinstance(value, list) else dict(value)
    return True, None


class NoMessages:
    """Stand-in for the message service the RPC handler pushes a method's reply into (a chat database)."""

    async def push_system_message(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to store: the adapter reads the reply from the RPC response itself."""


class CurrentChat:
    """Stand-in for ``AgentCtx.create_by_chat_key`` (a chat-channel database lookup): the context of the call."""

    def __init__(self) -> None:
        self.ctx: Any = None

    def install(self, agent_ctx_class: Any) -> None:
        """Make ``create_by_chat_key`` answer the context of the call being made."""
        chat = self

        async def create_by_chat_key(cls: Any, chat_key: str, *args: Any, **kwargs: Any) -> Any:
            if chat.ctx is None or chat.ctx.chat_key != chat_key:
                raise LookupError(f"no chat {chat_key!r} in the adapter's stand-in")
            return chat.ctx

        agent_ctx_class.create_by_chat_key = classmethod(create_by_chat_key)


CHAT = CurrentChat()


def install(nk: dict) -> None:
    """Patch the stand-ins into the imported NekroAgent modules of ``nk`` (loading.NK)."""
    nk["pa"].DBPluginData = FakeDBPluginData
    nk["ConfigService"].save_config = staticmethod(fake_save_config)
    nk["rpc"].message_service = NoMessages()
    CHAT.install(nk["AgentCtx"])

    async def _no_notify(*_args: Any, **_kwargs: Any) -> None:
        return None

    # Command-registry notifications to chat adapters on enable/disable (2.4.0): nothing to notify.
    if hasattr(nk["manager"], "_notify_commands_changed_after_plugin_toggle"):
        nk["manager"]._notify_commands_changed_after_plugin_toggle = _no_notify

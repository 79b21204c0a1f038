"""A chat client standing in for the model: MAF's real client layers over a model the driver scripts step by step.

`ScriptedChatClient` is `ChatMiddlewareLayer, FunctionInvocationLayer, ChatTelemetryLayer,
BaseChatClient` (the layers every MAF chat client has, so the function-calling loop, the loader
tools and the tool list are MAF's own) with `_inner_get_response` - the provider call - replaced:
it hands the exact request (tool names in order, tool_choice, messages) to the `Channel` of the
conversation whose run is calling, and waits for the driver to say what the model answers.

Which conversation is calling is the `CURRENT_CHANNEL` context variable, set by the task that runs
`Agent.run` for that conversation (asyncio tasks copy it to everything the run starts).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent_framework import BaseChatClient, ChatResponse, Content, Message
from agent_framework._middleware import ChatMiddlewareLayer
from agent_framework._tools import FunctionInvocationLayer
from agent_framework.observability import ChatTelemetryLayer


@dataclass
class ModelCall:
    """One provider request: what the model would be sent, and where the driver puts its reply."""

    tools: tuple[str, ...]
    tool_choice: str | None
    messages: tuple[Message, ...]
    reply: asyncio.Future[Message] = field(repr=False)

    def results(self) -> dict[str, Content]:
        """The function results in this request's messages after the last assistant message, by call id."""
        found: dict[str, Content] = {}
        for message in reversed(self.messages):
            if message.role == "assistant":
                break
            for content in message.contents:
                if content.type == "function_result" and content.call_id is not None:
                    found.setdefault(content.call_id, content)
        return found


class Channel:
    """The model side of one conversation: provider requests queue up here until the driver answers."""

    def __init__(self) -> None:
        """An empty channel (create it inside the running event loop)."""
        self.calls: asyncio.Queue[ModelCall] = asyncio.Queue()

    async def ask(self, tools: Sequence[str], tool_choice: str | None, messages: Sequence[Message]) -> Message:
        """Queue one provider request and wait for the scripted reply."""
        reply: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        await self.calls.put(ModelCall(tuple(tools), tool_choice, tuple(messages), reply))
        return await reply


CURRENT_CHANNEL: contextvars.ContextVar[Channel] = contextvars.ContextVar("pas_scripted_channel")


def tool_calls_message(calls: Sequence[tuple[str, str, Mapping[str, Any]]]) -> Message:
    """An assistant message with one function call per (call id, tool name, arguments)."""
    contents = [Content.from_function_call(call_id, name, arguments=json.dumps(dict(arguments)))
                for call_id, name, arguments in calls]
    return Message(role="assistant", contents=contents)


def text_message(text: str) -> Message:
    """An assistant message with plain text: the model answers and the run ends."""
    return Message(role="assistant", contents=[Content.from_text(text)])


def _tool_choice(options: Mapping[str, Any]) -> str | None:
    choice = options.get("tool_choice")
    if choice is None or isinstance(choice, str):
        return choice
    return str(choice.get("mode")) if isinstance(choice, Mapping) else str(choice)


class ScriptedChatClient(ChatMiddlewareLayer, FunctionInvocationLayer, ChatTelemetryLayer, BaseChatClient):  # type: ignore[misc]
    """MAF's chat client layers over a scripted model (see the module docstring)."""

    OTEL_PROVIDER_NAME = "pas-scripted"

    async def _inner_get_response(  # type: ignore[override]
        self, *, messages: Sequence[Message], stream: bool, options: Mapping[str, Any], **kwargs: Any
    ) -> ChatResponse:
        if stream:
            raise NotImplementedError("the scripted model answers non-streaming runs only")
        channel = CURRENT_CHANNEL.get()
        tools = [getattr(tool, "name", str(tool)) for tool in options.get("tools") or ()]
        reply = await channel.ask(tools, _tool_choice(options), messages)
        return ChatResponse(messages=[reply])

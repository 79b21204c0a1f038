"""A chat client standing in for the model: MAF's real client layers over a model the driver scripts step by step.

`ScriptedChatClient` is `ChatMiddlewareLayer, FunctionInvocationLayer, ChatTelemetryLayer,
BaseChatClient` (the layers every MAF chat client has, so the function-calling loop, the loader
tools and the tool list are MAF's own) with `_inner_get_response` - the provider call - replaced:
it hands the exact request (tool names in order, tool_choice, messages) to the `Channel` of the
run that is calling (scripted_driver.py) and waits for the driver to say what the model answers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from agent_framework import BaseChatClient, ChatResponse, Content, Message
from agent_framework._middleware import ChatMiddlewareLayer
from agent_framework._tools import FunctionInvocationLayer
from agent_framework.observability import ChatTelemetryLayer
from scripted_driver import CURRENT_CHANNEL, ModelCall


def function_results(call: ModelCall) -> dict[str, Content]:
    """The function results in a model call's messages after the last assistant message, by call id."""
    found: dict[str, Content] = {}
    for message in reversed(call.messages):
        if message.role == "assistant":
            break
        for content in message.contents:
            if content.type == "function_result" and content.call_id is not None:
                found.setdefault(content.call_id, content)
    return found


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

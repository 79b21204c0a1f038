"""A chat model standing in for the real one: LangChain's `BaseChatModel` with a scripted answer per call.

bigtool binds its tools with `llm.bind_tools([retrieve_tools, *selected])` before every model call
(`langgraph_bigtool/graph.py:87`, async `95`). `ScriptedChatModel.bind_tools` binds them the way
provider models do (as OpenAI-format tool definitions), and `_agenerate` hands the exact call -
tool names in order and the messages - to the `Channel` of the request that is calling
(scripted_driver.py), then returns the `AIMessage` the driver scripts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from scripted_driver import CURRENT_CHANNEL, ModelCall


class ScriptedChatModel(BaseChatModel):
    """A chat model whose every answer comes from the driver (async calls only)."""

    @property
    def _llm_type(self) -> str:
        return "pas-scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        """Bind tools as a provider model does: OpenAI-format definitions in the call's `tools` keyword."""
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: Any = None, **kwargs: Any) -> ChatResult:
        raise NotImplementedError("the scripted model answers async calls only (the driver uses graph.ainvoke)")

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, **kwargs: Any) -> ChatResult:
        tools = [tool["function"]["name"] for tool in kwargs.get("tools") or ()]
        reply = await CURRENT_CHANNEL.get().ask(tools, kwargs.get("tool_choice"), messages)
        return ChatResult(generations=[ChatGeneration(message=reply)])


def tool_calls_message(calls: Sequence[tuple[str, str, Mapping[str, Any]]]) -> AIMessage:
    """An AI message with one tool call per (call id, tool name, arguments)."""
    return AIMessage(content="", tool_calls=[{"id": call_id, "name": name, "args": dict(arguments), "type": "tool_call"}
                                             for call_id, name, arguments in calls])


def text_message(text: str) -> AIMessage:
    """An AI message with plain text: the model answers and the graph ends."""
    return AIMessage(content=text)


def tool_results(call: ModelCall) -> dict[str, ToolMessage]:
    """The tool messages after the last AI message of a model call, by tool call id."""
    found: dict[str, ToolMessage] = {}
    for message in reversed(call.messages):
        if isinstance(message, AIMessage):
            break
        if isinstance(message, ToolMessage):
            found.setdefault(message.tool_call_id, message)
    return found

"""An example MCP server for the guides: a team workspace (tasks, notes, calendar), written with the MCP SDK.

It keeps everything in memory and is only meant to be asked for its tools:
``pas extract mcp --out manifests -- python conformance/examples/mcp/workspace_server.py``
(needs the MCP Python SDK: ``pip install 'mcp>=2.3'``, PAS's ``mcp`` extra). ``workspace.json`` beside it is its
saved listing (``--save``), which ``pas extract mcp conformance/examples/mcp/workspace.json``
reads without the SDK; a test keeps the two equal.
"""

from __future__ import annotations

from typing import Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

app = MCPServer(
    "team-workspace",
    version="1.4.0",
    instructions="Tasks, notes and the team calendar of one workspace. Use it when the user asks to plan, track or "
    "look up work: creating or updating tasks, writing or finding notes, and scheduling or listing meetings.",
)
_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
_TASKS: dict[str, dict] = {}
_NOTES: dict[str, str] = {}
_EVENTS: list[dict] = []


@app.tool(annotations=_WRITE)
def create_task(title: str, assignee: str | None = None, due: str | None = None,
                priority: Literal["low", "normal", "high", "urgent"] = "normal", labels: list[str] | None = None) -> str:
    """Create a task in the workspace and return its id.

    Use it when the user asks to track a piece of work. `due` is an ISO 8601 date (2025-03-31);
    `assignee` is a member's handle as `list_members` returns it. Labels are free text.
    """
    task_id = f"T{len(_TASKS) + 1}"
    _TASKS[task_id] = {"title": title, "assignee": assignee, "due": due, "priority": priority, "labels": labels or [],
                       "status": "open"}
    return task_id


@app.tool(annotations=_WRITE)
def update_task(task_id: str, status: Literal["open", "in_progress", "blocked", "done"] | None = None,
                assignee: str | None = None, due: str | None = None, comment: str | None = None) -> str:
    """Change a task's status, assignee or due date, and optionally add a comment explaining why.

    Only the fields given change. Returns the task as it is after the change.
    """
    task = _TASKS.setdefault(task_id, {"title": task_id, "status": "open"})
    task.update({k: v for k, v in {"status": status, "assignee": assignee, "due": due}.items() if v is not None})
    return str(task)


@app.tool(annotations=_READ)
def list_tasks(status: Literal["open", "in_progress", "blocked", "done", "any"] = "open",
               assignee: str | None = None, label: str | None = None, limit: int = 20) -> list[str]:
    """List tasks, newest first, filtered by status, assignee and label.

    Returns one line per task: id, title, assignee, due date and status. Use `limit` to keep the answer short.
    """
    return [f"{key}: {value['title']}" for key, value in list(_TASKS.items())[:limit]]


@app.tool(annotations=_DELETE)
def delete_task(task_id: str) -> str:
    """Delete a task for good. Ask the user to confirm first: a deleted task cannot be restored."""
    _TASKS.pop(task_id, None)
    return "deleted"


@app.tool(annotations=_WRITE)
def write_note(title: str, body: str, folder: str = "inbox", tags: list[str] | None = None) -> str:
    """Write a note (Markdown) into a folder of the workspace; an existing note with the same title is replaced.

    Use it for meeting minutes, decisions and anything the team should find later.
    """
    _NOTES[f"{folder}/{title}"] = body
    return f"{folder}/{title}"


@app.tool(annotations=_READ)
def search_notes(query: str, folder: str | None = None, limit: int = 10) -> list[str]:
    """Full-text search over the notes; returns the best matches with a short excerpt each.

    The query may use quotes for phrases and a leading minus to exclude a word ("design review" -draft).
    """
    return [key for key, body in _NOTES.items() if query.lower() in body.lower()][:limit]


@app.tool(annotations=_READ)
def read_note(path: str) -> str:
    """Read a whole note by its path (folder/title), as `search_notes` returns it."""
    return _NOTES.get(path, "")


@app.tool(annotations=_WRITE)
def schedule_meeting(title: str, start: str, duration_minutes: int = 30, attendees: list[str] | None = None,
                     location: str | None = None, agenda: str | None = None) -> str:
    """Put a meeting on the team calendar and invite the attendees.

    `start` is an ISO 8601 date and time with its offset (2025-03-31T14:00+02:00). Check `find_free_slots`
    first when the user has not given a time.
    """
    _EVENTS.append({"title": title, "start": start, "minutes": duration_minutes, "attendees": attendees or []})
    return f"E{len(_EVENTS)}"


@app.tool(annotations=_READ)
def find_free_slots(attendees: list[str], duration_minutes: int = 30, within_days: int = 7,
                    working_hours: tuple[int, int] = (9, 17)) -> list[str]:
    """Find times when every attendee is free, within the next days and inside working hours.

    Returns up to five start times, earliest first.
    """
    return []


@app.tool(annotations=_READ)
def list_events(start: str, end: str, attendee: str | None = None) -> list[str]:
    """List calendar events between two ISO 8601 dates, optionally only those one member attends."""
    return [event["title"] for event in _EVENTS]


@app.tool(annotations=_READ)
def list_members(team: str | None = None) -> list[str]:
    """List the workspace's members: handle, name, team and time zone."""
    return ["ada", "grace", "linus"]


@app.tool(annotations=_READ)
def workspace_summary() -> str:
    """A short overview for the start of a conversation: open tasks by assignee, today's meetings, recent notes."""
    return f"{len(_TASKS)} tasks, {len(_NOTES)} notes, {len(_EVENTS)} events"


if __name__ == "__main__":
    app.run()

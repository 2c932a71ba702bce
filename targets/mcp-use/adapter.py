"""gatecrash adapter for mcp-use's code mode (targets/mcp-use).

Written from mcp-use's documentation ("Code Mode"): the host makes an MCPClient with
code_mode=True and runs the agent's code with `await client.execute_code(code)` in an asyncio
event loop.  The executor compiles the code as the body of an `async def`, runs it with
exec in a fresh namespace (a dict of safe builtins, the asyncio module, search_tools and one
object per MCP server: none here) under asyncio.wait_for's timeout (30 s by default), and
hands back {"result": <the body's return value>, "logs", "error", "execution_time"}.  The
host reads "result".  Each evaluate is one asyncio.run, as a host without a loop of its own
calls it.  A statement-dialect program binds `result`, which the agent would return: the
adapter ends the body with `return result` (None when the program binds none).  The
executor turns every exception into its message ("error"), so nothing raised is handed back
and there is no refusal class ("refusals" is empty).

Not the sandbox's: mcp-use's anonymous telemetry (a user-id file under ~/.cache and events
sent), off by its documented switch MCP_USE_ANONYMIZED_TELEMETRY=false, and its error log
on stderr for every program that raises, quietened; the executor's code path is unchanged.
"""
import asyncio
import logging
import os

os.environ["MCP_USE_ANONYMIZED_TELEMETRY"] = "false"

from mcp_use import MCPClient  # noqa: E402

logging.getLogger("mcp_use").setLevel(logging.CRITICAL)

EPILOGUE = "\ntry:\n    return result\nexcept Exception:\n    return None\n"


def evaluate(source):
    client = MCPClient(config={}, code_mode=True)  # fresh per program (no server, no state)
    out = asyncio.run(client.execute_code(source + EPILOGUE))
    return out["result"]


def roots():
    """The names the executor's namespace holds: its safe builtins, asyncio, search_tools."""
    from mcp_use.client.code_executor import CodeExecutor
    ns = asyncio.run(CodeExecutor(MCPClient(config={}, code_mode=True))._build_namespace())
    names = set(ns["__builtins__"]) | {k for k in ns if not k.startswith("__")}
    return sorted(n for n in names if n not in ("None", "True", "False"))

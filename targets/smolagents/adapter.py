"""gatecrash adapter for smolagents' LocalPythonExecutor (targets/smolagents).

Written from smolagents' CodeAgent, which builds its executor this way: LocalPythonExecutor
with no additional authorized imports and its default timeout (a worker thread per program,
1.22 and later), then send_tools with the agent's tools ("final_answer", FinalAnswerTool,
when the agent is given no tools).  The agent runs each code action through the executor and
reads what comes back; a program's `result` binding is read from the executor's state.
smolagents refuses what it does not allow with InterpreterError (target.json "refusals").
evaluate runs a program on a fresh executor; session() is one executor an agent's steps share
(its variables and imports carried from one code action to the next), which target.json's
"steps" uses: an input's parts between step markers run in turn on one session.
namespace() hands gatecrash that state, so a primitive a program keeps there is judged.
"""
from smolagents.default_tools import FinalAnswerTool
from smolagents.local_python_executor import LocalPythonExecutor


def executor():
    ex = LocalPythonExecutor(additional_authorized_imports=[])
    ex.send_tools({"final_answer": FinalAnswerTool()})
    return ex


last = {}  # the state of the executor that ran the last program (namespace())


def evaluate(source):
    ex = executor()
    last["state"] = ex.state
    ex(source)
    return ex.state.get("result")


def session():
    ex = executor()
    last["state"] = ex.state

    def step(source):
        ex(source)
        return ex.state.get("result")

    return step


def namespace():
    """Where the program's bindings live: the executor's state, what the agent's next code
    action starts from (smolagents interprets the program itself: no exec to find it by)."""
    return last.get("state")


def roots():
    ex = executor()
    return sorted(set(ex.static_tools) | set(ex.custom_tools) | set(ex.state))

"""gatecrash adapter for asteval (targets/asteval).

Written from asteval's documentation ("Using asteval"): the host makes an Interpreter (with
numpy installed, its symbol table holds numpy's functions: sqrt, log, arcsin, ...), runs the
untrusted statements with it and reads the names they bound from its symbol table.  asteval
has no refusal class of its own: what it does not allow raises NotImplementedError ("Import not
supported") or AttributeError ("no safe attribute"), which the program's own code could raise
too, so target.json names no "refusals" and both are searched like any exception.
"""
from asteval import Interpreter


def evaluate(source):
    aeval = Interpreter()
    aeval.eval(source, raise_errors=True)
    return aeval.symtable.get("result")


def roots():
    return sorted(Interpreter().symtable)

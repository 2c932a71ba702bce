"""gatecrash adapter for simpleeval with a host-supplied module (targets/simpleeval-module).

Written from simpleeval's README ("Module access": modules are refused as names unless the
host opts in with ModuleWrapper): the host builds SimpleEval(names={'path':
ModuleWrapper(os.path)}) exactly as the README's example does and gets the expression's value
back.  InvalidExpression and its subclasses (FeatureNotAvailable, ...) are simpleeval's own
refusal.
"""
import os.path

import simpleeval


def evaluate(source):
    names = {"path": simpleeval.ModuleWrapper(os.path)}
    return simpleeval.SimpleEval(names=names).eval(source)


def roots():
    return ["path"] + sorted(simpleeval.DEFAULT_FUNCTIONS)

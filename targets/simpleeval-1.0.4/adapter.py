"""gatecrash adapter for simpleeval 1.0.4 with a host-supplied module (targets/simpleeval-1.0.4).

simpleeval 1.0.4 is the last release before GHSA-44vg-5wv2-h2hg / CVE-2026-32640 (fixed in
1.0.5: "objects (including modules) can leak dangerous modules through to direct access
inside the sandbox").  Before 1.0.5 there is no ModuleWrapper; the README's "names" section
shows passing any object as a name, so the host hands in the module os.path itself as the name
'path' (the host of targets/simpleeval-module, on the release before the fix).
InvalidExpression and its subclasses are simpleeval's own refusal.
"""
import os.path

import simpleeval


def evaluate(source):
    return simpleeval.SimpleEval(names={"path": os.path}).eval(source)


def roots():
    return ["path"] + sorted(simpleeval.DEFAULT_FUNCTIONS)

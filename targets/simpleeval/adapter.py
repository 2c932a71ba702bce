"""gatecrash adapter for simpleeval (targets/simpleeval).

Written from simpleeval's README ("Basic Usage"): the host calls simple_eval(expression)
with the default names (True, False, None) and default functions, and gets the
expression's value back.  simpleeval refuses what it does not allow with InvalidExpression
and its subclasses (FeatureNotAvailable, NameNotDefined, AttributeDoesNotExist, ...): its
own refusal (target.json "refusals").
"""
import simpleeval


def evaluate(source):
    return simpleeval.simple_eval(source)


def roots():
    return sorted(simpleeval.DEFAULT_NAMES) + sorted(simpleeval.DEFAULT_FUNCTIONS)

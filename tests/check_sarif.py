"""Structural check of a SARIF 2.1.0 log: the properties the 2.1.0 schema requires, their
types and enumerations, and the cross-references code-scanning interfaces rely on
(ruleIndex/ruleId, locations).  Usage: check_sarif.py FILE [MIN_RESULTS]"""
import json
import sys

LEVELS = {"none", "note", "warning", "error"}
errors = []


def need(cond, msg):
    if not cond:
        errors.append(msg)


def main():
    log = json.load(open(sys.argv[1]))
    min_results = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    need(log.get("version") == "2.1.0", "version must be 2.1.0")
    need(isinstance(log.get("$schema"), str) and "sarif" in log["$schema"], "$schema names the SARIF schema")
    runs = log.get("runs")
    need(isinstance(runs, list) and runs, "runs is a non-empty array")
    total = 0
    for r, run in enumerate(runs or []):
        driver = run.get("tool", {}).get("driver", {})
        need(isinstance(driver.get("name"), str) and driver["name"], f"runs[{r}].tool.driver.name")
        rules = driver.get("rules", [])
        need(isinstance(rules, list), "rules is an array")
        ids = [rule.get("id") for rule in rules]
        need(all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids), "rule ids are unique strings")
        for rule in rules:
            lvl = rule.get("defaultConfiguration", {}).get("level", "warning")
            need(lvl in LEVELS, f"rule {rule.get('id')}: level {lvl}")
        for i, res in enumerate(run.get("results", [])):
            total += 1
            where = f"runs[{r}].results[{i}]"
            msg = res.get("message", {})
            need(isinstance(msg.get("text"), str) or isinstance(msg.get("id"), str), f"{where}.message.text")
            need(isinstance(res.get("ruleId"), str), f"{where}.ruleId")
            need(res.get("level", "warning") in LEVELS, f"{where}.level")
            if "ruleIndex" in res:
                ri = res["ruleIndex"]
                need(isinstance(ri, int) and 0 <= ri < len(rules) and rules[ri]["id"] == res.get("ruleId"),
                     f"{where}.ruleIndex points at its rule")
            for loc in res.get("locations", []):
                pl = loc.get("physicalLocation", {})
                need(isinstance(pl.get("artifactLocation", {}).get("uri"), str), f"{where} artifactLocation.uri")
                reg = pl.get("region")
                if reg is not None:
                    need(isinstance(reg.get("startLine"), int) and reg["startLine"] >= 1, f"{where} region.startLine")
            fp = res.get("partialFingerprints", {})
            need(all(isinstance(v, str) for v in fp.values()), f"{where}.partialFingerprints are strings")
            need("chain" in res.get("properties", {}), f"{where}.properties.chain")
    need(total >= min_results, f"{total} results, want at least {min_results}")
    if errors:
        print("SARIF check failed:\n  " + "\n  ".join(errors))
        sys.exit(1)
    print(f"SARIF ok: {total} results")


main()

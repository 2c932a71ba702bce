#!/usr/bin/env bash
# Gate line feedback (--feedback=+gate) on this build's CPython: the seed corpus run once
# over station-1.5.0 must give the gate module's own features (each function entered, each
# line run) on top of the engine glue's coverage.  3.11 traces with a C trace function,
# 3.12+ with a sys.monitoring tool of gatecrash's own (harness/chain/feedback.c); both give 96
# gate features here.  On 3.12+ the 3.11 way gives 3 (tracing through PEP 669 ignores
# direct c_tracefunc writes), and the chains must not register monitoring callbacks.
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
T=$SRC/targets/station-1.5.0
mkdir -p "$WORK/scratch"
ft() { (cd "$WORK/scratch" && "$FUZZ" --target="$T" --feedback="$1" -runs=0 "$SRC/corpus") 2>&1 | sed -n 's/.*INITED.* ft: \([0-9]*\).*/\1/p'; }
none=$(ft none) gate=$(ft gate)
echo "CPython $PYVER: features without gate feedback ${none:-?}, with ${gate:-?}"
[[ -n $none && -n $gate ]] && ((gate - none >= 90)) && ok ||
  fail "gate feedback on CPython $PYVER gives $((${gate:-0} - ${none:-0})) gate features, want at least 90"
if [[ $PYVER != 3.11 ]]; then
  printf '%s\n' "__builtins__['__import__']('sys').monitoring.use_tool_id(3, 'x')" \
    "__builtins__['__import__']('sys').monitoring.register_callback(3, 1, None)" >"$WORK/monitor.chain"
  expect_exit 0 "a chain registering a monitoring callback" -- "$GC" replay -q "$T" "$WORK/monitor.chain"
  expect_fgrep "refused by the harness: sys.monitoring.register_callback" "sys.monitoring.register_callback is refused"
fi
finish

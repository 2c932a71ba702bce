#!/usr/bin/env bash
# The soak: a long campaign on station-1.5.0 and on the allow-everything policy
# (targets/station-1.5.0-allow-all), both at once, each under strace, then a report of
# inputs run, state repairs, timeouts, out-of-memory findings, restarts, escapes, harness
# errors, and the proof of no effect on the machine: every process the campaign started
# and every file it changed, by process, from the kernel's side (strace follows the whole
# tree: the gatecrash command, its spawner, the engine and its jobs).
# Usage: bench/soak.sh [SECONDS=3600] [BUILD_DIR=build]   (writes bench/results/soak.md)
# A benchmark, not a test: it runs for SECONDS.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600} build=${2:-build}
root=$PWD
out=${SOAK_DIR:-$root/bench/results/soak-runs}
rm -rf "$out" && mkdir -p "$out"
command -v strace >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace >/dev/null
[[ -x $build/gatecrash && -x $build/fuzz_gate ]] || { echo "soak: build first (bash ci/build.sh)" >&2; exit 2; }
# the syscalls that start processes or change files (opens are judged by their flags)
calls=execve,execveat,clone,clone3,fork,vfork,open,openat,openat2,creat,unlink,unlinkat,rename,renameat,renameat2
calls=$calls,mkdir,mkdirat,rmdir,symlink,symlinkat,link,linkat,chmod,fchmod,fchmodat,chown,fchown,fchownat,lchown
calls=$calls,truncate,ftruncate,utimensat,mknod,mknodat,setxattr,lsetxattr,fsetxattr,removexattr,connect,bind,chdir
date -u +%FT%TZ >"$out/started"
git -C "$root" rev-parse --short HEAD >"$out/commit" 2>/dev/null || echo unknown >"$out/commit"
# Not --seccomp-bpf: strace then sees only the calls its own filter traces, and the harness's
# filter hands every write-type call of a confined process to its supervisor first
# (harness/runtime/confine.c; a user notification outranks a trace), so those writes would be
# invisible.  Stopping at every call costs execs/s, not coverage of the proof.
for t in station-1.5.0 station-1.5.0-allow-all; do
  mkdir -p "$out/$t"
  (strace -f -qq -e signal=none -e trace="$calls" -o "|gzip -1 >'$out/$t/trace.gz'" \
     "$root/$build/gatecrash" fuzz "$root/targets/$t" --time "$secs" --seed 1 --out "$out/$t/campaign" \
     >"$out/$t/fuzz.txt" 2>&1; echo $? >"$out/$t/exit") &
done
wait
date -u +%FT%TZ >"$out/ended"
/usr/bin/python3 -I bench/soak_report.py "$out" "$secs" "$root" >bench/results/soak.md
cat bench/results/soak.md

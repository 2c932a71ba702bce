#!/usr/bin/env bash
# report.html, rendered in headless Chromium: one self-contained page (nothing fetched, no
# script) whose DOM holds the holes table, the campaign chart, the sweep's figures and the
# change against a previous report.json; text from the target, the case files and the
# previous report is escaped (a case file named <script>…&…, a previous report's hole; a target
# so named is refused: target_names.sh); and the
# screenshot is not blank (tests/png_check.py, zlib only).  A bounded one-job campaign.
source "$(dirname "$0")/lib.sh" "$@"
CHROMIUM=$(command -v chromium || echo /usr/bin/chromium)
[[ -x $CHROMIUM ]] || { fail "no chromium (bash ci/install-deps.sh)"; finish; exit; }
need fuzz_gate || { finish; exit; } # the page's campaign chart needs the gate's fuzzing half
browse() { # browse ARGS... FILE: headless Chromium, its own profile, no network of its own
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$(mktemp -d "$WORK/profile.XXXXXX")" "$@" 2>>"$WORK/chromium.log"
}

evil='<script>alert(1)</script> & co'
mkdir -p "$WORK/t" "$WORK/esc"
cp "$SRC/targets/station-1.5.0/module_sandbox.py" "$WORK/t/"
sed "s|\"name\": *\"[^\"]*\"|\"name\": \"<script>alert(1)</script> \& co\"|" "$SRC/targets/station-1.5.0/target.json" >"$WORK/t/target.json"
grep -qF "$evil" "$WORK/t/target.json" && ok || fail "the target's name was not set"
expect_exit 2 "a target named with markup is refused" -- "$GC" gate "$WORK/t" --time 0 --report "$WORK/rep0"
sed -i "s|\"name\": *\"[^\"]*\"|\"name\": \"html-report\"|" "$WORK/t/target.json"
cp "$SRC/escapes/station-1.5.0/reach-spawn-os.execv-via-self.chain" "$WORK/esc/x<script>&y.chain"
printf '{"holes": [{"hole": "gone <b>&hole", "chain": "a<b"}]}\n' >"$WORK/previous.json"
expect_exit 1 "gate with fuzzing and a sweep" -- "$GC" gate "$WORK/t" --escapes "$WORK/esc" --report "$WORK/rep" \
  --out "$WORK/camp" --runs 2000 --jobs 1 --seed 1 --sweep-depth 1 --previous "$WORK/previous.json"
page=$WORK/rep/report.html
[[ -s $page ]] && ok || fail "no report.html"

# the page as written: escaped, self-contained
cp "$page" "$WORK/out"
expect_no_grep "<script" "no script element"
expect_fgrep "x&lt;script&gt;&amp;y.chain" "the case file's name, escaped"
expect_fgrep "gone &lt;b&gt;&amp;hole" "the previous report's hole, escaped"
expect_no_grep "src=|href=|url\(|@import|https?:" "nothing fetched: no source, link, url() or address"

# the page as Chromium builds it
browse --dump-dom "file://$page" >"$WORK/dom.html" || fail "chromium --dump-dom failed: $(tail -3 "$WORK/chromium.log")"
cp "$WORK/dom.html" "$WORK/out"
expect_grep '<table id="holes">' "DOM: the holes table"
n=$(grep -o '<tr class="hole">' "$WORK/dom.html" | wc -l)
[[ $n -ge 1 ]] && ok || fail "DOM: no hole row"
expect_grep '<svg id="progress"' "DOM: the campaign chart"
[[ $(grep -o '<polyline' "$WORK/dom.html" | wc -l) -eq 4 ]] && ok || fail "DOM: the chart has not its four series"
expect_grep '<table id="sweep">' "DOM: the sweep's figures"
expect_grep '<p id="changes">[1-9][0-9]* new, 1 fixed, 0 still open' "DOM: changes against the previous report"
expect_no_grep "<script" "DOM: no script element"
expect_fgrep "x&lt;script&gt;&amp;y.chain" "DOM: the case file's name is text"

# the screenshot is not blank
browse --screenshot="$WORK/shot.png" --window-size=1200,900 "file://$page" >/dev/null
expect_exit 0 "the screenshot has content" -- "$PY" -I "$SRC/tests/png_check.py" "$WORK/shot.png" 16 0.02
finish

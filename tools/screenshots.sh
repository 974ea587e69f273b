#!/bin/bash
# screenshots.sh BIN OUTDIR: desktop and phone screenshots of a Claude Code, a Codex and a gateway
# page, and of the archive index on a phone (docs/screenshots), with headless Chromium. OUTDIR must
# not exist: nothing is replaced.
set -u
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 2; }
bin=$(realpath "$1"); out=$(realpath -m "$2")
[ -e "$out" ] && { echo "$0: $2 exists; name a new directory" >&2; exit 2; }
mkdir -p "$out/html"
cd "$(dirname "$0")/.."
$bin export testdata/claude/session.jsonl -o $out/html/claude.html 2>/dev/null
$bin export testdata/codex/rollout.jsonl -o $out/html/codex.html 2>/dev/null
$bin export testdata/gateway/envelopes.jsonl -o $out/html/gateway.html 2>/dev/null
$bin archive testdata/archive -o $out/html/arch --quiet 2>/dev/null
for p in claude codex gateway; do
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=$out/$p-desktop.png --window-size=1280,900 file://$out/html/$p.html 2>/dev/null
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=$out/$p-phone.png --window-size=390,844 file://$out/html/$p.html 2>/dev/null
done
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=$out/archive-index-phone.png --window-size=390,844 file://$out/html/arch/index.html 2>/dev/null

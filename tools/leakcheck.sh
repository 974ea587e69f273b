#!/bin/bash
# leakcheck.sh CANOPY GITLEAKS SESSION...
#
# An independent check of canopy's redaction: for each session, the
# secrets gitleaks (default rules, its generic-api-key rule left out: in
# transcripts it takes ids and hashes) and canopy's detector find in the
# input, and which of them are still in what `canopy export` writes by
# default (it redacts unless --keep-secrets): the
# page, with everything it holds compressed unpacked (store chunks and the
# embedded source, by tools/leakcheck), and the Markdown. A secret
# survives if its value is anywhere in those texts (as written, or with
# HTML entities and JSON escapes decoded), or if gitleaks or canopy scan
# finds it there again. Prints a table, and each survivor masked; exits 1
# if any survives. Work files go to a temporary directory (LEAKCHECK_KEEP=1
# keeps it), never beside the sessions.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 CANOPY GITLEAKS SESSION..." >&2
  exit 2
fi
canopy=$(realpath "$1"); gitleaks=$(realpath "$2"); shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/leakcheck.XXXXXX")
[ "${LEAKCHECK_KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
helper="$work/leakcheck"
(cd "$repo" && go build -o "$helper" ./tools/leakcheck) || exit 1

# gitleaks DIR_OR_FILE REPORT: a JSON report, whatever it finds.
gl() {
  "$gitleaks" dir "$1" --no-banner --log-level error -f json -r "$2" --exit-code 0 >/dev/null
}

printf 'session\tgitleaks-in\tcanopy-in\tgitleaks-surviving\tcanopy-surviving\tgitleaks-out\tcanopy-out\n'
status=0 n=0
for session in "$@"; do
  n=$((n + 1))
  w="$work/$n"; mkdir -p "$w/in" "$w/out"
  # What is looked for in the input is the session's text: a compressed
  # session (canopy reads .gz and .zst) is decompressed for gitleaks and
  # the detector; canopy exports it as given.
  plain="$w/in/$(basename "$session")"
  case "$session" in
    *.gz | *.GZ) plain="${plain%.*}"; gzip -dc "$session" >"$plain" || { status=1; continue; } ;;
    *.zst | *.ZST) plain="${plain%.*}"; zstd -qdc "$session" >"$plain" || { status=1; continue; } ;;
    *) cp "$session" "$plain" ;;
  esac
  gl "$w/in" "$w/gl-in.json" || { echo "$session: gitleaks failed" >&2; status=1; continue; }
  "$helper" secrets "$plain" >"$w/canopy-in.jsonl" || { status=1; continue; }
  if ! "$canopy" export "$session" -o "$w/page.html" 2>"$w/export.err" ||
     ! "$canopy" export --format markdown "$session" -o "$w/page.md" 2>>"$w/export.err"; then
    echo "$session: export failed: $(tail -1 "$w/export.err")" >&2; status=1; continue
  fi
  "$helper" unpack "$w/page.html" "$w/out" "$w/page.md" || { status=1; continue; }
  gl "$w/out" "$w/gl-out.json" || { status=1; continue; }
  # canopy scan itself on the unpacked texts (exit 1 means it found some),
  # and canopy's detector for the values, to match them with the input's.
  "$canopy" scan --json "$w/out/scan.jsonl" >"$w/scan-out.json"
  [ $? -le 1 ] || { echo "$session: canopy scan failed" >&2; status=1; continue; }
  "$helper" secrets "$w/out/scan.jsonl" >"$w/canopy-out.jsonl" || { status=1; continue; }
  "$helper" survivors "$plain" "$w/gl-in.json" "$w/canopy-in.jsonl" \
    "$w/gl-out.json" "$w/canopy-out.jsonl" "$w/out" >"$w/row" || { status=1; continue; }
  cat "$w/row"
  grep -q '^  survives' "$w/row" && status=1
done
[ "${LEAKCHECK_KEEP:-}" = 1 ] && echo "work files: $work" >&2
exit $status

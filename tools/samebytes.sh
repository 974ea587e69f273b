#!/bin/bash
# samebytes.sh BIN OUTDIR [BIGDIR]
#
# Runs the canopy binary BIN over every input a restructuring must leave
# unchanged, writing every output to OUTDIR, so that two binaries (before
# and after a change) can be compared with `diff -r OUTDIR1 OUTDIR2`:
# the pages of every test, conformance and corpus session in four flag
# variants, their Markdown exports (with --link, and with --limit and
# --redact), inspect (text and JSON), scan, and archives (plain and
# --redact) of three directories, verified. Paths in messages are written
# as OUT. With BIGDIR, the *.jsonl in it (the benchmark inputs bench/cmd/canopybench
# generates, e.g. /tmp/canopybench/inputs) are exported too, plain only.
set -u
bin=$(realpath "$1"); out=$(realpath -ms "$2"); big=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
shared=$(realpath -m "$repo/../shared")
# OUTDIR is replaced only when this script made it (its marker is there):
# never a file, a device or a directory of anything else.
if [ -e "$out" ] || [ -L "$out" ]; then
  if [ -L "$out" ] || [ ! -d "$out" ] || [ ! -f "$out/.samebytes" ]; then
    echo "samebytes.sh: $2 exists and was not made by samebytes.sh; not replacing it" >&2
    exit 2
  fi
  rm -rf "$out"
fi
mkdir -p "$out" && touch "$out/.samebytes"
cd "$repo"
inputs=$(ls testdata/*/*.jsonl testdata/*/*.json testdata/*/*/*.jsonl testdata/*/*/*.json \
  "$shared"/conformance/*/*.jsonl "$shared"/corpus/*.jsonl 2>/dev/null | grep -v expect.json)
n=0
one() { # one input: tag, flags
  local f=$1 name=$2 tag=$3; shift 3
  "$bin" export "$f" -o "$out/$name.$tag.html" "$@" >"$out/$name.$tag.stdout" 2>"$out/$name.$tag.stderr"
  echo "exit $?" >>"$out/$name.$tag.stderr"
}
for f in $inputs; do
  name=$(echo "$f" | sed "s#^$shared/##; s#/#_#g")
  one "$f" "$name" plain
  one "$f" "$name" redact --redact --redact-report "$out/$name.report.json"
  one "$f" "$name" path --path-only --no-thinking --no-tool-output --no-hidden --theme dark --title T
  one "$f" "$name" nosrc --no-source
  "$bin" export --format markdown "$f" -o "$out/$name.md" --link https://x.test/p.html >/dev/null 2>"$out/$name.md.stderr"; echo "exit $?" >>"$out/$name.md.stderr"
  "$bin" export --format markdown "$f" -o "$out/$name.lim.md" --limit 20000 --redact >/dev/null 2>"$out/$name.lim.md.stderr"; echo "exit $?" >>"$out/$name.lim.md.stderr"
  "$bin" inspect --json "$f" >"$out/$name.inspect.json" 2>&1; echo "exit $?" >>"$out/$name.inspect.json"
  "$bin" inspect "$f" >"$out/$name.inspect.txt" 2>&1
  "$bin" scan "$f" >"$out/$name.scan.txt" 2>&1; echo "exit $?" >>"$out/$name.scan.txt"
  n=$((n+1))
done
if [ -n "$big" ]; then
  for f in "$big"/*.jsonl; do
    one "$f" "big_$(basename "$f")" plain
    n=$((n+1))
  done
fi
for a in testdata/archive "$shared/corpus" "$shared/conformance"; do
  name=$(echo "$a" | sed "s#^$shared/##; s#/#_#g")
  "$bin" archive "$a" -o "$out/arch_$name" --quiet >"$out/arch_$name.stdout" 2>&1; echo "exit $?" >>"$out/arch_$name.stdout"
  "$bin" archive "$a" -o "$out/archr_$name" --quiet --redact >/dev/null 2>&1
  "$bin" verify "$out/arch_$name" >"$out/arch_$name.verify" 2>&1
done
grep -rlF "$out" "$out" --include="*.stdout" --include="*.stderr" --include="*.verify" --include="*.txt" --include="*.json" |
  xargs -r sed -i "s#$out#OUT#g"
echo "$n inputs; $(find "$out" -type f | wc -l) files in $out"

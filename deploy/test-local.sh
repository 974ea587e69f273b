#!/bin/bash
# Runs the commands of the Kubernetes Indexed Job (k8s/) and of the
# GitHub Actions matrix (github/) on this machine, as their engines would:
# the shard command once per index, side by side, with the index in
# JOB_COMPLETION_INDEX (Kubernetes) or SHARD (the matrix), then the merge
# command. It checks that the merged archive is byte for byte what one
# `canopy archive` over the same sessions makes, that canopy verify
# passes, and that running everything again renders and writes nothing.
#
# usage: deploy/test-local.sh [SESSIONS_DIR]   (default: the repository's test sessions)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/canopy-deploy-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$here/.." && go build -o "$work/bin/canopy" ./cmd/canopy)
export PATH="$work/bin:$PATH"

# The shard and merge scripts and N, read from the two files.
python3 - "$here" "$work" <<'PY'
import sys, yaml, re, os
here, work = sys.argv[1], sys.argv[2]
def block(script, name):
    m = re.search(r"# canopy:%s-begin\n(.*?)# canopy:%s-end" % (name, name), script, re.S)
    return m.group(1)
k8s = yaml.safe_load(open(os.path.join(here, "k8s/archive-shards.yaml")))
merge = yaml.safe_load(open(os.path.join(here, "k8s/archive-merge.yaml")))
c = k8s["spec"]["template"]["spec"]["containers"][0]
n = k8s["spec"]["completions"]
env = {e["name"]: e["value"] for e in c["env"]}
assert k8s["spec"]["completionMode"] == "Indexed" and int(env["SHARDS"]) == n, "completions and SHARDS differ"
mc = merge["spec"]["template"]["spec"]["containers"][0]
assert {e["name"]: e["value"] for e in mc["env"]}["SHARDS"] == env["SHARDS"]
gh = yaml.safe_load(open(os.path.join(here, "github/archive-matrix.yml")))
shard_steps = [s for s in gh["jobs"]["shard"]["steps"] if "canopy:shard-begin" in s.get("run", "")]
merge_steps = [s for s in gh["jobs"]["merge"]["steps"] if "canopy:merge-begin" in s.get("run", "")]
assert gh["jobs"]["shard"]["strategy"]["matrix"]["shard"] == list(range(int(gh["env"]["SHARDS"]))), "matrix and SHARDS differ"
assert gh["jobs"]["merge"]["needs"] == "shard"
for name, text in {
    "k8s-shard": block(c["args"][0], "shard"), "k8s-merge": block(mc["args"][0], "merge"),
    "gh-shard": block(shard_steps[0]["run"], "shard"), "gh-merge": block(merge_steps[0]["run"], "merge"),
    "k8s-n": str(n), "gh-n": str(gh["env"]["SHARDS"]),
}.items():
    open(os.path.join(work, name), "w").write(text)
PY

sessions=${1:-}
for engine in k8s gh; do
  n=$(cat "$work/$engine-n")
  dir="$work/$engine"
  mkdir -p "$dir"
  if [ -n "$sessions" ]; then cp -R "$sessions" "$dir/sessions"; else "$here/fetch-sessions.sh" "$dir/sessions"; fi
  for pass in 1 2; do
    pids=()
    for ((i = 0; i < n; i++)); do
      (cd "$dir" && SHARDS=$n JOB_COMPLETION_INDEX=$i SHARD=$i sh -e "$work/$engine-shard") 2>"$dir/shard-$i.log" &
      pids+=($!)
    done
    st=0
    for p in "${pids[@]}"; do wait "$p" || st=1; done
    if [ $st != 0 ]; then
      cat "$dir"/shard-*.log
      echo "$engine: a shard failed" >&2
      exit 1
    fi
    (cd "$dir" && SHARDS=$n sh -e "$work/$engine-merge") 2>&1 | tee "$dir/merge.log"
    (cd "$dir" && canopy archive sessions -o single --quiet 2>/dev/null) || true
    diff -r "$dir/single" "$dir/archive"
    for ((i = 0; i < n; i++)); do
      echo "$engine pass $pass: shard $i/$n: $(tail -1 "$dir/shard-$i.log")"
    done
    if [ $pass = 2 ] && ! grep -q " 0 pages from the shards" "$dir/merge.log"; then
      echo "$engine: the second merge took pages from the shards" >&2
      exit 1
    fi
  done
  echo "$engine: $n shards merged = one archive, byte for byte; verify passed; a re-run changed nothing"
done

#!/bin/sh
# Runs the sharded archive on a cluster: the shards, then the merge once
# they have all completed. Jobs are immutable: the previous run's are
# deleted first (the shards' outputs on the volume stay, for an
# incremental re-run).
set -e
cd "$(dirname "$0")"
kubectl delete job canopy-archive-shards canopy-archive-merge --ignore-not-found
kubectl apply -f archive-shards.yaml
kubectl wait --for=condition=complete --timeout=24h job/canopy-archive-shards
kubectl apply -f archive-merge.yaml
kubectl wait --for=condition=complete --timeout=6h job/canopy-archive-merge

#!/usr/bin/env bash
# Peer comparison on a real Hyracks 0.3.8 LSM B+-tree, one process: Hyracks' own prefix policy and
# GreedyScheduler against Strata's prefix policy and greedy scheduler through asterix-adapter, same
# parameters, same throttled page-write callback. Prints per-run figures and Strata/Hyracks ratios.
#
# Usage: scripts/bench-hyracks-adapter.sh [tuples] [write MB/s] [repetitions]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -ntp -q install -DskipTests -pl :asterix-adapter -am >/dev/null
cd integrations/asterix-adapter
../../mvnw -B -ntp -q test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath >/dev/null
exec java -Xmx2g -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
  org.strata.asterix.HyracksPeerRun "$@"

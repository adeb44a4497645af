#!/usr/bin/env bash
# Write amplification of the LSA- and IAM-trees against LevelDB-style partitioned leveling on a
# hash load (unique keys in random order, 1 KB values), at a scale s of the paper's "100 GB"
# experiment (Gong et al., ICPP 2019; docs/papers/iam.md#scaling): node size and memory
# component C_t = 128MB*s, data 100GB*s, cache M = 16GB*s, t = 10; the baseline's files are
# 64MB*s and its level 1 640MB*s. Prints, per configuration, the engine's write amplification
# (flush + merge bytes over user bytes; the log is not counted) and the bytes written into each
# level over user bytes, from the store's byte counters (`strata stats --json`, `bytes`): flush =
# flushDataBytes + flushIndexBytes, the memory component's flush, which for lsa/iam is cut at the
# level-1 nodes and so is the paper's level-1 write; Li = mergeBytesByLevel of level i (tree
# level i for lsa/iam). Moves write nothing and appear nowhere. `strata reproduce iam` runs the
# same loads in-process.
#
# Usage: scripts/bench-iam-wa.sh   (after ./mvnw -B -ntp package -DskipTests)
# Scale: RECORDS=100000 NODE=128KB CACHE=16MB FILE=64KB LEVEL1=640KB (the defaults: s = 1/1024)
# CONFIGS: a subset of lsa iam-auto-M iam-auto-half-M iam-mM-kK partitioned-leveling; ORDER=sequential
# for an ordered load.
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-100000}
NODE=${NODE:-128KB}
CACHE=${CACHE:-16MB}
FILE=${FILE:-64KB}
LEVEL1=${LEVEL1:-640KB}
ORDER=${ORDER:-random}
WORK=${WORK:-target/bench-iam-wa}
rm -rf "$WORK"
mkdir -p "$WORK"

run() { # name, policy, parameters (JSON object body)
  local name=$1 policy=$2 params=$3
  cat > "$WORK/$name.json" <<JSON
{"merge-policy": {"name": "$policy", "parameters": {$params}},
 "memory-component": {"size": "$NODE", "count": 2}}
JSON
  bin/strata load --dir "$WORK/$name" --config "$WORK/$name.json" --records "$RECORDS" \
    --record-size 1000 --key-order "$ORDER" --seed 1 --durability none --batch-size 50 \
    --json > "$WORK/$name.load.json"
  local stats wa flush merged
  stats=$(bin/strata stats --dir "$WORK/$name" --json | tr -d ' \n')
  wa=$(sed 's/.*"writeAmplification":\([0-9.]*\).*/\1/' "$WORK/$name.load.json")
  flush=$(sed 's/.*"flushDataBytes":\([0-9]*\),"flushIndexBytes":\([0-9]*\).*/\1 \2/' <<<"$stats")
  merged=$(sed 's/.*"mergeBytesByLevel":{\([^}]*\)}.*/\1/' <<<"$stats" | tr -d '"')
  awk -v name="$name" -v wa="$wa" -v flush="$flush" -v merged="$merged" \
    -v user="$(sed 's/.*"bytes":{"userBytes":\([0-9]*\).*/\1/' <<<"$stats")" \
    -v tree="$([[ $policy == lsa || $policy == iam ]] && echo 1 || echo 0)" 'BEGIN {
      split(flush, f, " "); b["flush"] = f[1] + f[2]
      n = split(merged, parts, ",")
      for (i = 1; i <= n; i++) {
        if (split(parts[i], kv, ":") < 2) continue
        lv = kv[1] + 0; if (tree) lv = int(lv / 64); b["L" lv] += kv[2] }
      line = sprintf("%-22s WA %.2f  flush %.2f  ", name, wa, b["flush"] / user)
      for (l = 0; l < 64; l++) if (("L" l) in b) line = line sprintf("L%d %.2f  ", l, b["L" l] / user)
      print line }'
}

CONFIGS=${CONFIGS:-"lsa iam-auto-M iam-auto-half-M iam-m3-k1 iam-m3-k2 iam-m3-k3 partitioned-leveling"}
TREE="\"node-size\": \"$NODE\", \"fanout\": \"10\""
for c in $CONFIGS; do
  case $c in
    lsa) run lsa lsa "$TREE" ;;
    iam-auto-M) run "$c" iam "$TREE, \"cache-size\": \"$CACHE\"" ;;
    iam-auto-half-M) run "$c" iam "$TREE, \"cache-size\": \"$CACHE\", \"cache-share\": \"0.5\"" ;;
    iam-m*-k*) m=${c#iam-m}; m=${m%%-*}; k=${c##*-k}
      run "$c" iam "$TREE, \"mixed-level\": \"$m\", \"max-sequences\": \"$k\"" ;;
    partitioned-leveling) run "$c" partitioned-leveling \
      "\"file-size\": \"$FILE\", \"level1-size\": \"$LEVEL1\", \"size-ratio\": \"10\"" ;;
    *) echo "unknown configuration $c" >&2; exit 2 ;;
  esac
done

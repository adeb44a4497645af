#!/usr/bin/env bash
# Ingest throughput of a dataset with 0, 1 and 2 secondary indexes under eager and lazy
# maintenance (docs/performance.md, "Datasets"). Each configuration loads RECORDS records of 1 KB
# in random key order, then times UPDATES upserts of uniformly random existing keys, whose
# secondary values (field1, field2) change; eager maintenance turns each into a point lookup plus
# anti-matter and inserts, lazy into inserts only.
#
# Usage: scripts/bench-dataset-ingest.sh   (after ./mvnw -B -ntp package -DskipTests)
# Scale: RECORDS=100000 UPDATES=100000 THREADS="1 8" MEMORY=4MB CACHE=8MB (the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-100000}
UPDATES=${UPDATES:-100000}
THREADS=${THREADS:-"1 8"}
MEMORY=${MEMORY:-4MB}
CACHE=${CACHE:-8MB}
WORK=${WORK:-target/bench-dataset-ingest}
rm -rf "$WORK"
mkdir -p "$WORK"
bin/strata gen-records --records "$RECORDS" --mode load --seed 1 --out "$WORK/load.jsonl"
bin/strata gen-records --records "$UPDATES" --keys "$RECORDS" --mode update --seed 2 \
  --out "$WORK/update.jsonl"
printf '%-11s %-6s %-8s %14s %14s\n' secondaries mode threads "load rec/s" "update rec/s"
for sec in 0 1 2; do
  indexes='[]'
  [ "$sec" = 1 ] && indexes='[{"name": "by_field1", "field": "field1"}]'
  [ "$sec" = 2 ] && indexes='[{"name": "by_field1", "field": "field1"}, {"name": "by_field2", "field": "field2"}]'
  for mode in eager lazy; do
    for threads in $THREADS; do
      dir="$WORK/ds-$sec-$mode-$threads"
      cat > "$WORK/config.json" <<JSON
{"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
 "merge-scheduler": {"name": "fair"},
 "memory-component": {"size": "$MEMORY", "count": 2},
 "page-cache": {"size": "$CACHE"},
 "log": {"durability": "group"},
 "secondary-indexes": $indexes,
 "secondary-maintenance": "$mode"}
JSON
      load=$(bin/strata import --dir "$dir" --config "$WORK/config.json" \
        --file "$WORK/load.jsonl" --threads "$threads" --json)
      update=$(bin/strata import --dir "$dir" --file "$WORK/update.jsonl" \
        --threads "$threads" --json)
      rate() { sed -E 's/.*"recordsPerSecond":([0-9.]+).*/\1/' <<<"$1"; }
      printf '%-11s %-6s %-8s %14.0f %14.0f\n' "$sec" "$mode" "$threads" "$(rate "$load")" \
        "$(rate "$update")"
      rm -rf "$dir"
    done
  done
done

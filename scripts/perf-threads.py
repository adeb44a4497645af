#!/usr/bin/env python3
"""CPU per record by thread from a `perf record` of a load (docs/performance.md, "Where a record's
CPU goes"): counts the samples of each thread class, user and kernel apart, and prints them as
microseconds of CPU per record, one Markdown row per class.

Usage: scripts/perf-threads.py PERF_DATA strata|db_bench RECORDS [LOAD_SECONDS] [HZ]

PERF_DATA   a `perf record -F HZ` of `bin/strata compare ... --phases load` or of `db_bench`
RECORDS     records the load wrote (1000000 for examples/compare-native-load.json)
LOAD_SECONDS for strata: the load's own seconds (`load.seconds` in comparison.json); samples are
            counted from the writer's first sample for that long, so the read-back is left out
HZ          the sampling frequency given to perf record (default 999)

Thread classes: Strata's threads by the names the engine gives them (strata-load-*, strata-flush-*,
the merge scheduler's threads), the JVM's compiler (C1/C2) and collector (G1, GC) threads;
db_bench's main thread and RocksDB's high (flush) and low (compaction) pools.
"""
import collections
import re
import subprocess
import sys

LINE = re.compile(r'\s*(.+?)\s+(\d+)\s+([\d.]+):\s+\S+\s+\((.*)\)')


def thread_class(system, comm):
    if system == 'strata':
        if comm.startswith('strata-load'):
            return 'writer (the loader and the put)'
        if comm.startswith('strata-flush'):
            return 'flush'
        if 'merge' in comm or comm.startswith('strata-fair') or comm.startswith('strata-greedy'):
            return 'merges'
        if comm.startswith(('GC', 'G1')):
            return 'collector'
        if comm.startswith(('C1', 'C2')):
            return 'JIT compiler'
        return 'other (' + comm + ')'
    if comm == 'db_bench':
        return 'writer (the generator and the put)'
    if comm.startswith('rocksdb:high'):
        return 'flush'
    if comm.startswith('rocksdb:low'):
        return 'compactions'
    return 'other (' + comm + ')'


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ('strata', 'db_bench'):
        sys.exit('usage: perf-threads.py PERF_DATA strata|db_bench RECORDS [LOAD_SECONDS] [HZ]')
    data, system, records = sys.argv[1], sys.argv[2], int(sys.argv[3])
    load_seconds = float(sys.argv[4]) if len(sys.argv) > 4 else None
    hz = float(sys.argv[5]) if len(sys.argv) > 5 else 999.0
    if system == 'strata' and load_seconds is None:
        sys.exit('perf-threads.py: give LOAD_SECONDS for strata (load.seconds in comparison.json)')
    out = subprocess.run(['perf', 'script', '-i', data, '-F', 'comm,tid,time,ip,dso'],
                         capture_output=True, text=True, check=True).stdout
    samples = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            samples.append((m.group(1).strip(), float(m.group(3)), 'kernel' in m.group(4)))
    if system == 'strata':
        starts = [t for comm, t, _ in samples if comm.startswith('strata-load')]
        if not starts:
            sys.exit('perf-threads.py: no sample of a strata-load thread in ' + data)
        first = min(starts)
        samples = [s for s in samples if first <= s[1] <= first + load_seconds]
    counts = collections.defaultdict(lambda: [0, 0])
    for comm, _, kernel in samples:
        counts[thread_class(system, comm)][1 if kernel else 0] += 1
    per_record = 1e6 / hz / records  # microseconds of CPU per record, per sample
    print('| thread | user µs per record | kernel µs per record |')
    print('|---|---|---|')
    total = [0, 0]
    for name, (user, kernel) in sorted(counts.items(), key=lambda kv: -sum(kv[1])):
        total[0] += user
        total[1] += kernel
        print(f'| {name} | {user * per_record:.2f} | {kernel * per_record:.2f} |')
    print(f'| all threads | {total[0] * per_record:.2f} | {total[1] * per_record:.2f} |')


if __name__ == '__main__':
    main()

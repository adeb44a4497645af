#!/usr/bin/env python3
"""Logs the moments this machine stalls every process: a separate process that sleeps 2 ms in a
loop and prints each wake-up that comes more than THRESHOLD ms late, with the UTC time. Run it next
to a benchmark and compare its times with the benchmark's latency spikes (e.g. the seconds of
`arrival_lag_max_ms` in a compare run's timeseries.csv): a spike this probe also saw was a stall of
the whole machine, not of the engine or its JVM (docs/performance.md, "Write maxima above 10 ms").

Usage: scripts/machine-stalls.py SECONDS [THRESHOLD_MS]   (default threshold 5 ms)
Prints lines "HH:MM:SS.mmm late_ms", flushed as they happen.
"""
import sys
import time


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: machine-stalls.py SECONDS [THRESHOLD_MS]")
    try:
        seconds = float(sys.argv[1])
        threshold = float(sys.argv[2]) if len(sys.argv) == 3 else 5.0
    except ValueError:
        sys.exit("machine-stalls.py: SECONDS and THRESHOLD_MS must be numbers, e.g. 1800 5")
    if seconds <= 0 or threshold <= 0:
        sys.exit("machine-stalls.py: SECONDS and THRESHOLD_MS must be positive")
    period = 0.002
    end = time.monotonic() + seconds
    while True:
        before = time.monotonic()
        if before >= end:
            break
        time.sleep(period)
        late = (time.monotonic() - before - period) * 1000
        if late > threshold:
            now = time.time()
            stamp = time.strftime("%H:%M:%S", time.gmtime(now)) + ".%03d" % (now % 1 * 1000)
            print("%s %.1f" % (stamp, late), flush=True)


if __name__ == "__main__":
    main()

package org.strata.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What RocksDB's info log ({@code LOG} in the database directory) says about when its background
 * work ended. RocksDB writes one {@code EVENT_LOG_v1} line per flush and compaction event, a JSON
 * object whose {@code time_micros} is the system clock in microseconds since the epoch; the last
 * {@code flush_finished} or {@code compaction_finished} is when the last of that work ended. A
 * {@code db_bench} load that ends with {@code waitforcompaction} exits seconds later (the wait
 * sleeps before it looks again), so this is the end of its load as Strata's load ends at its last
 * flush or merge.
 */
final class RocksDbInfoLog {
  private static final Pattern EVENT = Pattern.compile(
      "EVENT_LOG_v1 \\{\"time_micros\": (\\d+),.*\"event\": \"(flush|compaction)_finished\"");

  private RocksDbInfoLog() {}

  /**
   * The {@code time_micros} of the last flush or compaction that finished, by the info log at
   * {@code log}; empty if the file does not exist or names no such event.
   */
  static OptionalLong lastBackgroundJobEndMicros(Path log) throws IOException {
    long last = Long.MIN_VALUE;
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
      String line;
      while ((line = r.readLine()) != null) {
        Matcher m = EVENT.matcher(line);
        if (m.find()) {
          last = Math.max(last, Long.parseLong(m.group(1)));
        }
      }
    } catch (NoSuchFileException e) {
      return OptionalLong.empty();
    }
    return last == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(last);
  }
}

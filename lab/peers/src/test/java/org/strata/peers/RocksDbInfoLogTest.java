package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The end of RocksDB's background work, read from the event lines of its info log. */
class RocksDbInfoLogTest {
  @Test
  void theLastFinishedFlushOrCompactionEndsTheWork(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("LOG");
    Files.write(log, List.of(
        "2026/11/30-00:39:54.153935 7342 RocksDB version: 7.8.3",
        "2026/11/30-00:39:54.2 7344 EVENT_LOG_v1 {\"time_micros\": 1000, \"job\": 2, \"event\":"
            + " \"flush_started\", \"num_memtables\": 1}",
        "2026/11/30-00:39:54.3 7344 EVENT_LOG_v1 {\"time_micros\": 2000, \"job\": 2, \"event\":"
            + " \"flush_finished\", \"output_compression\": \"NoCompression\"}",
        "2026/11/30-00:39:54.4 7344 EVENT_LOG_v1 {\"time_micros\": 5000, \"job\": 3, \"event\":"
            + " \"compaction_finished\", \"compaction_time_micros\": 900}",
        "2026/11/30-00:39:54.5 7344 EVENT_LOG_v1 {\"time_micros\": 4000, \"job\": 4, \"event\":"
            + " \"flush_finished\", \"lsm_state\": [1]}",
        "2026/11/30-00:39:54.6 7344 EVENT_LOG_v1 {\"time_micros\": 9000, \"job\": 5, \"event\":"
            + " \"table_file_deletion\", \"file_number\": 58}",
        "2026/11/30-00:39:54.7 7344 [db/db_impl.cc:1] an event_finished that is no event"));
    assertThat(RocksDbInfoLog.lastBackgroundJobEndMicros(log)).hasValue(5000);
  }

  @Test
  void aLogWithoutFinishedJobsOrNoLogGivesNothing(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("LOG");
    Files.write(log, List.of("2026/11/30-00:39:54.2 7344 EVENT_LOG_v1 {\"time_micros\": 1000,"
        + " \"job\": 2, \"event\": \"flush_started\"}"));
    assertThat(RocksDbInfoLog.lastBackgroundJobEndMicros(log)).isEqualTo(OptionalLong.empty());
    assertThat(RocksDbInfoLog.lastBackgroundJobEndMicros(dir.resolve("none")))
        .isEqualTo(OptionalLong.empty());
  }
}

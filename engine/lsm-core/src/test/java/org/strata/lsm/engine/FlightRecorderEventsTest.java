package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.StallCause;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.Durability;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.events.FlushEvent;
import org.strata.lsm.events.LogForceEvent;
import org.strata.lsm.events.MergeEvent;
import org.strata.lsm.events.RecoveryEvent;
import org.strata.lsm.events.SealEvent;
import org.strata.lsm.events.ThrottleWaitEvent;
import org.strata.lsm.events.WriteStallEvent;

/** The engine's JVM Flight Recorder events, read back from a real recording. */
class FlightRecorderEventsTest {
  private static List<RecordedEvent> record(Path file, Runnable work) throws Exception {
    try (Recording r = new Recording()) {
      r.enable(FlushEvent.NAME);
      r.enable(MergeEvent.NAME);
      r.enable(WriteStallEvent.NAME);
      r.enable(SealEvent.NAME);
      r.enable(ThrottleWaitEvent.NAME);
      r.enable(LogForceEvent.NAME);
      r.enable(RecoveryEvent.NAME);
      r.start();
      work.run();
      r.stop();
      r.dump(file);
    }
    return RecordingFile.readAllEvents(file);
  }

  private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }

  @Test
  void flushesAndMergesOfAStoreAreRecorded(@TempDir Path dir) throws Exception {
    Path store = dir.resolve("events-store");
    List<RecordedEvent> events = record(dir.resolve("flushes.jfr"), () -> {
      try (LsmStore s = LsmStore.open(store, LsmTreeModelTest.config(3, 1 << 20),
          StoreEnvironment.standard())) {
        byte[] value = new byte[100];
        for (int i = 0; i < 2000; i++) {
          s.put(String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII), value);
        }
        s.flush();
        s.compact();
      }
    });
    List<RecordedEvent> flushes = named(events, FlushEvent.NAME);
    assertThat(flushes).isNotEmpty();
    for (RecordedEvent f : flushes) {
      assertThat(f.getString("store")).isEqualTo("events-store");
      assertThat(f.getLong("componentId")).isPositive();
      assertThat(f.getInt("files")).isPositive();
      assertThat(f.getLong("bytes")).isPositive();
      assertThat(f.getLong("entries")).isPositive();
      assertThat(f.getEventType().getCategoryNames()).containsExactly("Strata");
    }
    assertThat(flushes.stream().mapToLong(f -> f.getLong("componentId")).distinct().count())
        .as("one event per flush").isEqualTo(flushes.size());
    List<RecordedEvent> merges = named(events, MergeEvent.NAME);
    assertThat(merges).isNotEmpty();
    RecordedEvent last = merges.get(merges.size() - 1);
    assertThat(last.getString("store")).isEqualTo("events-store");
    assertThat(last.getString("outcome")).isEqualTo("ok");
    assertThat(last.getInt("inputComponents")).isGreaterThanOrEqualTo(2);
    assertThat(last.getLong("outputBytes")).isPositive();
    assertThat(last.getInt("outputFiles")).isPositive();
    assertThat(last.getDuration()).isPositive();
  }

  @Test
  void aStallIsOneEventFromItsFirstWaitToTheNextAdmission(@TempDir Path dir) throws Exception {
    StallTracker stalls = new StallTracker("partition-3");
    List<RecordedEvent> events = record(dir.resolve("stalls.jfr"), () -> {
      stalls.waiting(StallCause.MEMORY_FULL, 0);
      stalls.waiting(StallCause.MEMORY_FULL, 5); // the same stall: a second writer waits
      stalls.waiting(StallCause.CONSTRAINT, 10); // the cause changed: a second stall
      stalls.end(20);
      stalls.end(30); // no stall open: nothing
    });
    List<RecordedEvent> recorded = named(events, WriteStallEvent.NAME);
    assertThat(recorded).extracting(e -> e.getString("cause"))
        .containsExactly("memoryFull", "constraint");
    assertThat(recorded).extracting(e -> e.getString("store")).containsOnly("partition-3");
  }

  @Test
  void sealsThrottleWaitsLogForcesAndRecoveriesAreRecorded(@TempDir Path dir) throws Exception {
    Path store = dir.resolve("io-store");
    StoreConfig c = LsmTreeModelTest.config(3, 1 << 20)
        .withIo(IoConfig.of(1 << 20, 1 << 20, 512)).withDurability(Durability.SYNC);
    List<RecordedEvent> events = record(dir.resolve("io.jfr"), () -> {
      try (LsmStore s = LsmStore.open(store, c, StoreEnvironment.standard())) {
        byte[] value = new byte[100];
        for (int i = 0; i < 600; i++) {
          s.put(String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII), value);
        }
        s.flush();
        s.compact();
      }
      try (LsmStore s = LsmStore.open(store, c, StoreEnvironment.standard())) {
        assertThat(s.get("key000007".getBytes(StandardCharsets.US_ASCII))).isNotNull();
      }
    });
    List<RecordedEvent> seals = named(events, SealEvent.NAME);
    assertThat(seals).as("a 4 KB memory component fills many times").hasSizeGreaterThan(3);
    assertThat(seals).allSatisfy(e -> {
      assertThat(e.getLong("entries")).isPositive();
      assertThat(e.getLong("bytes")).isPositive();
    });
    assertThat(seals).anySatisfy(e -> assertThat(e.getBoolean("full")).isTrue());
    assertThat(seals.stream().mapToLong(e -> e.getLong("memoryComponent")).distinct().count())
        .as("one event per sealed component").isEqualTo(seals.size());

    List<RecordedEvent> waits = named(events, ThrottleWaitEvent.NAME);
    assertThat(waits).as("merges and flushes over 1 MB/s wait").isNotEmpty();
    assertThat(waits).allSatisfy(e -> {
      assertThat(e.getLong("bytes")).isPositive();
      assertThat(e.getLong("bytesPerSecond")).isEqualTo(1 << 20);
      assertThat(e.getDuration()).isPositive();
    });

    List<RecordedEvent> forces = named(events, LogForceEvent.NAME);
    assertThat(forces).as("sync durability forces the log").isNotEmpty();
    assertThat(forces).allSatisfy(e -> assertThat(e.getLong("segmentBytes")).isPositive());

    List<RecordedEvent> recoveries = named(events, RecoveryEvent.NAME).stream()
        .sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime)).toList();
    assertThat(recoveries).extracting(e -> e.getString("store"))
        .containsExactly("io-store", "io-store");
    assertThat(recoveries.get(0).getLong("diskComponents")).as("a new store").isZero();
    assertThat(recoveries.get(1).getLong("diskComponents")).isPositive();
  }
}

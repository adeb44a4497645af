package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;

/**
 * The write-ahead log's append buffer: write-outs alternate between two buffers instead of
 * allocating a new one each time, and no record is lost or mixed up across the switches.
 */
class WriteAheadLogBufferTest {
  @TempDir Path dir;

  private WriteAheadLog open(Durability durability, List<String> seen) {
    return WriteAheadLog.open(dir, durability, 10, FileIo.standard(),
        LogRecoveryMode.ABSOLUTE_CONSISTENCY, 0,
        (lsn, op) -> seen.add(lsn + ":" + new String(op.key(), StandardCharsets.UTF_8) + "="
            + op.value().length + ":" + (op.value().length == 0 ? 0 : op.value()[0])));
  }

  @Test
  void writeOutsAllocateNoNewBuffer() {
    List<List<LogOp>> records = new ArrayList<>();
    byte[] value = new byte[1000];
    for (int i = 0; i < 4000; i++) {
      records.add(List.of(new LogOp(("k" + i).getBytes(StandardCharsets.UTF_8), value)));
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    try (WriteAheadLog wal = open(Durability.NONE, new ArrayList<>())) {
      for (List<LogOp> r : records) { // both buffers grow to their working size here
        wal.append(r);
        wal.writeOutIfLarge();
      }
      long before = threads.getThreadAllocatedBytes(id);
      for (List<LogOp> r : records) { // about 4 MB: four write-outs of 1 MB
        wal.append(r);
        wal.writeOutIfLarge();
      }
      long perAppend = (threads.getThreadAllocatedBytes(id) - before) / records.size();
      // A new buffer per write-out (1 MB or more each 1 MB appended) is >= 1,000 bytes an append.
      assertThat(perAppend).as("bytes allocated per append of a 1 KB record").isLessThan(100);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void everyRecordIsReplayedInOrderAcrossWriteOutsSyncsAndRolls(long seed) {
    System.out.println("WriteAheadLogBufferTest seed " + seed);
    SplittableRandom r = new SplittableRandom(seed);
    List<String> expected = new ArrayList<>();
    try (WriteAheadLog wal = open(Durability.NONE, new ArrayList<>())) {
      long lsn = 0;
      for (int i = 0; i < 3000; i++) {
        // mostly small and 1 KB records, a few of 5 MB (larger than a kept buffer)
        int size = r.nextInt(200) == 0 ? 5 << 20 : r.nextBoolean() ? r.nextInt(100) : 1000;
        byte[] value = new byte[size];
        if (size > 0) {
          value[0] = (byte) i;
        }
        lsn = wal.append(List.of(new LogOp(("k" + i).getBytes(StandardCharsets.UTF_8), value)));
        expected.add(lsn + ":k" + i + "=" + size + ":" + (size == 0 ? 0 : (byte) i));
        switch (r.nextInt(50)) {
          case 0 -> wal.sync(lsn);
          case 1 -> wal.roll();
          default -> wal.writeOutIfLarge();
        }
      }
    }
    List<String> seen = new ArrayList<>();
    open(Durability.NONE, seen).close();
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void concurrentAppendsDuringWriteOutsAreReplayedIntact() throws Exception {
    int writers = 2;
    int perWriter = 20_000;
    byte[][] values = new byte[writers][];
    for (int w = 0; w < writers; w++) {
      values[w] = new byte[300];
      java.util.Arrays.fill(values[w], (byte) ('a' + w));
    }
    try (WriteAheadLog wal = open(Durability.NONE, new ArrayList<>())) {
      List<Thread> threads = new ArrayList<>();
      java.util.concurrent.atomic.AtomicReference<Throwable> error =
          new java.util.concurrent.atomic.AtomicReference<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        threads.add(new Thread(() -> {
          try {
            for (int i = 0; i < perWriter; i++) {
              long lsn = wal.append(List.of(new LogOp(("w" + writer + "-" + i)
                  .getBytes(StandardCharsets.UTF_8), values[writer])));
              if (i % 7 == writer) {
                wal.sync(lsn); // write-outs while the other writer appends
              } else {
                wal.writeOutIfLarge();
              }
            }
          } catch (Throwable t) {
            error.compareAndSet(null, t);
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(error.get()).isNull();
    }
    List<String> seen = new ArrayList<>();
    open(Durability.NONE, seen).close(); // ABSOLUTE_CONSISTENCY: a torn record fails the open
    assertThat(seen).hasSize(writers * perWriter);
    int[] next = new int[writers];
    for (String s : seen) {
      String key = s.substring(s.indexOf(':') + 1, s.indexOf('='));
      int writer = key.charAt(1) - '0';
      assertThat(key).isEqualTo("w" + writer + "-" + next[writer]++);
      assertThat(s).endsWith("=300:" + (byte) ('a' + writer));
    }
  }
}

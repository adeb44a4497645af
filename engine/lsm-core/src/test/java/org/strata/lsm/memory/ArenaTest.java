package org.strata.lsm.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The arena: alignment, exact byte counts, chunk growth, own chunks, concurrent allocation. */
class ArenaTest {

  @Test
  void allocationsAreAlignedAndCountedExactly() {
    Arena a = new Arena();
    assertThat(a.sizeBytes()).isZero();
    long first = a.allocate(1);
    long second = a.allocate(9);
    long third = a.allocate(16);
    assertThat(Arena.offset(first)).isZero();
    assertThat(Arena.offset(second)).isEqualTo(8);
    assertThat(Arena.offset(third)).isEqualTo(24);
    assertThat(a.sizeBytes()).isEqualTo(8 + 16 + 16);
  }

  @Test
  void anUnalignedArenaPacksItsAllocations() {
    Arena a = new Arena(false);
    long first = a.allocate(1);
    long second = a.allocate(9);
    long third = a.allocate(16);
    assertThat(Arena.offset(first)).isZero();
    assertThat(Arena.offset(second)).isEqualTo(1);
    assertThat(Arena.offset(third)).isEqualTo(10);
    assertThat(a.sizeBytes()).isEqualTo(1 + 9 + 16);
  }

  @Test
  void refusesNonPositiveSizes() {
    Arena a = new Arena();
    assertThatThrownBy(() -> a.allocate(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 bytes").hasMessageContaining("1 to");
    assertThatThrownBy(() -> a.allocate(-5)).isInstanceOf(IllegalArgumentException.class);
    assertThat(a.sizeBytes()).isZero();
  }

  @Test
  void chunksGrowAndARetiredTailStaysCounted() {
    Arena a = new Arena();
    long x = a.allocate(Arena.FIRST_CHUNK - 64); // first chunk nearly full
    long y = a.allocate(1024); // does not fit: the next chunk (twice as large) opens
    assertThat(a.chunk(x).length).isEqualTo(Arena.FIRST_CHUNK);
    assertThat(a.chunk(y).length).isEqualTo(2 * Arena.FIRST_CHUNK);
    assertThat(Arena.offset(y)).isZero();
    assertThat(a.sizeBytes()).isEqualTo(Arena.FIRST_CHUNK + 1024);
  }

  @Test
  void chunkSizeStopsAtTheMaximum() {
    Arena a = new Arena();
    long last = 0;
    for (int i = 0; i < 4000; i++) {
      last = a.allocate(1000);
    }
    assertThat(a.chunk(last).length).isEqualTo(Arena.MAX_CHUNK);
    // 4000 allocations of 1000 bytes (1000 aligned): chunks of 8, 16, 32, 64, 128 and 256 KiB
    // hold 8 + 16 + 32 + 65 + 131 + 262 = 514 of them, then chunks of MAX_CHUNK the other 3486
    int perChunk = Arena.MAX_CHUNK / 1000;
    int expected = 6 + (3486 + perChunk - 1) / perChunk;
    assertThat(a.chunkCount()).isEqualTo(expected);
  }

  /**
   * Under G1 the largest chunk fills one region less the header slack (a humongous object of one
   * region: never copied by a young collection); elsewhere it is 256 KiB.
   */
  @Test
  void theLargestChunkFitsOneG1Region() {
    HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(
        HotSpotDiagnosticMXBean.class);
    if ("true".equals(vm.getVMOption("UseG1GC").getValue())) {
      long region = Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
      assertThat((long) Arena.MAX_CHUNK).isEqualTo(region - Arena.ARRAY_HEADER_SLACK);
      assertThat((long) Arena.MAX_CHUNK).isGreaterThanOrEqualTo(region / 2);
    } else {
      assertThat(Arena.MAX_CHUNK).isEqualTo(Arena.OTHER_MAX_CHUNK);
    }
  }

  @Test
  void aLargeAllocationGetsItsOwnChunkAndLeavesTheCurrentOne() {
    Arena a = new Arena();
    long small = a.allocate(100);
    long large = a.allocate(Arena.MAX_CHUNK * 3 + 5);
    long after = a.allocate(100);
    assertThat(a.chunk(large).length).isEqualTo(Arena.MAX_CHUNK * 3 + 8);
    assertThat(Arena.offset(large)).isZero();
    assertThat(a.chunk(after)).isSameAs(a.chunk(small));
    assertThat(Arena.offset(after)).isEqualTo(104);
    assertThat(a.sizeBytes()).isEqualTo(104 + Arena.MAX_CHUNK * 3 + 8 + 104);
    assertThat(a.chunkCount()).isEqualTo(2);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {7L, 1234L})
  void concurrentAllocationsNeverOverlap(long seed) throws Exception {
    System.out.println("ArenaTest seed " + seed);
    Arena a = new Arena();
    int threads = 4;
    int perThread = 20_000;
    long[][] addresses = new long[threads][perThread];
    int[][] sizes = new int[threads][perThread];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      SplittableRandom r = new SplittableRandom(seed + t);
      ts.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perThread; i++) {
            int size = r.nextInt(100) == 0 ? 1 + r.nextInt(600_000) : 1 + r.nextInt(300);
            long addr = a.allocate(size);
            byte[] chunk = a.chunk(addr);
            for (int j = 0; j < size; j++) {
              chunk[Arena.offset(addr) + j] = (byte) (id * 61 + i);
            }
            addresses[id][i] = addr;
            sizes[id][i] = size;
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    ts.forEach(Thread::start);
    start.countDown();
    for (Thread t : ts) {
      t.join();
    }
    assertThat(failure.get()).isNull();
    long total = 0;
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < perThread; i++) {
        long addr = addresses[t][i];
        assertThat(addr & 7).as("aligned").isZero();
        byte[] chunk = a.chunk(addr);
        for (int j = 0; j < sizes[t][i]; j++) {
          if (chunk[Arena.offset(addr) + j] != (byte) (t * 61 + i)) {
            throw new AssertionError("seed " + seed + ": allocation " + i + " of thread " + t
                + " was overwritten by another");
          }
        }
        total += (sizes[t][i] + 7) & -8;
      }
    }
    assertThat(a.sizeBytes()).as("allocated bytes plus retired tails")
        .isGreaterThanOrEqualTo(total)
        .isLessThanOrEqualTo(total + (long) a.chunkCount() * Arena.MAX_CHUNK / 4);
  }
}

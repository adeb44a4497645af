package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.testing.PowerLossFileIo;
import org.strata.lsm.testing.TestStores;

/**
 * {@code LsmStore.sync()} means, whatever the durability, that every write that returned before it
 * survives a machine crash (docs/configuration.md). Here the crash comes after a seal, a later
 * write and a sync, while the sealed memory component's flush has written its files but is not yet
 * in the manifest (held at {@code flush-before-manifest}): the store is copied with only its forced
 * bytes ({@link PowerLossFileIo}) and reopened. Under {@code none} the seal's segment was closed
 * unforced and the sync forced only the new one, so the writes before the seal were lost. (Under
 * {@code unlogged} the sync flushes, so it waits for the held flush: {@code UnloggedStoreTest}.)
 */
class StorePowerLossTest {
  @TempDir Path tmp;

  private static String key(int i) {
    return String.format("key%05d", i);
  }

  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"SYNC", "GROUP", "NONE"})
  void everyWriteBeforeASyncSurvivesAPowerLossDuringAFlush(Durability durability)
      throws Exception {
    Path dir = tmp.resolve("store");
    Path image = tmp.resolve("image");
    PowerLossFileIo io = new PowerLossFileIo();
    AtomicBoolean sealed = new AtomicBoolean();
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean first = new AtomicBoolean(true);
    StoreEnvironment env = new StoreEnvironment(Clock.system(), io).withCrashPoints(point -> {
      if (point == CrashPoint.LOG_ROTATION) {
        sealed.set(true); // on the writer that sealed, inside its put
      } else if (point == CrashPoint.FLUSH_BEFORE_MANIFEST && first.compareAndSet(true, false)) {
        reached.countDown();
        try {
          release.await(60, TimeUnit.SECONDS); // bounded: the test releases it right away
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    StoreConfig config = TestStores.smallConfig(100).withDurability(durability);
    int written = 0;
    try (LsmStore store = LsmStore.open(dir, config, env)) {
      try {
        // Fill the 64 KB memory component until a put seals it.
        while (!sealed.get() && written < 100_000) {
          store.put(b(key(written)), b("value-" + written + "-" + "x".repeat(100)));
          written++;
        }
        assertThat(sealed.get()).as("a put sealed the memory component").isTrue();
        store.put(b(key(written)), b("after the seal"));
        written++;
        store.sync();
        assertThat(reached.await(60, TimeUnit.SECONDS))
            .as("the sealed component's flush reached flush-before-manifest").isTrue();
        io.image(dir, image);
      } finally {
        release.countDown();
      }
    }
    try (LsmStore recovered = LsmStore.open(image, config)) {
      for (int i = 0; i < written; i++) {
        Optional<byte[]> v = recovered.get(b(key(i)));
        assertThat(v).as("%s, written before the sync", key(i)).isPresent();
        if (i < written - 1) {
          assertThat(s(v.get())).startsWith("value-" + i + "-");
        }
      }
    }
  }
}

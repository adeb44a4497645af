package org.strata.policy.iam;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;

/**
 * The child JVM of {@link AppendMergeCrashTest}: writes records 0, 1, 2, ... under keys in a
 * scattered (hash-like) order in synced batches and prints {@code acked N} after each batch, until
 * it is killed. Arguments: directory, policy name, parameters as {@code k=v,k=v}, first record.
 */
public final class AppendMergeCrashChild {
  static final int BATCH = 40;
  static final int VALUE_BYTES = 200;

  private AppendMergeCrashChild() {}

  /** A key per record id, scattered over the key space (a bijection of the low 32 bits). */
  static String key(long id) {
    long x = (id * 0x9E3779B1L) & 0xffffffffL;
    return String.format("k%08x", x);
  }

  /** The value of a record. */
  static byte[] value(long id) {
    StringBuilder s = new StringBuilder("v").append(id).append('-');
    while (s.length() < VALUE_BYTES) {
      s.append((char) ('a' + (id + s.length()) % 26));
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  static StoreConfig config(String policy, String params) {
    return StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin(policy, AppendMergeTreeEngineTest.params(params)))
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(24 * 1024, 2))
        .withDurability(Durability.SYNC).withIo(IoConfig.of(0, 1 << 20, 1024));
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long id = Long.parseLong(args[3]);
    try (LsmStore s = LsmStore.open(dir, config(args[1], args[2]))) {
      while (true) {
        WriteBatch b = new WriteBatch();
        for (int i = 0; i < BATCH; i++) {
          b.put(key(id + i).getBytes(StandardCharsets.UTF_8), value(id + i));
        }
        s.write(b);
        s.sync();
        id += BATCH;
        System.out.println("acked " + id);
        System.out.flush();
      }
    }
  }
}

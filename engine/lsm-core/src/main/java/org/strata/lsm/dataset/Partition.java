package org.strata.lsm.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.Utf8;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.LsmTree;
import org.strata.lsm.engine.TreeGroup;
import org.strata.lsm.io.IoThrottle;

/**
 * One hash partition of a dataset: a {@link TreeGroup} whose tree 0 is the primary index and tree
 * {@code i + 1} the {@code i}-th secondary index, and the write paths of both maintenance
 * strategies. Under {@code eager}, writes of one key are serialized by a striped key lock, so the
 * old record a write looks up is the one its anti-matter cleans.
 */
final class Partition implements AutoCloseable {
  private static final byte[] EMPTY = new byte[0];
  private static final int LOCK_STRIPES = 1024;

  private final DatasetConfig config;
  private final TreeGroup group;
  private final ReentrantLock[] keyLocks;

  private Partition(DatasetConfig config, TreeGroup group) {
    this.config = config;
    this.group = group;
    this.keyLocks = new ReentrantLock[config.maintenance() == SecondaryMaintenance.EAGER
        ? LOCK_STRIPES : 0];
    for (int i = 0; i < keyLocks.length; i++) {
      keyLocks[i] = new ReentrantLock();
    }
  }

  /**
   * Recovers partition {@code dir} with the dataset's configuration and shared throttle: its trees
   * open and its log replays, but nothing is written and nothing runs until {@link #start()}
   * (see {@link TreeGroup#recover}).
   */
  static Partition recover(Path dir, DatasetConfig config, StoreConfig treeConfig,
      long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env, Path savedConfig) {
    List<TreeGroup.Member> members = new ArrayList<>();
    members.add(new TreeGroup.Member(SecondaryIndexSpec.PRIMARY, treeConfig));
    for (SecondaryIndexSpec s : config.secondaryIndexes()) {
      members.add(new TreeGroup.Member(s.name(), treeConfig));
    }
    return new Partition(config, TreeGroup.recover(dir, members, memoryBudget, logSettings,
        throttle, env, savedConfig));
  }

  /** Starts the recovered partition; see {@link TreeGroup#start()}. */
  void start() {
    group.start();
  }

  LsmTree primary() {
    return group.tree(0);
  }

  /** The tree of secondary index number {@code i} (in configuration order). */
  LsmTree secondary(int i) {
    return group.tree(i + 1);
  }

  TreeGroup group() {
    return group;
  }

  Optional<Map<String, String>> get(byte[] key) {
    return primary().get(key).map(v -> decodeRecord(key, v));
  }

  /**
   * The fields of a stored record; a record that does not decode (it was stored by this codec, so
   * only damage can cause that) fails as corruption rather than as the caller's bad input.
   */
  Map<String, String> decodeRecord(byte[] key, byte[] value) {
    try {
      return RecordCodec.decode(value);
    } catch (IllegalArgumentException e) {
      throw new CorruptionException(primary().directory(), -1, "the stored record of primary key "
          + Arrays.toString(key) + " does not decode: " + e.getMessage());
    }
  }

  void upsert(byte[] key, Map<String, String> fields) {
    byte[] record = RecordCodec.encode(fields);
    if (config.maintenance() == SecondaryMaintenance.LAZY) {
      List<TreeGroup.Op> ops = new ArrayList<>(1 + config.secondaryIndexes().size());
      ops.add(new TreeGroup.Op(0, key, record));
      for (int i = 0; i < config.secondaryIndexes().size(); i++) {
        String v = fields.get(config.secondaryIndexes().get(i).field());
        if (v != null) {
          ops.add(new TreeGroup.Op(i + 1, entryKey(i, v, key), EMPTY));
        }
      }
      group.write(ops);
      return;
    }
    ReentrantLock l = lockFor(key);
    l.lock();
    try {
      Map<String, String> old = lookupOld(key);
      List<TreeGroup.Op> ops = new ArrayList<>(1 + 2 * config.secondaryIndexes().size());
      ops.add(new TreeGroup.Op(0, key, record));
      for (int i = 0; i < config.secondaryIndexes().size(); i++) {
        String field = config.secondaryIndexes().get(i).field();
        String oldValue = old == null ? null : old.get(field);
        String newValue = fields.get(field);
        if (old != null && Objects.equals(oldValue, newValue)) {
          continue; // the entry is already right
        }
        if (oldValue != null) {
          ops.add(new TreeGroup.Op(i + 1, entryKey(i, oldValue, key), null));
        }
        if (newValue != null) {
          ops.add(new TreeGroup.Op(i + 1, entryKey(i, newValue, key), EMPTY));
        }
      }
      group.write(ops);
    } finally {
      l.unlock();
    }
  }

  void delete(byte[] key) {
    if (config.maintenance() == SecondaryMaintenance.LAZY) {
      group.write(List.of(new TreeGroup.Op(0, key, null)));
      return;
    }
    ReentrantLock l = lockFor(key);
    l.lock();
    try {
      Map<String, String> old = lookupOld(key);
      List<TreeGroup.Op> ops = new ArrayList<>(1 + config.secondaryIndexes().size());
      ops.add(new TreeGroup.Op(0, key, null));
      if (old != null) {
        for (int i = 0; i < config.secondaryIndexes().size(); i++) {
          String oldValue = old.get(config.secondaryIndexes().get(i).field());
          if (oldValue != null) {
            ops.add(new TreeGroup.Op(i + 1, entryKey(i, oldValue, key), null));
          }
        }
      }
      group.write(ops);
    } finally {
      l.unlock();
    }
  }

  /** The entry of secondary index {@code i} for field value {@code value} of record {@code key}. */
  private byte[] entryKey(int i, String value, byte[] key) {
    String field = config.secondaryIndexes().get(i).field();
    return SecondaryKey.encode(Utf8.encode(value, "value of field", field), key);
  }

  /** Eager maintenance's point lookup; skipped when there is no secondary index to clean. */
  private Map<String, String> lookupOld(byte[] key) {
    if (config.secondaryIndexes().isEmpty()) {
      return null;
    }
    return get(key).orElse(null);
  }

  private ReentrantLock lockFor(byte[] key) {
    return keyLocks[(int) Math.floorMod(KeyHash.hash64(key), (long) LOCK_STRIPES)];
  }

  @Override
  public void close() {
    group.close();
  }
}

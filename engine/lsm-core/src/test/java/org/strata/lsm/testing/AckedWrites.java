package org.strata.lsm.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;

/**
 * A model of what a store may hold after writes some of which failed: for every key written, the
 * values it may have. An acknowledged write leaves exactly its value allowed (a delete: absence);
 * a write that failed adds its value to those allowed, since it may or may not have reached the
 * log. {@link #check} reads every key and scans the store: every key has an allowed value and no
 * key is present that was never written. Not thread-safe.
 */
public final class AckedWrites {
  /** Stands for "absent" among the allowed values. */
  private static final String ABSENT = "\u0000absent";

  private final Map<String, Set<String>> allowed = new TreeMap<>();
  private long acked;

  /** {@code key} was set to {@code value} (null: deleted) and the store acknowledged it. */
  public void acked(String key, String value) {
    Set<String> s = new HashSet<>();
    s.add(value == null ? ABSENT : value);
    allowed.put(key, s);
    acked++;
  }

  /** A write of {@code key} (null value: a delete) failed: it may or may not have happened. */
  public void uncertain(String key, String value) {
    allowed.computeIfAbsent(key, k -> {
      Set<String> s = new HashSet<>();
      s.add(ABSENT);
      return s;
    }).add(value == null ? ABSENT : value);
  }

  /** Acknowledged writes so far. */
  public long ackedCount() {
    return acked;
  }

  /**
   * Checks {@code store} against the model: each key's value (through {@code get}) is allowed and
   * a scan of the whole store yields only written keys, with allowed values.
   */
  public void check(LsmStore store, String context) {
    for (Map.Entry<String, Set<String>> e : allowed.entrySet()) {
      Optional<byte[]> v = store.get(e.getKey().getBytes(StandardCharsets.UTF_8));
      String got = v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse(ABSENT);
      assertThat(e.getValue()).as("%s: value of %s (allowed %s)", context, e.getKey(),
          e.getValue()).contains(got);
    }
    try (ScanCursor c = store.scan(null, null)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        String k = new String(kv.key(), StandardCharsets.UTF_8);
        assertThat(allowed).as("%s: scan found %s, never written", context, k).containsKey(k);
        assertThat(allowed.get(k)).as("%s: scanned value of %s", context, k)
            .contains(new String(kv.value(), StandardCharsets.UTF_8));
      }
    }
  }
}

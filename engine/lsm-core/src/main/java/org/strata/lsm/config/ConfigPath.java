package org.strata.lsm.config;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Configuration keys as dotted paths ({@code log.durability}, {@code secondary-indexes[].field}):
 * made from Jackson's path of property names and array indexes, and joined with the key an error
 * names. An array element is written {@code []}, whatever its index, as the keys are documented.
 */
final class ConfigPath {
  private ConfigPath() {}

  /** The dotted key of a Jackson error path. */
  static String of(List<JsonMappingException.Reference> path) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : path) {
      if (r.getFieldName() != null) {
        b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append("[]");
      }
    }
    return b.toString();
  }

  /** {@code parent.child}, or either alone when the other is empty. */
  static String join(String parent, String child) {
    return parent.isEmpty() ? child : child.isEmpty() ? parent : parent + "." + child;
  }

  /**
   * The full key of an error raised at path {@code at} that names {@code key}. A configuration
   * record names its keys from its usual place ({@code memory-component.count}, or {@code name} for
   * a plug-in, which has no single place), so the two overlap where that place ends {@code at}:
   * {@code dataset.memory-component} and {@code memory-component.count} give {@code
   * dataset.memory-component.count}; {@code testing.merge-scheduler} and {@code name} give {@code
   * testing.merge-scheduler.name}. An element marker {@code []} does not prevent an overlap.
   */
  static String place(String at, String key) {
    if (at.isEmpty() || key.isEmpty()) {
      return at.isEmpty() ? key : at;
    }
    List<String> a = Arrays.asList(at.split("\\."));
    List<String> k = Arrays.asList(key.split("\\."));
    for (int n = Math.min(a.size(), k.size()); n > 0; n--) {
      if (sameKeys(a.subList(a.size() - n, a.size()), k.subList(0, n))) {
        List<String> out = new ArrayList<>(a);
        out.addAll(k.subList(n, k.size()));
        return String.join(".", out);
      }
    }
    return at + "." + key;
  }

  private static boolean sameKeys(List<String> a, List<String> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!bare(a.get(i)).equals(bare(b.get(i)))) {
        return false;
      }
    }
    return true;
  }

  private static String bare(String segment) {
    return segment.endsWith("[]") ? segment.substring(0, segment.length() - 2) : segment;
  }
}

package org.strata.lsm.component;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.strata.lsm.StrataException;

/**
 * Checks one component file end to end: footer, meta page, Bloom filter page, every leaf page's
 * checksum and key order (inside and across pages), every interior page's checksum and separator
 * keys, entry counts, key range, and that the Bloom filter answers yes for every key held. Faults
 * are returned as messages naming the file and the page offset; nothing is served from a bad page.
 */
public final class ComponentVerifier {
  private ComponentVerifier() {}

  /** Result of verifying one component. */
  public record Result(List<String> faults, long entries) {}

  /** Verifies {@code component} without using (or filling) the store's page cache. */
  public static Result verify(DiskComponent component) {
    List<String> faults = new ArrayList<>();
    String file = component.path().toString();
    ComponentMeta meta = component.meta();
    long entries = 0;
    long antimatter = 0;
    byte[] prev = null;
    List<byte[]> leafFirstKeys = new ArrayList<>();
    try (SequentialLeafScanner scan = component.sequentialScan()) {
      long pagesSeen = 0;
      while (scan.next()) {
        byte[] k = scan.key();
        if (scan.pagesRead() != pagesSeen) {
          pagesSeen = scan.pagesRead();
          leafFirstKeys.add(k);
        }
        if (prev != null && Arrays.compareUnsigned(prev, k) >= 0) {
          faults.add(file + ": leaf page " + pagesSeen + " (counting from 1): key order broken at"
              + " entry " + entries);
          break;
        }
        if (!component.bloomFilter().mightContain(KeyHash.hash64(k))) {
          faults.add(file + ": Bloom filter answers no for a key the component holds (entry "
              + entries + ")");
          break;
        }
        if (scan.isAntimatter()) {
          antimatter++;
        } else if (component.logSegment() != null) {
          scan.value(); // a CL-SSTable's value: the log operation it points at, checksum checked
        }
        prev = k;
        entries++;
      }
      if (faults.isEmpty()) {
        if (entries != meta.entryCount()) {
          faults.add(file + ": meta page says " + meta.entryCount() + " entries, leaves hold "
              + entries);
        }
        if (antimatter != meta.antimatterCount()) {
          faults.add(file + ": meta page says " + meta.antimatterCount()
              + " anti-matter entries, leaves hold " + antimatter);
        }
        if (scan.pagesRead() != meta.leafPageCount()) {
          faults.add(file + ": meta page says " + meta.leafPageCount() + " leaf pages, found "
              + scan.pagesRead());
        }
        if (!leafFirstKeys.isEmpty() && !Arrays.equals(leafFirstKeys.get(0), meta.minKey())) {
          faults.add(file + ": meta page's minimum key differs from the first key");
        }
        if (prev != null && !Arrays.equals(prev, meta.maxKey())) {
          faults.add(file + ": meta page's maximum key differs from the last key");
        }
      }
    } catch (StrataException e) {
      faults.add(e.getMessage());
    }
    if (faults.isEmpty()) {
      try {
        List<byte[]> reached = new ArrayList<>();
        checkTree(component, meta.rootOffset(), meta.rootLength(), meta.treeHeight(), null,
            reached, faults, file);
        if (faults.isEmpty() && reached.size() != leafFirstKeys.size()) {
          faults.add(file + ": the tree reaches " + reached.size() + " leaves, the file holds "
              + leafFirstKeys.size());
        }
      } catch (StrataException e) {
        faults.add(e.getMessage());
      }
    }
    return new Result(faults, entries);
  }

  private static void checkTree(DiskComponent c, long off, int len, int level, byte[] separator,
      List<byte[]> reached, List<String> faults, String file) {
    Page p = c.readUncached(off, len, level == 1 ? PageType.LEAF : PageType.INTERIOR);
    if (p.count() == 0) {
      faults.add(file + ": page at offset " + off + " is empty");
      return;
    }
    if (separator != null && p.compareKey(0, separator) != 0) {
      faults.add(file + ": page at offset " + off + " does not start with its separator key");
      return;
    }
    if (level == 1) {
      reached.add(p.key(0));
      return;
    }
    for (int i = 0; i < p.count(); i++) {
      if (i > 0 && p.compareKey(i, p.key(i - 1)) <= 0) {
        faults.add(file + ": interior page at offset " + off + ": separator keys out of order");
        return;
      }
      checkTree(c, p.childOffset(i), p.childLength(i), level - 1, p.key(i), reached, faults,
          file);
      if (!faults.isEmpty()) {
        return;
      }
    }
  }
}

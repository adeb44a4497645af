package org.strata.lsm.component;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * A range cursor over the B+-tree of a {@link DiskComponent} (see {@link
 * DiskComponent#cursor(byte[], byte[])}): descends to the first leaf at or after the lower bound,
 * then walks the leaves through the page cache, climbing to the next parent at the end of each
 * leaf, up to the upper bound. Used by one thread; holds no lock; the caller holds a reference
 * to the component for the cursor's lifetime.
 */
final class TreeCursor implements EntryCursor {
  private final DiskComponent component;
  private final byte[] to;
  private final ArrayDeque<int[]> pathIdx = new ArrayDeque<>();
  private final ArrayDeque<Page> pathPages = new ArrayDeque<>();
  private Page leaf;
  private int idx;
  private byte[] key;
  private byte[] value;
  private boolean done;

  /** A cursor over the keys of {@code component} in [{@code from}, {@code to}]. */
  TreeCursor(DiskComponent component, byte[] from, byte[] to) {
    this.component = component;
    this.to = to;
    if (to != null && Arrays.compareUnsigned(to, component.meta().minKey()) < 0
        || from != null && Arrays.compareUnsigned(from, component.meta().maxKey()) > 0) {
      done = true;
      return;
    }
    long off = component.meta().rootOffset();
    int len = component.meta().rootLength();
    for (int level = component.meta().treeHeight(); level > 1; level--) {
      Page p = component.page(off, len, PageType.INTERIOR);
      int i = from == null ? 0 : p.childIndexFor(from);
      pathPages.push(p);
      pathIdx.push(new int[] {i, level});
      off = p.childOffset(i);
      len = p.childLength(i);
    }
    leaf = component.page(off, len, PageType.LEAF);
    idx = (from == null ? 0 : leaf.lowerBound(from)) - 1;
  }

  @Override
  public boolean next() {
    if (done) {
      return false;
    }
    idx++;
    while (idx >= leaf.count()) {
      if (!advanceLeaf()) {
        done = true;
        key = null;
        value = null;
        return false;
      }
    }
    if (to != null && leaf.compareKey(idx, to) > 0) {
      done = true;
      return false;
    }
    key = leaf.key(idx);
    value = component.resolve(key, leaf.value(idx));
    return true;
  }

  private boolean advanceLeaf() {
    // Climb until a parent has a next child, then descend to its leftmost leaf.
    while (!pathPages.isEmpty()) {
      Page parent = pathPages.peek();
      int[] pos = pathIdx.peek();
      if (pos[0] + 1 < parent.count()) {
        pos[0]++;
        long off = parent.childOffset(pos[0]);
        int len = parent.childLength(pos[0]);
        int level = pos[1] - 1;
        while (level > 1) {
          Page p = component.page(off, len, PageType.INTERIOR);
          pathPages.push(p);
          pathIdx.push(new int[] {0, level});
          off = p.childOffset(0);
          len = p.childLength(0);
          level--;
        }
        leaf = component.page(off, len, PageType.LEAF);
        idx = 0;
        return true;
      }
      pathPages.pop();
      pathIdx.pop();
    }
    return false;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    return value;
  }
}

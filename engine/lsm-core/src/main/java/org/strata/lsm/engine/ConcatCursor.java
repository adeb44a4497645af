package org.strata.lsm.engine;

import java.util.List;
import java.util.function.Function;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;

/**
 * Reads the components of one run one after another; they have disjoint, ascending key ranges, so
 * the concatenation is sorted. Each component's cursor is opened only when reached.
 */
final class ConcatCursor implements EntryCursor {
  private final List<DiskComponent> components;
  private final Function<DiskComponent, EntryCursor> open;
  private int next;
  private EntryCursor current;

  ConcatCursor(List<DiskComponent> components, Function<DiskComponent, EntryCursor> open) {
    this.components = components;
    this.open = open;
  }

  @Override
  public boolean next() {
    while (true) {
      if (current != null && current.next()) {
        return true;
      }
      if (current != null) {
        current.close();
        current = null;
      }
      if (next >= components.size()) {
        return false;
      }
      current = open.apply(components.get(next++));
    }
  }

  @Override
  public byte[] key() {
    return current.key();
  }

  @Override
  public byte[] value() {
    return current.value();
  }

  @Override
  public boolean isAntimatter() {
    return current.isAntimatter();
  }

  @Override
  public byte[] valueArray() {
    return current.valueArray();
  }

  @Override
  public int valueOffset() {
    return current.valueOffset();
  }

  @Override
  public int valueLength() {
    return current.valueLength();
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
    }
  }
}

package org.strata.lsm.engine;

import org.strata.lsm.memory.MemoryComponent;

/**
 * The {@link LogHold} of a tree in a dataset partition: its {@link TreeGroup} holds the shared log
 * through the tree's memory component, truncates it below every tree's floor once the flush is
 * durable, and wakes the group's writers whenever a flush ends.
 */
final class GroupLogHold implements LogHold {
  private final TreeGroup group;

  GroupLogHold(TreeGroup group) {
    this.group = group;
  }

  @Override
  public void holdThrough(MemoryComponent mc) {
    group.holdLogThrough(mc.maxLsn());
  }

  @Override
  public void flushDurable(Manifest manifest) {
    group.flushed();
  }

  @Override
  public void flushFailed() {
    group.memberChanged();
  }
}

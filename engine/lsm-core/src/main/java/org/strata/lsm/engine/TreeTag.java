package org.strata.lsm.engine;

import java.util.Arrays;
import org.strata.lsm.wal.LogOp;

/**
 * How a dataset partition's shared log names the tree of each operation: the tree's number in the
 * {@link TreeGroup} is the first byte of the logged key (so a group has at most {@link
 * TreeGroup#MAX_TREES} trees). {@link TreeGroup#write} tags, {@link GroupRecovery} reads the tags
 * back. A store's own log holds untagged keys.
 */
final class TreeTag {
  private TreeTag() {}

  /** The logged form of an operation on tree {@code tree}. */
  static LogOp tagged(int tree, byte[] key, byte[] value) {
    byte[] k = new byte[key.length + 1];
    k[0] = (byte) tree;
    System.arraycopy(key, 0, k, 1, key.length);
    return new LogOp(k, value);
  }

  /** The number of the tree a logged operation is for. */
  static int tree(LogOp logged) {
    return logged.key()[0] & 0xFF;
  }

  /** The key of a logged operation in its tree. */
  static byte[] key(LogOp logged) {
    return Arrays.copyOfRange(logged.key(), 1, logged.key().length);
  }
}

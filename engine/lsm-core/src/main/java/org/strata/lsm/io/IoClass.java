package org.strata.lsm.io;

/**
 * Who a file step is for, as a {@link Device} orders its requests. A merge runs its work inside
 * {@link #runAs} (on whatever thread its scheduler gives it); the flush thread is an {@link
 * IoThread}; any other thread (a writer, a reader) is {@link #FOREGROUND}.
 */
public enum IoClass {
  /** A caller's own reads and writes: log appends and forces, point reads, scans, opens. */
  FOREGROUND,
  /** A flush writing a memory component. */
  FLUSH,
  /** A merge reading its inputs and writing its outputs: served after the others. */
  MERGE;

  // The class a thread runs as inside runAs: per-thread context, always restored on the way out
  // (never state shared between threads).
  private static final ThreadLocal<IoClass> RUNNING_AS = new ThreadLocal<>();

  /**
   * The class of the current thread: what it runs as inside {@link #runAs}, else an {@link
   * IoThread}'s, else {@link #FOREGROUND}.
   */
  public static IoClass current() {
    IoClass c = RUNNING_AS.get();
    if (c != null) {
      return c;
    }
    return Thread.currentThread() instanceof IoThread t ? t.ioClass() : FOREGROUND;
  }

  /** Runs {@code task} on this thread with its file steps in class {@code c}. */
  public static void runAs(IoClass c, Runnable task) {
    IoClass before = RUNNING_AS.get();
    RUNNING_AS.set(c);
    try {
      task.run();
    } finally {
      if (before == null) {
        RUNNING_AS.remove();
      } else {
        RUNNING_AS.set(before);
      }
    }
  }

  /** A file step that may fail, for {@link #callAs}. */
  @FunctionalInterface
  public interface IoCall<T> {
    T call() throws java.io.IOException;
  }

  /**
   * Calls {@code call} on this thread with its file steps in class {@code c}, as {@link #runAs}
   * does, passing its result and its {@code IOException} through.
   */
  public static <T> T callAs(IoClass c, IoCall<T> call) throws java.io.IOException {
    IoClass before = RUNNING_AS.get();
    RUNNING_AS.set(c);
    try {
      return call.call();
    } finally {
      if (before == null) {
        RUNNING_AS.remove();
      } else {
        RUNNING_AS.set(before);
      }
    }
  }

  /** Whether requests of this class go ahead of merges. */
  public boolean priority() {
    return this != MERGE;
  }
}

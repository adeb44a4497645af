package org.strata.lsm.io;

/**
 * A thread of the engine that says which {@link IoClass} its file steps belong to: flush threads
 * are {@link IoClass#FLUSH}, merge threads {@link IoClass#MERGE}. A {@link Device} serves merges
 * after everything else.
 */
public final class IoThread extends Thread {
  private final IoClass ioClass;

  /** A thread running {@code task} named {@code name} whose file steps are {@code ioClass}. */
  public IoThread(Runnable task, String name, IoClass ioClass) {
    super(task, name);
    this.ioClass = ioClass;
  }

  /** The class of this thread's file steps. */
  public IoClass ioClass() {
    return ioClass;
  }
}

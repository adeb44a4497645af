package org.strata.sim.des;

import org.strata.lsm.spi.IoOperation;

/**
 * A flush or merge in virtual time: it has a number of bytes to write and progresses at the share
 * of the simulated bandwidth that {@link VirtualIo} gives it while it is started and not paused.
 * Remaining input pages shrink in proportion to the bytes written, which is what the greedy
 * scheduler orders by. {@link #run()} is not used: virtual operations are started by a {@link
 * VirtualIo} runner.
 */
public final class DesOperation implements IoOperation {
  private final Kind kind;
  private final String indexName;
  private final double workBytes;
  private final long inputPages;
  private final double createdAt;
  private double remainingBytes;
  private boolean started;
  private boolean paused;
  private double startedAt = Double.NaN;
  private double completedAt = Double.NaN;

  /**
   * @param kind flush or merge
   * @param indexName the index it belongs to
   * @param workBytes bytes it writes (its output), positive
   * @param inputPages pages it reads, at least 1
   * @param createdAt virtual time of its creation, seconds
   */
  public DesOperation(Kind kind, String indexName, double workBytes, long inputPages,
      double createdAt) {
    if (!(workBytes > 0)) {
      throw new IllegalArgumentException("an operation must write a positive number of bytes");
    }
    this.kind = kind;
    this.indexName = indexName;
    this.workBytes = workBytes;
    this.inputPages = Math.max(1, inputPages);
    this.remainingBytes = workBytes;
    this.createdAt = createdAt;
  }

  @Override
  public Kind kind() {
    return kind;
  }

  @Override
  public String indexName() {
    return indexName;
  }

  @Override
  public long totalInputPages() {
    return inputPages;
  }

  @Override
  public long remainingInputPages() {
    return (long) Math.ceil(inputPages * (remainingBytes / workBytes) - 1e-9);
  }

  /** Refused: a virtual operation progresses in virtual time once a {@link VirtualIo} starts it. */
  @Override
  public void run() {
    throw new UnsupportedOperationException(
        "a simulated operation progresses in virtual time; start it through VirtualIo");
  }

  @Override
  public void pause() {
    paused = true;
  }

  @Override
  public void resume() {
    paused = false;
  }

  /** Bytes the operation writes in total. */
  public double workBytes() {
    return workBytes;
  }

  /** Bytes still to write. */
  public double remainingBytes() {
    return remainingBytes;
  }

  /** Whether it has been started and is not paused (so it receives bandwidth). */
  public boolean progressing() {
    return started && !paused && !(completedAt >= 0);
  }

  /** Whether a scheduler has paused it. */
  public boolean paused() {
    return paused;
  }

  /** Virtual time of creation. */
  public double createdAt() {
    return createdAt;
  }

  /** Virtual time it was started, NaN before. */
  public double startedAt() {
    return startedAt;
  }

  /** Virtual time it completed, NaN before. */
  public double completedAt() {
    return completedAt;
  }

  void markStarted(double now) {
    started = true;
    startedAt = now;
  }

  void progress(double bytes) {
    remainingBytes = Math.max(0, remainingBytes - bytes);
  }

  void markCompleted(double now) {
    remainingBytes = 0;
    completedAt = now;
  }
}

package org.strata.lsm.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;
import org.strata.lsm.spi.Parameters;

/**
 * Test scheduler {@code test-recording}: appends one line per merge it is given ({@code <index>
 * <kind>}) to the file named by parameter {@code record-to}, at the moment the engine schedules
 * it, and never runs it (as {@link ParkedScheduler}). A test sees from that file, without timing,
 * whether and when an index started merging.
 */
public final class RecordingScheduler implements MergeScheduler {
  private final Path recordTo;

  RecordingScheduler(Path recordTo) {
    this.recordTo = recordTo;
  }

  @Override
  public void schedule(IoOperation op) {
    try {
      Files.writeString(recordTo, op.indexName() + " " + op.kind() + "\n", StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void completed(IoOperation op) {}

  @Override
  public void close() {}

  /** The factory. */
  public static final class Factory implements MergeSchedulerFactory {
    @Override
    public String name() {
      return "test-recording";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of("record-to");
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters) {
      Parameters.of("merge-scheduler 'test-recording'", parameters, parameterNames());
      String to = parameters.get("record-to");
      if (to == null) {
        throw new IllegalArgumentException("merge-scheduler 'test-recording' needs record-to");
      }
      return new RecordingScheduler(Path.of(to));
    }
  }
}

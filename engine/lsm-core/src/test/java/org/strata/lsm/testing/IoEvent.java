package org.strata.lsm.testing;

import java.nio.file.Path;

/**
 * One file-system step a {@link FaultInjectingFileIo} saw.
 *
 * @param op the step
 * @param kind the kind of file it was on (for a rename, the file renamed)
 * @param phase what the test was doing then ({@link FaultInjectingFileIo#phase(String)})
 * @param path the file
 * @param injected true if the step was failed (or short-written) on purpose
 */
public record IoEvent(FileOp op, FileKind kind, String phase, Path path, boolean injected) {
  /** The injection point this step is an instance of: phase, step and file kind. */
  public IoPoint point() {
    return new IoPoint(phase, op, kind);
  }
}

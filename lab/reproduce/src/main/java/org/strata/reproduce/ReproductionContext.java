package org.strata.reproduce;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a reproduction writes and reports progress.
 *
 * @param out the output directory (report.md, verdicts.json, figures/, scratch/)
 * @param scale the scale's name ({@code tiny}, {@code quick}, {@code paper}, or {@code custom}
 *     for a configuration file)
 * @param progress where to print one line per experiment as it runs
 */
public record ReproductionContext(Path out, String scale, PrintStream progress) {

  /** The PNG path for the figure {@code name} of {@code paper}, creating {@code figures/}. */
  public Path figure(String paper, String name) throws IOException {
    Path dir = out.resolve("figures");
    Files.createDirectories(dir);
    return dir.resolve(paper + "-" + name + ".png");
  }

  /** A figure record for a file made by {@link #figure}, relative to the output directory. */
  public Figure figureEntry(Path file, String caption) {
    return new Figure(out.relativize(file).toString().replace('\\', '/'), caption);
  }

  /** A fresh scratch directory for engine data under the output directory. */
  public Path scratch(String name) throws IOException {
    Path dir = out.resolve("scratch").resolve(name);
    if (Files.exists(dir)) {
      try (var walk = Files.walk(dir)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(dir);
    return dir;
  }

  /** Prints one progress line. */
  public void log(String line) {
    progress.println(line);
    progress.flush();
  }
}

package org.strata.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata lsm}: one self-contained HTML page (no network) that replays the history of a
 * store, of every index of a dataset, or of every phase of a two-phase run (docs/observing.md,
 * "The LSM view"): the runs and components of each level after each flush, merge and move, with
 * the stalls on a timeline and a slider over the steps. It reads only the {@code HISTORY} files,
 * so it works on a store that is open in another process.
 */
@Command(name = "lsm", mixinStandardHelpOptions = true,
    description = "Write an HTML page that replays the history of a store, a dataset (each"
        + " index of each partition) or a two-phase run's --out directory: the runs and"
        + " components of every level after each flush, merge and move, and the write stalls,"
        + " with a time slider. The page needs no network.")
final class LsmCommand implements Callable<Integer> {
  /** The page's template, whose data placeholder the history replaces. */
  static final String TEMPLATE = "lsm-view.html";
  private static final String PLACEHOLDER = "/*STRATA-DATA*/null";

  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "A store or dataset directory, or a two-phase run's --out directory.")
  Path dir;

  @Option(names = "--out", required = true, paramLabel = "FILE",
      description = "The HTML file to write (replaced if it exists).")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("--dir " + dir + (Files.exists(dir)
          ? " is not a directory" : " does not exist"));
    }
    LsmHistory history = LsmHistory.read(dir);
    String title = dir.toAbsolutePath().normalize().getFileName() == null ? dir.toString()
        : dir.toAbsolutePath().normalize().getFileName().toString();
    String page = page(history.toJson(title).toString());
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    Files.writeString(tmp, page, StandardCharsets.UTF_8);
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    PrintWriter w = spec.commandLine().getOut();
    w.printf("wrote %s: %d index(es), %d steps%s%n", out, history.trees().size(),
        history.versionEvents(), history.tornLines() == 0 ? ""
            : " (" + history.tornLines() + " last line(s) cut by a crash left out)");
    return 0;
  }

  /** The page with {@code json} as its data; "</" is escaped so no string ends the script. */
  static String page(String json) throws IOException {
    String template;
    try (InputStream in = LsmCommand.class.getResourceAsStream(TEMPLATE)) {
      if (in == null) {
        throw new IllegalStateException("the page template " + TEMPLATE + " is missing from"
            + " the build");
      }
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int at = template.indexOf(PLACEHOLDER);
    if (at < 0) {
      throw new IllegalStateException("the page template has no data placeholder");
    }
    return template.substring(0, at) + json.replace("</", "<\\/")
        + template.substring(at + PLACEHOLDER.length());
  }
}

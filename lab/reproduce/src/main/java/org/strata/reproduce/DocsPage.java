package org.strata.reproduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A documentation page generated from a report ({@code strata reproduce --docs FILE}): the
 * report's Markdown, then whatever the existing page holds from {@link #KEEP_MARKER} on (a
 * hand-written section the generator must not replace). The report's figures are copied next to
 * the page, under {@code figures/}, so the page's links work.
 */
public final class DocsPage {
  /** The line from which an existing page's content is kept. */
  public static final String KEEP_MARKER =
      "<!-- Hand-written from here on: strata reproduce --docs keeps it. -->";

  private DocsPage() {}

  /** Writes {@code page} from {@code markdown}, the report made in {@code reportDir}. */
  public static void write(Path page, String markdown, Report report, Path reportDir)
      throws IOException {
    String kept = "";
    if (Files.exists(page)) {
      String old = Files.readString(page, StandardCharsets.UTF_8);
      int at = old.indexOf(KEEP_MARKER);
      if (at >= 0) {
        kept = "\n" + old.substring(at);
      }
    }
    Path dir = page.toAbsolutePath().getParent();
    for (Figure f : report.figures()) {
      Path target = dir.resolve(f.file());
      Files.createDirectories(target.getParent());
      Files.copy(reportDir.resolve(f.file()), target, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.writeString(page, markdown + kept, StandardCharsets.UTF_8);
  }
}

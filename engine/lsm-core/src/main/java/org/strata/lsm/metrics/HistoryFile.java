package org.strata.lsm.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;

/**
 * The framing of an index's {@code HISTORY} file (docs/format.md, "History"): one line per event,
 * {@code <crc32c of the JSON, 8 hex digits> <JSON>\n}. The engine appends a line whenever a
 * version is installed (open, flush, merge, move) and when a write stall ends; the file rolls
 * over to {@code HISTORY.1} at {@link #ROLL_BYTES}. It is a record for people and for {@code
 * strata lsm}, never read by the engine, and not forced: a crash may cut its last line, which
 * {@link #read} then leaves out.
 */
public final class HistoryFile {
  /** The file being appended to. */
  public static final String NAME = "HISTORY";
  /** The file it rolled over to, older events. */
  public static final String PREVIOUS = "HISTORY.1";
  /** Size at which {@link #NAME} rolls over to {@link #PREVIOUS}. */
  public static final long ROLL_BYTES = 4L << 20;

  private HistoryFile() {}

  /** The line of {@code json} (which must not hold a line break), with its newline. */
  public static byte[] frame(String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(body);
    String line = String.format("%08x ", crc.getValue()) + json + "\n";
    return line.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The events an index directory's history holds, oldest first ({@link #PREVIOUS}, then {@link
   * #NAME}); empty when it has none.
   *
   * @param tornTail set to the number of cut last lines left out (0 or 1, of the newest file)
   * @throws CorruptionException if a complete line's checksum or framing is wrong (naming the file
   *     and line)
   */
  public static List<String> read(Path dir, int[] tornTail) throws IOException {
    List<String> out = new ArrayList<>();
    tornTail[0] = 0;
    for (String name : new String[] {PREVIOUS, NAME}) {
      Path p = dir.resolve(name);
      if (Files.exists(p)) {
        readLines(p, out, tornTail);
      }
    }
    return out;
  }

  private static void readLines(Path p, List<String> out, int[] tornTail) throws IOException {
    byte[] all = Files.readAllBytes(p);
    int start = 0;
    int line = 0;
    while (start < all.length) {
      line++;
      int nl = start;
      while (nl < all.length && all[nl] != '\n') {
        nl++;
      }
      if (nl == all.length) { // no newline: a line a crash cut
        tornTail[0]++;
        return;
      }
      String text = new String(all, start, nl - start, StandardCharsets.UTF_8);
      out.add(check(p, start, line, text));
      start = nl + 1;
    }
  }

  private static String check(Path p, long offset, int line, String text) {
    if (text.length() < 10 || text.charAt(8) != ' ') {
      throw new CorruptionException(p, offset, "line " + line + " is not '<crc32c> <json>'");
    }
    String json = text.substring(9);
    long stored;
    try {
      stored = Long.parseLong(text.substring(0, 8), 16);
    } catch (NumberFormatException e) {
      throw new CorruptionException(p, offset, "line " + line + " does not start with a"
          + " checksum");
    }
    CRC32C crc = new CRC32C();
    crc.update(json.getBytes(StandardCharsets.UTF_8));
    if (crc.getValue() != stored) {
      throw new CorruptionException(p, offset, "line " + line + " fails its checksum");
    }
    return json;
  }
}

package org.strata.lsm.wal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.FileIo;

/**
 * The log's own record of itself, the file {@value #FILE} in the log directory (docs/format.md):
 * which log this is (its id, and the directory of the store or dataset partition that owns it) and
 * which segments it holds, each with its size: exact for a sealed segment, and for the segment
 * appends go to, a size it is known to have been forced to. It is replaced atomically (written to
 * a temporary file, forced, renamed, the directory forced) when a new segment has had its first
 * force, before any of its records is reported durable; when truncation drops segments, before
 * they are deleted; and when recovery changes the log. So a missing segment, a segment cut short,
 * a segment of another log and a log directory that belongs to another store are all found, at
 * open and by {@code strata verify}.
 *
 * <p>Format: a first line {@code STRATA-LOG-CATALOG 1 <crc32c hex> <length>}, then {@code length}
 * bytes of JSON: {@code {"logId": ..., "owner": ..., "segments": [{"first": 1, "size": 4096,
 * "sealed": true, "format": 2}, ...], "setAside": {"first": N, "offset": X}}} ({@code setAside}
 * only while a point-in-time recovery is being carried out: see {@link LogRecovery}).
 *
 * @param logId the log's identity, carried by every segment's header
 * @param owner the directory of the store or dataset partition the log belongs to (absolute)
 * @param segments in sequence-number order
 * @param setAside a point-in-time recovery in progress, or null
 */
public record LogCatalog(UUID logId, Path owner, List<Entry> segments, SetAside setAside) {
  /** The file name. */
  public static final String FILE = "CATALOG";
  private static final String MAGIC = "STRATA-LOG-CATALOG";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One segment.
   *
   * @param first its first sequence number (its name)
   * @param size its exact size when {@code sealed}; else a size it was forced to at least
   * @param sealed whether no byte will be appended to it any more
   * @param format 2 for a segment with a {@link SegmentHeader}, 1 for one written before headers
   */
  public record Entry(long first, long size, boolean sealed, int format) {}

  /**
   * A point-in-time recovery that stopped at {@code offset} of segment {@code first}: that
   * segment's bytes from the offset, and every later segment, are being set aside.
   */
  public record SetAside(long first, long offset) {}

  public LogCatalog {
    segments = List.copyOf(segments);
  }

  /** The entry of the segment whose first sequence number is {@code first}, or null. */
  Entry entry(long first) {
    for (Entry e : segments) {
      if (e.first() == first) {
        return e;
      }
    }
    return null;
  }

  /** Reads the catalogue in {@code dir}, or returns null if there is none. */
  public static LogCatalog read(Path dir, FileIo io) throws IOException {
    Path p = dir.resolve(FILE);
    if (!Files.exists(p)) {
      return null;
    }
    byte[] all = io.readAll(p);
    int nl = 0;
    while (nl < all.length && all[nl] != '\n') {
      nl++;
    }
    String[] h = new String(all, 0, nl, StandardCharsets.US_ASCII).split(" ");
    if (h.length != 4 || !h[0].equals(MAGIC)) {
      throw new CorruptionException(p, 0, "not a Strata log catalogue (bad header line)");
    }
    if (!h[1].equals("1")) {
      throw new CorruptionException(p, 0, "unsupported log catalogue version " + h[1]
          + " (this build reads version 1)");
    }
    long crcStored;
    int len;
    try {
      crcStored = Long.parseLong(h[2], 16);
      len = Integer.parseInt(h[3]);
    } catch (NumberFormatException e) {
      throw new CorruptionException(p, 0, "bad log catalogue header: " + e.getMessage());
    }
    if (nl + 1 + (long) len != all.length) {
      throw new CorruptionException(p, nl + 1, "log catalogue length " + len + " does not match"
          + " the file");
    }
    CRC32C crc = new CRC32C();
    crc.update(all, nl + 1, len);
    if (crc.getValue() != crcStored) {
      throw new CorruptionException(p, nl + 1, "log catalogue checksum mismatch");
    }
    try {
      JsonNode root = MAPPER.readTree(new String(all, nl + 1, len, StandardCharsets.UTF_8));
      List<Entry> entries = new ArrayList<>();
      for (JsonNode e : root.get("segments")) {
        entries.add(new Entry(e.get("first").asLong(), e.get("size").asLong(),
            e.get("sealed").asBoolean(), e.get("format").asInt()));
      }
      JsonNode sa = root.get("setAside");
      SetAside setAside = sa == null || sa.isNull() ? null
          : new SetAside(sa.get("first").asLong(), sa.get("offset").asLong());
      return new LogCatalog(UUID.fromString(root.get("logId").asText()),
          Path.of(root.get("owner").asText()), entries, setAside);
    } catch (RuntimeException e) {
      throw new CorruptionException(p, nl + 1, "log catalogue content does not parse: " + e);
    }
  }

  /** Replaces the catalogue in {@code dir} atomically (forced, directory forced). */
  void write(Path dir, FileIo io) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("logId", logId.toString());
    root.put("owner", owner.toString());
    ArrayNode arr = root.putArray("segments");
    for (Entry e : segments) {
      ObjectNode o = arr.addObject();
      o.put("first", e.first());
      o.put("size", e.size());
      o.put("sealed", e.sealed());
      o.put("format", e.format());
    }
    if (setAside != null) {
      ObjectNode o = root.putObject("setAside");
      o.put("first", setAside.first());
      o.put("offset", setAside.offset());
    }
    byte[] json = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    CRC32C crc = new CRC32C();
    crc.update(json);
    byte[] header = (MAGIC + " 1 " + Long.toHexString(crc.getValue()) + " " + json.length + "\n")
        .getBytes(StandardCharsets.US_ASCII);
    Directories.writeAtomically(io, dir.resolve(FILE), ByteBuffer.wrap(header),
        ByteBuffer.wrap(json));
  }
}

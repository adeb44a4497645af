package org.strata.lsm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.FileIo;

/**
 * The part of a dataset's configuration that is fixed at creation (partitions, secondary-index
 * names and fields, maintenance), kept apart from {@code dataset.json} in {@value #FILE} under a
 * checksum, so that a damaged {@code dataset.json} that still parses cannot silently route reads
 * to other partitions or query a secondary index by another field. Written once, before {@code
 * dataset.json}, when a dataset is created (or first opened by a version that writes it), and
 * never changed. Its format: a line {@code STRATA-DATASET-LAYOUT 1 <crc32c hex> <length>}, then
 * {@code length} bytes of JSON.
 */
final class DatasetLayout {
  static final String FILE = "LAYOUT";
  private static final String MAGIC = "STRATA-DATASET-LAYOUT 1";
  private static final ObjectMapper JSON = new ObjectMapper();

  private DatasetLayout() {}

  /** The layout of {@code c} as the JSON text the file holds. */
  static String body(DatasetConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("partitions", c.partitions());
    m.put("secondary-maintenance", c.maintenance().configName());
    List<Map<String, String>> indexes = new ArrayList<>();
    for (SecondaryIndexSpec s : c.secondaryIndexes()) {
      Map<String, String> index = new LinkedHashMap<>(); // a fixed order: Map.of's varies by JVM
      index.put("name", s.name());
      index.put("field", s.field());
      indexes.add(index);
    }
    m.put("secondary-indexes", indexes);
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a dataset layout", e);
    }
  }

  /**
   * The layout saved in {@code dir}, or null if there is no {@value #FILE}.
   *
   * @throws CorruptionException if the file fails its checksum or framing
   */
  static String read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      return null;
    }
    byte[] all = Files.readAllBytes(file);
    int nl = 0;
    while (nl < all.length && all[nl] != '\n') {
      nl++;
    }
    String[] head = new String(all, 0, nl, StandardCharsets.US_ASCII).split(" ");
    if (nl == all.length || head.length != 4 || !(head[0] + " " + head[1]).equals(MAGIC)) {
      throw new CorruptionException(file, 0, "the first line is not '" + MAGIC
          + " <crc32c> <length>'");
    }
    long crc;
    int length;
    try {
      crc = Long.parseLong(head[2], 16);
      length = Integer.parseInt(head[3]);
    } catch (NumberFormatException e) {
      throw new CorruptionException(file, 0, "the first line has a bad checksum or length");
    }
    if (length != all.length - nl - 1) {
      throw new CorruptionException(file, nl + 1, "the layout has " + (all.length - nl - 1)
          + " bytes, its header says " + length);
    }
    CRC32C c = new CRC32C();
    c.update(all, nl + 1, length);
    if (c.getValue() != crc) {
      throw new CorruptionException(file, nl + 1, "checksum mismatch");
    }
    return new String(all, nl + 1, length, StandardCharsets.UTF_8);
  }

  /** Writes the layout of {@code c} into {@code dir} (temporary file, force, rename). */
  static void write(FileIo io, Path dir, DatasetConfig c) throws IOException {
    byte[] body = body(c).getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(body);
    byte[] head = (MAGIC + " " + Long.toHexString(crc.getValue()) + " " + body.length + "\n")
        .getBytes(StandardCharsets.US_ASCII);
    Directories.writeAtomically(io, dir.resolve(FILE), ByteBuffer.wrap(head),
        ByteBuffer.wrap(body));
  }

  /**
   * Null if {@code dir} has no saved layout or it is that of {@code c}; otherwise what differs.
   *
   * @throws CorruptionException if the saved layout is damaged
   */
  static String mismatch(Path dir, DatasetConfig c) throws IOException {
    String saved = read(dir);
    String given = body(c);
    return saved == null || saved.equals(given) ? null : "the configuration's layout is "
        + given + ", the dataset was created with " + saved + " (" + dir.resolve(FILE) + ")";
  }
}

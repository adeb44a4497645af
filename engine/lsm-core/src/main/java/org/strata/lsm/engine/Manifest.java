package org.strata.lsm.engine;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.FileIo;

/**
 * The durable list of an index's runs and the counters that must survive restarts. Written whole
 * to {@code MANIFEST.tmp}, forced, and atomically renamed over {@code MANIFEST}: the rename is the
 * moment a flush or merge becomes part of the index. Format (docs/format.md): a first line {@code
 * STRATA-MANIFEST 3 <crc32c hex> <length>} followed by {@code length} bytes of JSON. Versions 1
 * and 2 (written before component identities and log ids) are read too.
 *
 * @param nextFileNumber next component file number to allocate
 * @param nextComponentId next flush ordinal
 * @param flushedLsn every log operation up to this LSN is in a disk component
 * @param runs newest first; each run's component file names in key order, with its level
 * @param counters cumulative statistics (bytes flushed, merged, ...)
 * @param identities what each listed component file must be ({@link ComponentIdentity}); empty
 *     for a manifest of version 1 or 2, whose components are taken as they are found
 * @param logId the id of the log this index's unflushed writes are in (its own, or its dataset
 *     partition's), or null for an index written before logs had ids
 * @param logDir the absolute directory that log was last opened in, or null
 */
record Manifest(long nextFileNumber, long nextComponentId, long flushedLsn,
    List<RunEntry> runs, Map<String, Long> counters, Map<String, ComponentIdentity> identities,
    UUID logId, String logDir) {

  static final String FILE = "MANIFEST";
  private static final String MAGIC = "STRATA-MANIFEST";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One run in the manifest. */
  record RunEntry(int level, List<String> files) {}

  /** The format version written: 3 (component identities and the log's id and directory). */
  static final int VERSION = 3;

  static Manifest empty() {
    return new Manifest(1, 1, 0, List.of(), Map.of(), Map.of(), null, null);
  }

  /** This manifest with its log's id and directory. */
  Manifest withLog(UUID id, String dir) {
    return new Manifest(nextFileNumber, nextComponentId, flushedLsn, runs, counters, identities,
        id, dir);
  }

  void write(Path dir, FileIo io) throws IOException {
    write(dir, io, () -> { });
  }

  /** Writes the manifest, running {@code beforeRename} once its temporary file is forced. */
  void write(Path dir, FileIo io, Runnable beforeRename) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("nextFileNumber", nextFileNumber);
    root.put("nextComponentId", nextComponentId);
    root.put("flushedLsn", flushedLsn);
    if (logId != null) {
      root.put("logId", logId.toString());
    }
    if (logDir != null) {
      root.put("logDir", logDir);
    }
    ArrayNode rs = root.putArray("runs");
    for (RunEntry r : runs) {
      ObjectNode o = rs.addObject();
      o.put("level", r.level());
      ArrayNode fs = o.putArray("files");
      for (String f : r.files()) {
        ComponentIdentity id = identities.get(f);
        if (id == null) {
          throw new IllegalStateException("no identity for listed component " + f);
        }
        ObjectNode e = fs.addObject();
        e.put("name", f);
        e.put("bytes", id.bytes());
        e.put("minId", id.minId());
        e.put("maxId", id.maxId());
        e.put("maxLsn", id.maxLsn());
        e.put("metaChecksum", Long.toHexString(id.metaChecksum()));
        if (id.segmentBytes() >= 0) {
          e.put("segmentBytes", id.segmentBytes());
        }
      }
    }
    ObjectNode cs = root.putObject("counters");
    counters.forEach(cs::put);
    byte[] json = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    CRC32C crc = new CRC32C();
    crc.update(json);
    byte[] header = (MAGIC + " " + VERSION + " " + Long.toHexString(crc.getValue()) + " "
        + json.length + "\n")
        .getBytes(StandardCharsets.US_ASCII);
    Directories.writeAtomically(io, dir.resolve(FILE), beforeRename, ByteBuffer.wrap(header),
        ByteBuffer.wrap(json));
  }

  /** Reads the manifest, or returns null if the directory has none. */
  static Manifest read(Path dir) throws IOException {
    return read(dir, FileIo.standard());
  }

  /** Reads the manifest through {@code io}, or returns null if the directory has none. */
  static Manifest read(Path dir, FileIo io) throws IOException {
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
      throw new CorruptionException(p, 0, "not a Strata manifest (bad header line)");
    }
    if (!h[1].equals("1") && !h[1].equals("2") && !h[1].equals("3")) {
      throw new CorruptionException(p, 0, "unsupported manifest version " + h[1] + " (this build"
          + " reads versions 1 to 3)");
    }
    int len;
    long crcStored;
    try {
      crcStored = Long.parseLong(h[2], 16);
      len = Integer.parseInt(h[3]);
    } catch (NumberFormatException e) {
      throw new CorruptionException(p, 0, "bad manifest header: " + e.getMessage());
    }
    if (nl + 1 + len != all.length) {
      throw new CorruptionException(p, nl + 1, "manifest length " + len + " does not match the"
          + " file");
    }
    CRC32C crc = new CRC32C();
    crc.update(all, nl + 1, len);
    if (crc.getValue() != crcStored) {
      throw new CorruptionException(p, nl + 1, "manifest checksum mismatch");
    }
    try {
      JsonNode root = MAPPER.readTree(new String(all, nl + 1, len, StandardCharsets.UTF_8));
      List<RunEntry> runs = new ArrayList<>();
      Map<String, ComponentIdentity> identities = new LinkedHashMap<>();
      for (JsonNode r : root.get("runs")) {
        List<String> files = new ArrayList<>();
        for (JsonNode f : r.get("files")) {
          if (!f.isObject()) {
            files.add(f.asText()); // versions 1 and 2: the name only
            continue;
          }
          String name = f.get("name").asText();
          files.add(name);
          JsonNode seg = f.get("segmentBytes");
          identities.put(name, new ComponentIdentity(f.get("bytes").asLong(),
              f.get("minId").asLong(), f.get("maxId").asLong(), f.get("maxLsn").asLong(),
              Long.parseUnsignedLong(f.get("metaChecksum").asText(), 16),
              seg == null ? -1 : seg.asLong()));
        }
        runs.add(new RunEntry(r.get("level").asInt(), files));
      }
      JsonNode logIdNode = root.get("logId");
      JsonNode logDirNode = root.get("logDir");
      Map<String, Long> counters = new LinkedHashMap<>();
      JsonNode cs = root.get("counters");
      if (cs != null) {
        for (Map.Entry<String, JsonNode> e : cs.properties()) {
          counters.put(e.getKey(), e.getValue().asLong());
        }
      }
      return new Manifest(root.get("nextFileNumber").asLong(), root.get("nextComponentId").asLong(),
          root.get("flushedLsn").asLong(), runs, counters, identities,
          logIdNode == null ? null : UUID.fromString(logIdNode.asText()),
          logDirNode == null ? null : logDirNode.asText());
    } catch (RuntimeException e) {
      throw new CorruptionException(p, nl + 1, "manifest content does not parse: " + e);
    }
  }
}

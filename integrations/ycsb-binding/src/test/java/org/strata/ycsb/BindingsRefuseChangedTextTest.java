package org.strata.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.dataset.SecondaryMaintenance;
import org.strata.ycsb.feed.FeedServer;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Both YCSB bindings refuse a key, field name or value that is not valid Unicode text (or value
 * bytes that are not UTF-8) with an error status naming it, store nothing for it, and go on; an
 * exotic but valid key is stored and read back unchanged.
 */
class BindingsRefuseChangedTextTest {
  @TempDir Path tmp;

  private static DatasetConfig config() {
    StoreConfig s = StoreConfig.defaults().withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withDurability(Durability.NONE).withPageCache(PageCacheConfig.of(4 << 20));
    return new DatasetConfig(s, List.of(new SecondaryIndexSpec("by_field0", "field0")),
        SecondaryMaintenance.EAGER, 1);
  }

  @Test
  void theEmbeddedBindingRefusesTextThatWouldChange() throws Exception {
    Path dir = tmp.resolve("ds");
    Dataset.open(dir, config()).close();
    StrataDbBinding db = new StrataDbBinding();
    Properties p = new Properties();
    p.setProperty(StrataDbBinding.DIR, dir.toString());
    db.setProperties(p);
    db.init();
    try {
      exercise(db);
    } finally {
      db.cleanup();
    }
    try (Dataset ds = Dataset.open(dir, null)) {
      checkStored(ds);
    }
  }

  @Test
  void theFeedBindingRefusesTextThatWouldChangeBeforeSendingIt() throws Exception {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0)) {
      StrataFeedBinding db = new StrataFeedBinding();
      Properties p = new Properties();
      p.setProperty(StrataFeedBinding.PORT, String.valueOf(server.port()));
      db.setProperties(p);
      db.init();
      try {
        exercise(db);
        // The server's own reasons come back in the status too.
        Status tooLong = db.insert("t", "k".repeat(70_000), fields("a"));
        assertThat(tooLong.isOk()).isFalse();
        assertThat(tooLong.getDescription()).contains("keys must have 1 to 65536 bytes");
      } finally {
        db.cleanup();
      }
      // Refused text never reached the server: only the good operations (and the long key).
      assertThat(server.stats().rejected()).isEqualTo(1);
      checkStored(ds);
    }
  }

  private static final String EXOTIC = "\ud83d\ude00\u0000e\u0301\udbff\udfff";

  private static void exercise(DB db) {
    assertThat(db.insert("t", "good", fields("a")).isOk()).isTrue();
    Status s = db.insert("t", "\ud800", fields("a"));
    assertThat(s.getName()).isEqualTo("ERROR");
    assertThat(s.getDescription()).startsWith(
        "key is not valid Unicode text: lone surrogate U+D800 at index 0;");
    s = db.update("t", "good", Map.of("field0", new StringByteIterator("a\udfff")));
    assertThat(s.getDescription()).startsWith("value of field 'field0' is not valid Unicode text:"
        + " lone surrogate U+DFFF at index 1;");
    s = db.insert("t", "k2", Map.of("field0", new ByteArrayByteIterator(new byte[] {'a',
        (byte) 0xC3, '('})));
    assertThat(s.getDescription()).startsWith("value of field 'field0' is not valid UTF-8:"
        + " malformed byte 0xC3 at byte 1;");
    s = db.insert("t", "k3", Map.of("f\ud800", new StringByteIterator("a")));
    assertThat(s.getDescription()).startsWith("field name 'f\\uD800' is not valid Unicode text");
    assertThat(db.read("t", "\udc00", null, new HashMap<>()).getDescription())
        .contains("lone surrogate U+DC00");
    assertThat(db.scan("t", "\udc00", 10, null, new Vector<>()).getDescription())
        .contains("lone surrogate U+DC00");
    assertThat(db.delete("t", "x\ud800").getDescription()).contains("lone surrogate U+D800");
    // The binding goes on, and an exotic valid key travels unchanged.
    assertThat(db.insert("t", EXOTIC, Map.of("field0", new ByteArrayByteIterator(
        "\u00e9\u0000".getBytes(java.nio.charset.StandardCharsets.UTF_8)))).isOk()).isTrue();
    Map<String, ByteIterator> got = new HashMap<>();
    assertThat(db.read("t", EXOTIC, null, got)).isEqualTo(Status.OK);
    assertThat(got.get("field0").toString()).isEqualTo("\u00e9\u0000");
  }

  private static void checkStored(Dataset ds) {
    assertThat(ds.scan(null, 100)).extracting(DatasetRecord::key)
        .containsExactly("good", EXOTIC);
    assertThat(ds.get("good").orElseThrow().fields()).isEqualTo(Map.of("field0", "a"));
    assertThat(ds.queryEq("by_field0", "\u00e9\u0000")).extracting(DatasetRecord::key)
        .containsExactly(EXOTIC);
  }

  private static Map<String, ByteIterator> fields(String v) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put("field0", new StringByteIterator(v));
    return m;
  }
}

package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FeedParserTest {
  private final FeedParser parser = new FeedParser();

  @Test
  void parsesUpsertsAndDeletes() {
    FeedRecord r = parser.parse("{\"op\":\"upsert\",\"key\":\"k1\",\"fields\":{\"field0\":\"a\"}}");
    assertThat(r).isEqualTo(new FeedRecord(FeedRecord.Op.UPSERT, "k1", Map.of("field0", "a")));
    assertThat(parser.parse("{\"key\":\"k2\",\"fields\":{}}").op())
        .isEqualTo(FeedRecord.Op.UPSERT);
    assertThat(parser.parse("{\"op\":\"delete\",\"key\":\"k1\"}"))
        .isEqualTo(new FeedRecord(FeedRecord.Op.DELETE, "k1", Map.of()));
  }

  @Test
  void rejectsWithAReason() {
    assertThatThrownBy(() -> parser.parse("{\"op\":\"upsert\",\"key\":\"k1\""))
        .isInstanceOf(FeedParser.RejectedLineException.class)
        .hasMessageStartingWith("not valid JSON");
    assertThatThrownBy(() -> parser.parse("[1,2]")).hasMessageContaining("expected a JSON object");
    assertThatThrownBy(() -> parser.parse("{\"op\":\"merge\",\"key\":\"k\"}"))
        .hasMessage("unknown op 'merge'; allowed: upsert, delete");
    assertThatThrownBy(() -> parser.parse("{\"fields\":{}}")).hasMessageStartingWith(
        "missing key");
    assertThatThrownBy(() -> parser.parse("{\"key\":7}"))
        .hasMessageContaining("key must be a non-empty string, found a number (7)");
    assertThatThrownBy(() -> parser.parse("{\"key\":\"k\",\"fields\":{\"field1\":3}}"))
        .hasMessage("field 'field1' is a number (3); field values must be strings");
    assertThatThrownBy(() -> parser.parse("{\"key\":\"k\",\"fields\":{\"field1\":null}}"))
        .hasMessage("field 'field1' is null; field values must be strings");
    assertThatThrownBy(() -> parser.parse("{\"key\":\"k\",\"value\":\"x\"}"))
        .hasMessage("unknown key 'value'; allowed: op, key, fields");
    assertThatThrownBy(() -> parser.parse("{\"key\":\"k\"} {\"key\":\"j\"}"))
        .hasMessageStartingWith("not valid JSON");
    assertThatThrownBy(() -> parser.parse("{\"key\":\"k\",\"key\":\"j\"}"))
        .hasMessageContaining("Duplicate field 'key'");
    assertThatThrownBy(() -> parser.parse("{\"op\":\"delete\",\"key\":\"k\",\"fields\":{}}"))
        .hasMessage("a delete takes no fields");
  }

  @Test
  void fieldsNullIsRefusedNotStoredAsAnEmptyRecord() {
    for (FeedParser p : new FeedParser[] {parser, FeedParser.forRequests()}) {
      assertThatThrownBy(() -> p.parse("{\"key\":\"k\",\"fields\":null}"))
          .isInstanceOf(FeedParser.RejectedLineException.class)
          .hasMessage("fields must be an object of field names to strings, found null");
      assertThatThrownBy(() -> p.parse("{\"key\":\"k\",\"fields\":[]}"))
          .hasMessage("fields must be an object of field names to strings, found an array");
    }
    // Leaving fields out is an upsert of an empty record, as before.
    assertThat(parser.parse("{\"key\":\"k\"}").fields()).isEmpty();
  }

  @Test
  void aScanCountOutOfRangeNamesTheFieldAndTheAllowedRange() {
    FeedParser requests = FeedParser.forRequests();
    for (String count : new String[] {"4294967298", "-4294967298", "2147483648", "0", "100001",
        "99999999999999999999999999999", "1.5", "1e3", "\"10\"", "null"}) {
      assertThatThrownBy(() -> requests.parse("{\"op\":\"scan\",\"key\":\"k\",\"count\":"
          + count + "}")).as(count).isInstanceOf(FeedParser.RejectedLineException.class)
          .hasMessageStartingWith("a scan needs count, an integer from 1 to " + FeedParser.MAX_SCAN
              + ", found ")
          .hasMessageNotContaining("out of range of int");
    }
    assertThatThrownBy(() -> requests.parse("{\"op\":\"scan\",\"key\":\"k\",\"count\":"
        + "4294967298}")).hasMessage("a scan needs count, an integer from 1 to 100000, found a"
        + " number (4294967298)");
    assertThat(requests.parse("{\"op\":\"scan\",\"key\":\"k\",\"count\":100000}").count())
        .isEqualTo(100_000);
  }

  @Test
  void aLoneSurrogateInAKeyFieldNameOrValueIsRejectedNotChanged() {
    // JSON escapes can spell a lone surrogate; Java would store it as '?'.
    assertThatThrownBy(() -> parser.parse("{\"key\":\"\\ud800\",\"fields\":{}}"))
        .isInstanceOf(FeedParser.RejectedLineException.class)
        .hasMessageStartingWith("key is not valid Unicode text: lone surrogate U+D800 at index 0;");
    // Field names: Jackson itself refuses some lone surrogates; either way the line is rejected.
    for (String name : new String[] {"f\\udc00", "f\\ud800", "f\\ud800x", "\\udbff"}) {
      assertThatThrownBy(() -> parser.parse("{\"key\":\"k\",\"fields\":{\"" + name
          + "\":\"a\"}}")).as(name).isInstanceOf(FeedParser.RejectedLineException.class)
          .hasMessageContainingAll("surrogate");
    }
    assertThatThrownBy(() -> parser.parse("{\"key\":\"k\",\"fields\":{\"f1\":\"ab\\ud83d\"}}"))
        .hasMessageStartingWith("value of field 'f1' is not valid Unicode text: lone surrogate"
            + " U+D83D at index 2;");
    assertThatThrownBy(() -> FeedParser.forRequests().parse(
        "{\"op\":\"get\",\"key\":\"x\\udfff\"}")).hasMessageContaining("U+DFFF at index 1");
    // An escaped pair and an escaped NUL are valid text and kept exactly.
    FeedRecord r = parser.parse("{\"key\":\"\\ud83d\\ude00\\u0000\",\"fields\":{\"e\\u0301\":"
        + "\"\\udbff\\udfff\"}}");
    assertThat(r.key()).isEqualTo("\ud83d\ude00\u0000");
    assertThat(r.fields()).isEqualTo(Map.of("e\u0301", "\udbff\udfff"));
  }

  @Test
  void aLineThatIsNotUtf8IsRejectedNamingTheByte() {
    byte[] line = "xx{\"key\":\"k\u00e9\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(parser.parse(line, 2, line.length - 2).key()).isEqualTo("k\u00e9");
    line[line.length - 3] = (byte) 0xFF; // the second byte of e-acute
    byte[] bad = line;
    assertThatThrownBy(() -> parser.parse(bad, 2, bad.length - 2))
        .isInstanceOf(FeedParser.RejectedLineException.class)
        .hasMessageStartingWith("line is not valid UTF-8: malformed byte 0xC3 at byte 9;");
  }
}

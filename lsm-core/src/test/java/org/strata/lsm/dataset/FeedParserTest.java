package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}

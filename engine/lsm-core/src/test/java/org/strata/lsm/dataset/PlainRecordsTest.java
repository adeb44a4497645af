package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Plain JSON records (AsterixDB's socket feed format) round-trip with their value types. */
class PlainRecordsTest {
  private static FeedRecord parse(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    return PlainRecords.parse(b, 0, b.length, "id");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"id\":\"t1\",\"text\":\"hello\"}",
      "{\"id\":7,\"n\":5,\"x\":-1.25e3,\"ok\":true,\"none\":null,\"tags\":[\"a\",1,{\"b\":[]}],"
          + "\"nested\":{\"x\":null,\"y\":\"\\u00e9\"}}",
      "{\"text\":\"before the key\",\"id\":\"k\",\"big\":123456789012345678901234567890,"
          + "\"pi\":3.14159265358979323846264338327950288}"})
  void everyValueComesBackAsItWasSent(String line) throws Exception {
    FeedRecord r = parse(line);
    assertThat(r.op()).isEqualTo(FeedRecord.Op.UPSERT);
    DatasetRecord stored = new DatasetRecord(r.key(), r.fields());
    ObjectMapper m = new ObjectMapper().enable(
        com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    // Equal as JSON (a dataset keeps fields in name order; JSON objects have none), numbers to
    // their last digit, strings to their last character.
    assertThat(PlainRecords.toJson(stored)).isEqualTo(m.readTree(line));
  }

  @Test
  void theKeyIsTheKeyFieldsTextAndStringsAreStoredAsTheyAre() {
    FeedRecord r = parse("{\"id\":42,\"text\":\"hello\",\"n\":5}");
    assertThat(r.key()).isEqualTo("42");
    assertThat(r.fields()).containsEntry("text", "hello").containsEntry("n", "5")
        .containsEntry("id", "42").containsEntry(PlainRecords.TYPED_FIELDS, "[\"id\",\"n\"]");
    assertThat(parse("{\"id\":\"t\",\"text\":\"x\"}").fields())
        .doesNotContainKey(PlainRecords.TYPED_FIELDS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"text\":\"no key\"}", "{\"id\":\"\"}", "{\"id\":1.5}",
      "{\"id\":[1]}", "[1,2]", "{\"id\":\"a\",\"$json\":\"[]\"}", "not json",
      "{\"id\":\"a\",\"id\":\"b\"}"})
  void badRecordsAreRejectedNamingWhy(String line) {
    assertThatThrownBy(() -> parse(line)).isInstanceOf(FeedParser.RejectedLineException.class)
        .hasMessageNotContaining("Exception");
  }

  @Test
  void aMarkerThatParseDidNotWriteIsShownAsText() {
    DatasetRecord r = new DatasetRecord("k", Map.of("a", "5", "$json", "[\"a\",\"missing\"]"));
    assertThat(PlainRecords.fieldsJson(r).get("a").isTextual()).isTrue();
    assertThat(PlainRecords.fieldsJson(r).get("$json").asText()).isEqualTo("[\"a\",\"missing\"]");
    assertThatThrownBy(() -> new FeedParser().parse(
        "{\"key\":\"k\",\"fields\":{\"$json\":\"[]\"}}")).hasMessageContaining("reserved");
  }
}

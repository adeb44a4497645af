package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated records: the fields a record has, and the value bytes a loader writes, which must be
 * the field values concatenated in field-name order whichever way they are asked for (through
 * the generated map's bytes or by concatenating a copy of its fields), the same for the same
 * seed.
 */
class RecordShapeTest {
  @ParameterizedTest
  @ValueSource(ints = {3, 10, 12})
  void theValueIsTheFieldsInNameOrderAndTheFieldsHaveTheirShape(int fields) {
    RecordShape shape = new RecordShape(fields, 37, 5_000);
    for (long seed = 0; seed < 50; seed++) {
      Map<String, String> f = shape.fields(new SplittableRandom(seed));
      assertThat(f.keySet()).hasSize(fields).first().isEqualTo("field0");
      byte[] fast = GeneratedRecord.valueBytes(f);
      byte[] slow = GeneratedRecord.valueBytes(new LinkedHashMap<>(f));
      assertThat(fast).isEqualTo(slow).hasSize(24 + (fields - 2) * 37);
      // a loader gets the record's own bytes, not a copy per write
      assertThat(GeneratedRecord.valueBytes(f)).isSameAs(fast);
      assertThat(f.get("field1")).hasSize(12).containsOnlyDigits();
      assertThat(Long.parseLong(f.get("field2"))).isBetween(0L, 4_999L);
      assertThat(f.get("field0")).hasSize(37).matches("[a-z]+");
      assertThat(f.get("field" + (fields - 1))).hasSize(fields - 1 == 1 || fields - 1 == 2 ? 12
          : 37);
      assertThat(shape.fields(new SplittableRandom(seed))).isEqualTo(f);
    }
  }

  @Test
  void lettersCoverTheAlphabetAndTheMapCannotBeChanged() {
    Map<String, String> f = new RecordShape(3, 10_000, 10).fields(new SplittableRandom(7));
    assertThat(f.get("field0").chars().distinct().count()).isEqualTo(26);
    assertThatThrownBy(() -> f.put("field0", "x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(f.get("no-such-field")).isNull();
  }

  @Test
  void aKeySpaceBeyondTwelveDigitsWidensTheNumbers() {
    Map<String, String> f = new RecordShape(3, 4, 2_000_000_000_000L)
        .fields(new SplittableRandom(1));
    assertThat(f.get("field1")).hasSize(13).containsOnlyDigits();
  }
}

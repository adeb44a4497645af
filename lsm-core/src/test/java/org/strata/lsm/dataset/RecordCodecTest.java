package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
  @Test
  void fieldsRoundTripByteForByte() {
    Map<String, String> f = Map.of("e\u0301", "\ud83d\ude00\u0000", "\ufffd", "", "a", "?");
    assertThat(RecordCodec.decode(RecordCodec.encode(f))).isEqualTo(f);
  }

  @Test
  void storedBytesThatAreNotUtf8FailToDecodeNamingTheField() {
    byte[] r = RecordCodec.encode(Map.of("name", "v\u00e9"));
    r[r.length - 1] = (byte) 0xFF; // the second byte of e-acute
    assertThatThrownBy(() -> RecordCodec.decode(r)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("record value of field 'name' is not valid UTF-8: malformed byte"
            + " 0xC3 at byte 1;");
    byte[] n = RecordCodec.encode(Map.of("n\u00e9", "v"));
    n[3] = (byte) 0x80; // a stray continuation byte instead of the first byte of e-acute
    assertThatThrownBy(() -> RecordCodec.decode(n))
        .hasMessageStartingWith("record field name is not valid UTF-8: malformed byte 0x80 at"
            + " byte 1;");
  }
}

package org.strata.lsm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.InvalidConfigurationException;

class QuantitiesTest {
  @ParameterizedTest
  @CsvSource({"0,0", "7,7", "1000000,1000000", "1_000_000,1000000", "1e6,1000000",
      "1E6,1000000", "2.5e5,250000", "1e+3,1000", "' 42 ',42", "9223372036854775807,"
      + "9223372036854775807", "1.0,1"})
  void countsInEveryForm(String text, long expected) {
    assertThat(Quantities.count("--records", text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-1", "ten", "1.5", "1e-3", "_1", "1_", "1__0", "e6", ".5", "1KB",
      "9223372036854775808", "1e30", "0x10"})
  void badCountsNameTheKeyTheValueAndTheForms(String text) {
    assertThatThrownBy(() -> Quantities.count("--records", text))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("--records: '" + text + "' is not allowed; allowed: a whole number")
        .hasMessageContaining("1_000_000 or 1e6");
  }

  @ParameterizedTest
  @CsvSource({"4096,4096", "4KB,4096", "4kb,4096", "1.5MB,1572864", "128MB,134217728",
      "1GB,1073741824", "1TB,1099511627776", "100B,100", "1_024,1024", "1e3,1000", "2 KB,2048",
      "0,0"})
  void sizesInEveryForm(String text, long expected) {
    assertThat(Quantities.bytes("--record-size", text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "KB", "-4KB", "1.3B", "4XB", "4 K", "0.1KB", "9000000TB"})
  void badSizesNameTheKeyTheValueAndTheForms(String text) {
    assertThatThrownBy(() -> Quantities.bytes("--record-size", text))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("--record-size: '" + text + "' is not allowed; allowed: a size")
        .hasMessageContaining("4KB");
  }

  @ParameterizedTest
  @CsvSource({"0,0 B", "812,812 B", "1024,1 KiB", "1536,1.5 KiB", "1572864,1.5 MiB",
      "134217728,128 MiB", "1073741824,1 GiB", "1099511627776,1 TiB"})
  void humanSizesAreBinaryUnderTheirIecNamesAndParseBack(long bytes, String expected) {
    assertThat(Quantities.human(bytes)).isEqualTo(expected);
    assertThat(Quantities.bytes("k", expected.replace(" ", ""))).isEqualTo(bytes);
    assertThat(Quantities.humanRate(bytes)).isEqualTo(expected + "/s");
  }
}

package org.strata.lsm.dataset;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.regex.Pattern;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.Utf8;

/**
 * One secondary index of a dataset: its name (also its directory name) and the record field whose
 * value it indexes. Records without the field have no entry in it.
 *
 * @param name 1 to 64 letters, digits, {@code _}, {@code -} or {@code .}, not starting with
 *     {@code .} or {@code -}; {@code primary} is reserved
 * @param field the indexed field, a non-empty name of valid Unicode text
 */
public record SecondaryIndexSpec(
    @JsonProperty("name") String name,
    @JsonProperty("field") String field) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");
  /** The name of every dataset's primary index. */
  public static final String PRIMARY = "primary";

  public SecondaryIndexSpec {
    if (name == null || !NAME.matcher(name).matches() || name.equals(PRIMARY)) {
      throw InvalidConfigurationException.of("secondary-indexes.name", name,
          "1 to 64 letters, digits, '_', '-' or '.', not starting with '.' or '-', and not"
              + " 'primary'");
    }
    if (field == null || field.isEmpty()) {
      throw InvalidConfigurationException.of("secondary-indexes.field", field,
          "a non-empty field name, e.g. field1");
    }
    try {
      Utf8.check(field, "secondary-indexes.field");
    } catch (IllegalArgumentException e) {
      throw InvalidConfigurationException.keyed("secondary-indexes.field",
          e.getMessage().substring("secondary-indexes.field ".length()));
    }
  }
}

package org.strata.asterixdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Adds what a Strata policy row allows to the errors AsterixDB gives for a dataset's {@code
 * merge-policy} before any Strata code runs: an unknown policy name, a parameter name the row
 * does not declare, or missing parameters. AsterixDB's messages name neither the row nor what it
 * takes ("Unknown compaction policy: x", "Invalid compaction policy property: y", "Compaction
 * policy properties are missing."), so {@code strata asterixdb sql} prints a hint line after them.
 * Values Strata rejects fail on the node controllers with Strata's own message, which needs no
 * hint.
 */
public final class StatementErrors {
  private static final Pattern POLICY_NAME =
      Pattern.compile("\"merge-policy\"\\s*:\\s*\\{\\s*\"name\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern UNKNOWN = Pattern.compile("Unknown compaction policy: (\\S+)");
  private static final Pattern UNSUPPORTED =
      Pattern.compile("Subfield\\(s\\) \\[[^]]*\\] in 'merge-policy.parameters' unsupported");

  private StatementErrors() {}

  /**
   * The server's messages, each followed by a hint line when it is one of AsterixDB's
   * compaction-policy errors about a Strata row (or an unknown name that looks like one).
   *
   * @param statement the request that failed
   * @param messages the server's error messages
   */
  public static List<String> explain(String statement, List<String> messages) {
    List<String> out = new ArrayList<>();
    for (String m : messages) {
      out.add(m);
      hint(statement, m).ifPresent(h -> out.add("hint: " + h));
    }
    return out;
  }

  private static Optional<String> hint(String statement, String message) {
    Matcher unknown = UNKNOWN.matcher(message);
    if (unknown.find()) {
      String name = unknown.group(1);
      if (!name.startsWith("strata-")) {
        return Optional.empty();
      }
      return Optional.of("'" + name + "' is not a Strata policy row; allowed: "
          + String.join(", ", PolicyRow.rowNames()));
    }
    boolean properties = message.contains("Invalid compaction policy property")
        || message.contains("Compaction policy properties are missing")
        || UNSUPPORTED.matcher(message).find();
    if (!properties) {
      return Optional.empty();
    }
    Matcher name = POLICY_NAME.matcher(statement);
    while (name.find()) {
      Optional<PolicyRow> row = PolicyRow.byName(name.group(1));
      if (row.isPresent()) {
        return Optional.of("merge-policy '" + row.get().rowName() + "' takes exactly these "
            + "parameters: " + row.get().usage()
            + (row.get().sectionNames().isEmpty() ? "" : "; its other Strata parameters ("
                + String.join(", ", row.get().sectionNames()) + ") go in the ["
                + StrataExtension.SECTION + "] section as policy."
                + row.get().strataPolicy() + ".<parameter>"));
      }
    }
    return Optional.empty();
  }
}

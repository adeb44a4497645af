package org.strata.reproduce;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A finished reproduction: the content of {@code verdicts.json} and {@code report.md}.
 *
 * @param paper the paper's short name
 * @param title the paper
 * @param source where its claims are specified
 * @param scale the scale run ({@code custom} for a configuration file)
 * @param command the command line that produced the report
 * @param machine cores, memory, OS and Java of the machine that ran it
 * @param device the storage device the experiments ran on (a device model, or none and why)
 * @param seconds wall-clock time of the experiments
 * @param config the configuration run
 * @param summary how many claims got each verdict
 * @param claims every claim with its verdict
 * @param figures the charts
 * @param notes setup and deviations, in words
 */
@JsonPropertyOrder({"paper", "title", "source", "scale", "command", "machine", "device", "seconds",
    "summary", "claims", "figures", "notes", "config"})
public record Report(String paper, String title, String source, String scale, String command,
    String machine, String device, double seconds, JsonNode config, Summary summary,
        List<Claim> claims,
    List<Figure> figures, List<String> notes) {

  /**
   * Verdict counts.
   *
   * @param holds claims that hold
   * @param doesNotHold claims that do not hold
   * @param notComparable claims that could not be checked
   */
  public record Summary(int holds, int doesNotHold, int notComparable) {
    /** The counts of {@code claims}. */
    public static Summary of(List<Claim> claims) {
      int h = 0;
      int d = 0;
      int n = 0;
      for (Claim c : claims) {
        switch (c.verdict()) {
          case HOLDS -> h++;
          case DOES_NOT_HOLD -> d++;
          case NOT_COMPARABLE -> n++;
        }
      }
      return new Summary(h, d, n);
    }
  }
}

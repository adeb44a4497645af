package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.cli.CliTest.Result;

/**
 * The {@code strata lsm} page in a real headless Chromium: it loads without a script error and,
 * at a chosen step of a chosen index, shows the runs and components the history holds for that
 * step, for a store and for each index of a dataset. Skipped, saying so, where no Chromium is
 * installed ({@code apt-get install chromium} on Debian; {@code STRATA_CHROMIUM} names another).
 */
class LsmViewBrowserTest {
  private static final Pattern SUMMARY = Pattern.compile("<div id=\"summary\"([^>]*)>");
  @TempDir Path tmp;

  /** Chromium: {@code STRATA_CHROMIUM}, else the first of the usual names on the PATH. */
  static Path chromium() {
    String named = System.getenv("STRATA_CHROMIUM");
    if (named != null && !named.isBlank()) {
      return Path.of(named);
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }

  /** The page's DOM after its scripts ran, at {@code fragment}. */
  private String dom(Path browser, Path page, String fragment) throws Exception {
    Path err = tmp.resolve("chromium.err");
    Process p = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--user-data-dir=" + tmp.resolve("profile"),
        "--virtual-time-budget=5000", "--dump-dom", page.toUri() + fragment)
        .redirectError(err.toFile()).start();
    try {
      byte[] out = p.getInputStream().readAllBytes();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium ended").isTrue();
      assertThat(p.exitValue()).as(Files.readString(err)).isZero();
      return new String(out, StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
    }
  }

  private static String attr(String summary, String name) {
    Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(summary);
    assertThat(m.find()).as(name + " in " + summary).isTrue();
    return m.group(1);
  }

  /** Checks the page at several steps of tree {@code t} against the history's runs. */
  private void checkSteps(Path browser, Path page, JsonNode data, int t) throws Exception {
    List<JsonNode> steps = new ArrayList<>();
    data.at("/trees/" + t + "/events").forEach(e -> {
      if (!e.get("event").asText().equals("stall")) {
        steps.add(e);
      }
    });
    assertThat(steps.size()).isGreaterThan(3);
    for (int step : new int[] {1, steps.size() / 2, steps.size() - 1}) {
      String dom = dom(browser, page, "#tree=" + t + "&step=" + step);
      assertThat(dom).contains("data-ready=\"1\"");
      Matcher errors = Pattern.compile("<pre id=\"errors\">([^<]*)</pre>").matcher(dom);
      assertThat(errors.find()).isTrue();
      assertThat(errors.group(1)).as("script errors").isEmpty();
      Matcher m = SUMMARY.matcher(dom);
      assertThat(m.find()).as("the summary").isTrue();
      JsonNode e = steps.get(step);
      int components = 0;
      for (JsonNode run : e.get("runs")) {
        components += run.get("files").size();
      }
      assertThat(attr(m.group(1), "data-step")).isEqualTo(Integer.toString(step));
      assertThat(attr(m.group(1), "data-event")).isEqualTo(e.get("event").asText());
      assertThat(attr(m.group(1), "data-runs")).isEqualTo(Integer.toString(e.get("runs").size()));
      assertThat(attr(m.group(1), "data-components")).isEqualTo(Integer.toString(components));
      assertThat(dom.split("class=\"component\"", -1).length - 1).as("rectangles drawn")
          .isEqualTo(components);
    }
  }

  @Test
  void thePageShowsTheComponentsOfAChosenStepWithoutScriptErrors() throws Exception {
    Path browser = chromium();
    Assumptions.assumeTrue(browser != null, "no Chromium on this machine (apt-get install"
        + " chromium, or set STRATA_CHROMIUM): the LSM view is not checked in a browser");
    Path store = LsmCommandTest.store(tmp);
    Path page = tmp.resolve("store.html");
    Result r = CliTest.run("lsm", "--dir", store.toString(), "--out", page.toString());
    assertThat(r.code()).as(r.err()).isZero();
    checkSteps(browser, page, LsmCommandTest.data(page), 0);
  }

  @Test
  void aDatasetShowsEachIndexOfEachPartition() throws Exception {
    Path browser = chromium();
    Assumptions.assumeTrue(browser != null, "no Chromium on this machine (apt-get install"
        + " chromium, or set STRATA_CHROMIUM): the LSM view is not checked in a browser");
    Path config = tmp.resolve("ds.json");
    Files.writeString(config, """
        {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
         "memory-component": {"size": "32KB", "count": 2},
         "log": {"durability": "none"},
         "secondary-indexes": [{"name": "by_field1", "field": "field1"}],
         "secondary-maintenance": "eager", "partitions": 2}
        """);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      lines.append(String.format("{\"op\":\"upsert\",\"key\":\"k%06d\",\"fields\":{\"field0\":"
          + "\"%0100d\",\"field1\":\"v%d\"}}%n", i, i, i % 97));
    }
    Path records = tmp.resolve("records.jsonl");
    Files.writeString(records, lines);
    Path ds = tmp.resolve("ds");
    Result imported = CliTest.run("import", "--dir", ds.toString(), "--config",
        config.toString(), "--file", records.toString(), "--json");
    assertThat(imported.code()).as(imported.err()).isZero();
    Path page = tmp.resolve("ds.html");
    Result r = CliTest.run("lsm", "--dir", ds.toString(), "--out", page.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode data = LsmCommandTest.data(page);
    assertThat(data.get("trees")).hasSize(4);
    String dom = dom(browser, page, "#tree=3&step=last");
    Matcher m = SUMMARY.matcher(dom);
    assertThat(m.find()).isTrue();
    assertThat(attr(m.group(1), "data-indexes")).as("one entry per index").isEqualTo("4");
    checkSteps(browser, page, data, 3);
  }
}

package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.cli.CliTest.Result;
import org.strata.lsm.metrics.HistoryFile;

/**
 * {@code strata lsm}: the page carries every event of the store's history and fetches nothing;
 * a directory without a history and a damaged history are refused in one line naming them.
 * (The page's rendering is checked in a browser by {@link LsmViewBrowserTest}.)
 */
class LsmCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  /** A store with flushes and merges: 64 KB memory components, tiering with T = 3. */
  static Path store(Path tmp) throws Exception {
    Path config = tmp.resolve("small.json");
    Files.writeString(config, "{\"memory-component\": {\"size\": \"64KB\"},"
        + " \"merge-policy\": {\"name\": \"tiering\", \"parameters\": {\"size-ratio\": \"3\"}},"
        + " \"log\": {\"durability\": \"none\"}}");
    Path dir = tmp.resolve("store");
    Result r = CliTest.run("load", "--dir", dir.toString(), "--config", config.toString(),
        "--records", "6000", "--record-size", "200", "-q");
    assertThat(r.code()).as(r.err()).isZero();
    return dir;
  }

  /** The JSON the page embeds. */
  static JsonNode data(Path page) throws Exception {
    Matcher m = Pattern.compile("const DATA = (\\{.*?\\});\\n", Pattern.DOTALL)
        .matcher(Files.readString(page));
    assertThat(m.find()).as("the page's data").isTrue();
    return JSON.readTree(m.group(1).replace("<\\/", "</"));
  }

  @Test
  void thePageCarriesEveryEventOfTheHistoryAndFetchesNothing() throws Exception {
    Path dir = store(tmp);
    Path page = tmp.resolve("view.html");
    Result r = CliTest.run("lsm", "--dir", dir.toString(), "--out", page.toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = HistoryFile.read(dir, new int[1]);
    long steps = lines.stream().filter(l -> !l.contains("\"event\":\"stall\"")).count();
    assertThat(r.out()).contains("1 index(es), " + steps + " steps");
    JsonNode d = data(page);
    assertThat(d.get("trees")).hasSize(1);
    assertThat(d.at("/trees/0/events")).hasSize(lines.size());
    assertThat(d.at("/trees/0/events").findValuesAsText("event")).contains("open", "flush",
        "merge", "close");
    String html = Files.readString(page);
    assertThat(html).doesNotContainPattern("(?i)<(script|link|img)[^>]+(src|href)=")
        .doesNotContainPattern("(?i)url\\(|@import|fetch\\(|XMLHttpRequest");
    assertThat(tmp.resolve("view.html.tmp")).doesNotExist();
  }

  @Test
  void aDirectoryWithoutAHistoryOrWithADamagedOneIsRefusedNamingIt() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    Path page = tmp.resolve("view.html");
    Result none = CliTest.run("lsm", "--dir", empty.toString(), "--out", page.toString());
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err().strip().lines()).hasSize(1).first().asString()
        .contains(empty.toString()).contains("holds no HISTORY");
    Result missing = CliTest.run("lsm", "--dir", tmp.resolve("nope").toString(), "--out",
        page.toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("does not exist");

    Path dir = store(tmp);
    Path history = dir.resolve(HistoryFile.NAME);
    List<String> lines = new java.util.ArrayList<>(Files.readAllLines(history));
    lines.set(2, lines.get(2).replace("\"t\":1", "\"t\":2"));
    Files.write(history, lines);
    Result damaged = CliTest.run("lsm", "--dir", dir.toString(), "--out", page.toString());
    assertThat(damaged.code()).isNotZero();
    assertThat(damaged.err()).contains(history.toString()).contains("line 3");
    assertThat(page).doesNotExist();
  }
}

package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.strata.lsm.config.ConfigMapper;
import org.strata.lsm.config.StoreConfig;
import org.strata.reproduce.DocsPage;
import org.strata.reproduce.Papers;

/**
 * {@code strata reproduce} end to end at the tiny scale: every paper's verdicts.json has the
 * schema, every claim a verdict, every not-comparable claim a reason; bad input is refused
 * before anything is written.
 */
class ReproduceCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> VERDICTS = Set.of("holds", "does-not-hold", "not-comparable");

  @TempDir Path tmp;

  /** Every registered paper, so a paper added later is run here without a change. */
  static List<String> papers() {
    return Papers.load(ReproduceCommandTest.class.getClassLoader()).names();
  }

  @Test
  void theFivePapersAreRegistered() {
    assertThat(papers()).contains("mao", "dostoevsky", "luo-carey", "iam", "triad");
  }

  @ParameterizedTest
  @MethodSource("papers")
  void tinyScaleWritesAVerdictForEveryClaim(String paper) throws Exception {
    Path out = tmp.resolve(paper);
    CliTest.Result r = CliTest.run("reproduce", paper, "--scale", "tiny", "--out",
        out.toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode printed = JSON.readTree(r.out());
    JsonNode file = JSON.readTree(Files.readString(out.resolve("verdicts.json")));
    assertThat(printed).isEqualTo(file);
    checkSchema(file, paper);
    String md = Files.readString(out.resolve("report.md"), StandardCharsets.UTF_8);
    assertThat(md).startsWith("# Reproducing ").contains("bin/strata reproduce " + paper
        + " --scale tiny --out ");
    for (JsonNode c : file.get("claims")) {
      assertThat(md).contains("| " + c.get("id").asText() + " |");
    }
    for (JsonNode f : file.get("figures")) {
      byte[] png = Files.readAllBytes(out.resolve(f.get("file").asText()));
      assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
      assertThat(md).contains("](" + f.get("file").asText() + ")");
    }
    assertThat(out.resolve("scratch")).doesNotExist();
    assertThat(ids(file)).containsAll(expectedIds(paper));
    if (paper.equals("triad")) {
      triadLogClaimsSayWhyWhenTheEngineHasNoTriadLog(file);
    }
    if (paper.equals("dostoevsky")) {
      dostoevskyIsJudgedOnTheEngine(file, out);
    }
  }

  /**
   * D-R3 is judged with Monkey's filters (it was not comparable while every filter had one rate),
   * the tuner's claims compare engine measurements of its picks, and the sweep across T is drawn.
   */
  private static void dostoevskyIsJudgedOnTheEngine(JsonNode v, Path out) {
    for (JsonNode c : v.get("claims")) {
      String id = c.get("id").asText();
      assertThat(c.get("verdict").asText()).as(id).isNotEqualTo("not-comparable");
      if (id.equals("D-R3")) {
        assertThat(c.get("claim").asText()).contains("monkey");
        assertThat(c.get("ours").asText()).contains("ratio");
      }
      if (id.equals("D-T1") || id.equals("D-T2")) {
        assertThat(c.get("ours").asText()).as(id).contains("engine cost");
      }
    }
    assertThat(out.resolve("figures").resolve("dostoevsky-size-ratio-sweep.png")).exists();
  }

  /**
   * Until the engine accepts {@code triad.log}, every claim on TRIAD-LOG or full TRIAD is
   * not-comparable with that reason, and no variant is reported as full TRIAD.
   */
  private static void triadLogClaimsSayWhyWhenTheEngineHasNoTriadLog(JsonNode v) {
    boolean logBuilt;
    try {
      ConfigMapper.parse("{\"triad\": {\"log\": true}}", "probe", StoreConfig.class);
      logBuilt = true;
    } catch (RuntimeException e) {
      logBuilt = false;
    }
    Set<String> withoutLog = Set.of("T3-WS3-disk-wa", "T3-WS3-mem-wa", "T4-mem-over-baseline",
        "T4-disk-over-baseline");
    for (JsonNode c : v.get("claims")) {
      String id = c.get("id").asText();
      String reason = c.get("reason").asText();
      if (!logBuilt && !withoutLog.contains(id)) {
        assertThat(c.get("verdict").asText()).as(id).isEqualTo("not-comparable");
        assertThat(reason).as(id).contains("TRIAD-LOG not in this build");
      }
      if (logBuilt) {
        assertThat(reason).as(id).doesNotContain("TRIAD-LOG not in this build");
      }
    }
  }

  static void checkSchema(JsonNode v, String paper) {
    assertThat(v.get("paper").asText()).isEqualTo(paper);
    for (String f : List.of("title", "source", "scale", "command", "machine")) {
      assertThat(v.get(f).asText()).as(f).isNotBlank();
    }
    assertThat(v.get("seconds").asDouble()).isPositive();
    assertThat(v.get("config").isObject()).isTrue();
    JsonNode claims = v.get("claims");
    assertThat(claims.isArray()).isTrue();
    assertThat(claims.size()).isPositive();
    int holds = 0;
    int not = 0;
    int nc = 0;
    List<String> seen = new ArrayList<>();
    for (JsonNode c : claims) {
      assertThat(c.fieldNames()).toIterable().containsExactly("id", "claim", "paper", "ours",
          "tolerance", "verdict", "reason");
      String id = c.get("id").asText();
      assertThat(seen).as("ids are unique").doesNotContain(id);
      seen.add(id);
      assertThat(c.get("claim").asText()).as(id).isNotBlank();
      assertThat(c.get("paper").asText()).as(id).isNotBlank();
      String verdict = c.get("verdict").asText();
      assertThat(VERDICTS).as(id).contains(verdict);
      switch (verdict) {
        case "holds" -> holds++;
        case "does-not-hold" -> not++;
        default -> {
          nc++;
          assertThat(c.get("reason").asText()).as(id + " reason").isNotBlank();
        }
      }
      if (!verdict.equals("not-comparable")) {
        assertThat(c.get("ours").asText()).as(id + " ours").isNotBlank();
        assertThat(c.get("tolerance").asText()).as(id + " tolerance").isNotBlank();
      }
    }
    JsonNode s = v.get("summary");
    assertThat(s.get("holds").asInt()).isEqualTo(holds);
    assertThat(s.get("doesNotHold").asInt()).isEqualTo(not);
    assertThat(s.get("notComparable").asInt()).isEqualTo(nc);
  }

  private static List<String> ids(JsonNode v) {
    List<String> ids = new ArrayList<>();
    v.get("claims").forEach(c -> ids.add(c.get("id").asText()));
    return ids;
  }

  private static List<String> expectedIds(String paper) {
    return switch (paper) {
      case "mao" -> List.of("T1-bigtable-k3-n1000-wa", "T1-min-latency-k10-n20000-count",
          "M-H1", "M-H2", "M-H3", "M-H4");
      case "dostoevsky" -> List.of("D-U1", "D-U2", "D-R1", "D-R2", "D-R3", "D-S1", "D-S2",
          "D-T1", "D-T2", "D-T3");
      case "luo-carey" -> List.of("AC-F1-tiering-stable", "AC-F2-leveling", "AC-F3-no-stalls",
          "AC-F4-greedy", "AC-F5-tiering", "AC-F6-leveling-max", "AC-F7-leveling",
          "AC-F8-theorem1", "AC-F9", "AC-F10", "AC-F11", "AC-S1-fair", "AC-S2-small-merges",
          "AC-S3-ratio", "AC-S4", "AC-P1", "AC-P2", "AC-P3", "AC-P4-ratio", "AC-P4-no-stalls",
          "AC-P5", "AC-X1", "AC-X2", "AC-X3", "AC-X4", "AC-X5");
      case "iam" -> List.of("I1-k1-L1", "I1-k1-L2", "I1-k1-mixed", "I1-k1-total",
          "I1-k2-total", "I1-k3-total", "I1-decreasing", "I2-lsa", "I2-iam", "I2-leveled",
          "I2-rank-lsa-iam", "I2-rank-iam-leveled", "I7-lsa-sequential", "I7-iam-sequential",
          "A-scan-ratio", "A-formula4-k2");
      case "triad" -> List.of("T1-WS1-bytes", "T1-WS1-merge-time", "T1-WS1-wa",
          "T1-WS1-throughput-10-90", "T1-WS1-throughput-50-50", "T2-WS2-wa",
          "T2-WS2-merge-time", "T2-WS2-throughput-10-90", "T2-WS2-throughput-50-50",
          "T3-WS3-wa", "T3-WS3-merge-time", "T3-WS3-disk-wa", "T3-WS3-log-wa", "T3-WS3-mem-wa",
          "T4-WS1-mem-share", "T4-WS3-disk-share", "T4-WS3-log-share", "T4-mem-over-baseline",
          "T4-disk-over-baseline", "T4-log-over-baseline", "T7-WS1-precise");
      default -> List.of();
    };
  }

  @Test
  void maoHasEveryCellOfTableOneEvenWhenTheScaleDoesNotRunIt() throws Exception {
    CliTest.Result r = CliTest.run("reproduce", "mao", "--scale", "tiny", "--out",
        tmp.resolve("m").toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode v = JSON.readTree(r.out());
    long tableRows = ids(v).stream().filter(id -> id.startsWith("T1-")).count();
    assertThat(tableRows).isEqualTo(2 * 136);
    for (JsonNode c : v.get("claims")) {
      String id = c.get("id").asText();
      // the tiny scale runs k = 4 and 10 to 1,000 flushes only
      if (id.startsWith("T1-") && (id.contains("-n3000-") || id.contains("-k5-"))) {
        assertThat(c.get("verdict").asText()).as(id).isEqualTo("not-comparable");
      }
      if (id.equals("T1-binomial-k10-n1000-wa")) {
        assertThat(c.get("paper").asText()).isEqualTo("5.4");
        assertThat(c.get("verdict").asText()).isEqualTo("holds");
      }
    }
  }

  @Test
  void aConfigurationFileIsRunAndItsMistakesNamed() throws Exception {
    CliTest.Result printed = CliTest.run("reproduce", "mao", "--scale", "tiny",
        "--print-config");
    assertThat(printed.code()).as(printed.err()).isZero();
    JsonNode cfg = JSON.readTree(printed.out());
    assertThat(cfg.get("flushes").asInt()).isEqualTo(1000);
    Path file = tmp.resolve("mao.json");
    Files.writeString(file, printed.out().replace("\"flushes\" : 1000", "\"flushes\" : 3000"));
    Path out = tmp.resolve("custom");
    CliTest.Result r = CliTest.run("reproduce", "mao", "--config", file.toString(), "--out",
        out.toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode v = JSON.readTree(r.out());
    assertThat(v.get("scale").asText()).isEqualTo("custom");
    assertThat(v.get("config").get("flushes").asInt()).isEqualTo(3000);

    Files.writeString(file, printed.out().replace("\"flushes\"", "\"flushez\""));
    Path refused = tmp.resolve("refused");
    CliTest.Result bad = CliTest.run("reproduce", "mao", "--config", file.toString(), "--out",
        refused.toString());
    assertThat(bad.code()).isNotZero();
    assertThat(bad.err()).contains("flushez");
    assertThat(refused.resolve("verdicts.json")).doesNotExist();
    assertThat(refused.resolve("report.md")).doesNotExist();
  }

  /** iam's device and sweep are checked before any load: a mistake is named, nothing written. */
  @Test
  void iamDeviceAndSweepMistakesAreNamed() throws Exception {
    CliTest.Result printed = CliTest.run("reproduce", "iam", "--scale", "tiny", "--print-config");
    assertThat(printed.code()).as(printed.err()).isZero();
    JsonNode cfg = JSON.readTree(printed.out());
    assertThat(cfg.get("device").get("write-bandwidth").asText()).isEqualTo("300MB");
    assertThat(cfg.get("sweepWriteBandwidths")).hasSize(3);
    String[][] cases = {
        {"\"30MB\"", "\"fast\"", "sweepWriteBandwidths"},
        {"\"30MB\"", "\"32KB\"", "at least 64KB"},
        {"\"write-bandwidth\" : \"300MB\"", "\"write-bandwidth\" : \"-1\"", "write-bandwidth"},
    };
    for (String[] c : cases) {
      assertThat(printed.out()).contains(c[0]);
      Path file = tmp.resolve("iam-bad.json");
      Files.writeString(file, printed.out().replace(c[0], c[1]));
      Path out = tmp.resolve("iam-refused");
      CliTest.Result bad = CliTest.run("reproduce", "iam", "--config", file.toString(), "--out",
          out.toString());
      assertThat(bad.code()).as(c[1]).isNotZero();
      assertThat(bad.err()).as(c[1]).contains(c[2]);
      assertThat(out.resolve("verdicts.json")).doesNotExist();
    }
    Path file = tmp.resolve("iam-nodevice.json");
    com.fasterxml.jackson.databind.node.ObjectNode noDevice = cfg.deepCopy();
    noDevice.putNull("device");
    Files.writeString(file, JSON.writeValueAsString(noDevice));
    CliTest.Result bad = CliTest.run("reproduce", "iam", "--config", file.toString(), "--out",
        tmp.resolve("iam-nodevice").toString());
    assertThat(bad.code()).isNotZero();
    assertThat(bad.err()).contains("a sweep needs a device");
  }

  @Test
  void unknownPapersAndScalesAreRefusedNamingWhatIsAllowed() {
    CliTest.Result paper = CliTest.run("reproduce", "monkey", "--out", tmp.toString());
    assertThat(paper.code()).isEqualTo(2);
    assertThat(paper.err()).contains("unknown paper 'monkey'").contains("dostoevsky")
        .contains("luo-carey").contains("mao").contains("iam").contains("triad");
    CliTest.Result scale = CliTest.run("reproduce", "mao", "--scale", "huge", "--out",
        tmp.toString());
    assertThat(scale.code()).isEqualTo(2);
    assertThat(scale.err()).contains("unknown scale 'huge'").contains("tiny, quick, paper");
    CliTest.Result noOut = CliTest.run("reproduce", "mao");
    assertThat(noOut.code()).isEqualTo(2);
    assertThat(noOut.err()).contains("--out");
    assertThat(tmp.resolve("report.md")).doesNotExist();
    CliTest.Result list = CliTest.run("reproduce", "--list");
    assertThat(list.code()).isZero();
    assertThat(list.out()).contains("mao\t").contains("dostoevsky\t").contains("luo-carey\t");
  }

  @Test
  void theDocsPageKeepsItsHandWrittenPart() throws Exception {
    Path page = tmp.resolve("docs").resolve("mao.md");
    Files.createDirectories(page.getParent());
    Files.writeString(page, "# old generated part\n\n" + DocsPage.KEEP_MARKER
        + "\n\n## Engine runs (hand-written)\n\nkept text\n");
    Path out = tmp.resolve("run");
    CliTest.Result r = CliTest.run("reproduce", "mao", "--scale", "tiny", "--out",
        out.toString(), "--docs", page.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String text = Files.readString(page);
    assertThat(text).startsWith("# Reproducing Mao").doesNotContain("old generated part")
        .contains("--docs " + page).endsWith(DocsPage.KEEP_MARKER
            + "\n\n## Engine runs (hand-written)\n\nkept text\n");
    assertThat(page.getParent().resolve("figures").resolve("mao-observed-vs-model.png"))
        .exists();
  }
}

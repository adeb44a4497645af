package org.strata.crash;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.strata.lsm.Durability;
import org.strata.lsm.io.CrashPoint;

/**
 * The crash-test loop: kill after kill, picks a target (writer kind, policy, durability; the
 * targets in an order shuffled by the seed, in rotation), a {@link KillPlan} (half of the kills at
 * a crash point, half after a random delay), runs a writer child until the kill, and checks the
 * reopened store ({@link CrashVerifier}); the next child of the target goes on from the state
 * found. Prints one line per kill and a summary; everything random comes from the seed.
 */
public final class CrashLoop {
  /** How long a kill waits for its crash point after the first acknowledgement (default). */
  public static final long POINT_WAIT_MILLIS = 6000;

  /**
   * What the loop does.
   *
   * @param kills stop after this many kills
   * @param seconds stop starting kills after this many seconds (0: no limit)
   * @param seed every random choice, and the workload
   * @param writers the writer kinds
   * @param dir where the targets' directories go; must be empty or absent
   * @param javaCommand the java launcher with class path and options that runs {@link CrashChild}
   * @param targets the targets, in rotation order; null: every target of {@code writers}, in an
   *     order shuffled by the seed
   * @param plans the kills' plans, in order (repeated); null: random plans from the seed, a
   *     crash point waited for {@link #POINT_WAIT_MILLIS}
   */
  public record Settings(int kills, long seconds, long seed, List<WriterKind> writers, Path dir,
      List<String> javaCommand, List<CrashTarget> targets, List<KillPlan> plans) {
    /** Every target of {@code writers}, random plans: what {@code strata crashtest} runs. */
    public Settings(int kills, long seconds, long seed, List<WriterKind> writers, Path dir,
        List<String> javaCommand) {
      this(kills, seconds, seed, writers, dir, javaCommand, null, null);
    }
  }

  /**
   * Totals of a loop.
   *
   * @param kills kills done
   * @param atPoint kills at a crash point the child reached
   * @param acked acknowledged writes
   * @param lost acknowledged writes missing after a kill
   * @param lostOutsideWindow of those, the ones the durability mode does not allow
   * @param verifyFailures kills after which a check failed (or the writer could not run)
   * @param leftovers temporary or unlisted files found
   * @param reached the kills at each crash point the child reached
   */
  public record Summary(int kills, int atPoint, long acked, long lost, long lostOutsideWindow,
      int verifyFailures, int leftovers, Map<CrashPoint, Integer> reached) {
    /** Whether the loop passed: nothing lost outside its window, no failure, no leftover. */
    public boolean ok() {
      return lostOutsideWindow == 0 && verifyFailures == 0 && leftovers == 0;
    }
  }

  private static final class TargetState {
    final CrashTarget target;
    final Path dir;
    final Path config;
    CrashState state = CrashState.empty();
    boolean broken;

    TargetState(CrashTarget target, Path dir, Path config) {
      this.target = target;
      this.dir = dir;
      this.config = config;
    }
  }

  private CrashLoop() {}

  /** Runs the loop, printing to {@code out}. */
  public static Summary run(Settings s, PrintWriter out) throws IOException, InterruptedException {
    Files.createDirectories(s.dir());
    Random rnd = new Random(s.seed());
    List<CrashTarget> targets;
    if (s.targets() != null) {
      targets = List.copyOf(s.targets());
    } else {
      targets = new ArrayList<>(CrashTarget.all(s.writers()));
      Collections.shuffle(targets, rnd);
    }
    Map<CrashTarget, TargetState> states = new HashMap<>();
    for (CrashTarget t : targets) {
      Path config = s.dir().resolve(t.name() + ".json");
      Files.writeString(config, t.configJson(), StandardCharsets.UTF_8);
      states.put(t, new TargetState(t, s.dir().resolve(t.name()), config));
    }
    Path stderr = s.dir().resolve("children.stderr");
    out.printf("crashtest: seed %d, %d targets (%s), directory %s%n", s.seed(), targets.size(),
        targets.stream().map(t -> t.writer().configName()).distinct().toList(), s.dir());
    out.flush();
    long started = System.currentTimeMillis();
    int kills = 0;
    int atPoint = 0;
    long acked = 0;
    long lost = 0;
    long outside = 0;
    int failures = 0;
    int leftovers = 0;
    int turn = 0;
    Map<CrashPoint, Integer> reached = new java.util.EnumMap<>(CrashPoint.class);
    Map<String, Integer> tampers = new java.util.TreeMap<>();
    while (kills < s.kills()
        && (s.seconds() == 0 || System.currentTimeMillis() - started < s.seconds() * 1000)) {
      TargetState ts = states.get(targets.get(turn++ % targets.size()));
      KillPlan plan = s.plans() != null ? s.plans().get(kills % s.plans().size())
          : plan(rnd, ts.target.writer());
      if (ts.broken) {
        if (states.values().stream().allMatch(x -> x.broken)) {
          break;
        }
        continue;
      }
      CrashWorkload w = CrashWorkload.of(s.seed(), ts.target.writer());
      long start = ts.state.resumeAfter() + 1;
      long killStarted = System.currentTimeMillis();
      ChildRun.Result r = ChildRun.run(s.javaCommand(), ts.target, ts.dir, ts.config, start,
          s.seed(), plan, stderr);
      kills++;
      long runAcked = r.lastAck() - start + 1;
      acked += runAcked;
      if (r.pointReached()) {
        atPoint++;
        reached.merge(plan.point(), 1, Integer::sum);
      }
      String where = plan.point() == null ? plan.describe()
          : plan.describe() + (r.pointReached() ? "" : " (not reached, killed after "
              + plan.delayMillis() + "ms)");
      long checkStarted = System.currentTimeMillis();
      // The crash image as the kill left it, for a file mix-up after the check.
      Path image = s.dir().resolve("tamper-image");
      CrashTamper.deleteTree(image);
      CrashTamper.copyTree(ts.dir, image);
      CrashVerifier.Outcome o;
      try {
        o = CrashVerifier.check(ts.target, ts.dir, w, ts.state, r);
      } catch (RuntimeException | IOException e) {
        o = new CrashVerifier.Outcome(null, 0, 0, List.of("reopen failed: " + e), List.of());
      }
      List<String> faults = new ArrayList<>(o.faults());
      if (r.failure() != null) {
        faults.add(0, r.failure());
      }
      String tamper = "";
      if (o.state() != null && o.faults().isEmpty()) {
        List<CrashTamper.Kind> kinds = CrashTamper.kindsFor(ts.target);
        CrashTamper.Kind kind = kinds.get(kills % kinds.size());
        Path scratch = s.dir().resolve("tamper-scratch");
        CrashTamper.deleteTree(scratch);
        Files.createDirectories(scratch);
        CrashTamper.Result t;
        try {
          t = CrashTamper.check(kind, ts.target, image, scratch, o.content());
        } catch (IOException | RuntimeException e) {
          t = new CrashTamper.Result(kind, "error", "the mix-up check failed: " + e);
        }
        tamper = " mixup=" + kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + t.outcome()
            .replace(' ', '_');
        tampers.merge(kind.name().toLowerCase(java.util.Locale.ROOT) + " " + t.outcome()
            .replaceAll(" .*", ""), 1, Integer::sum);
        if (t.fault() != null) {
          faults.add("mix-up " + kind + ": " + t.fault());
        }
        CrashTamper.deleteTree(scratch);
      }
      CrashTamper.deleteTree(image);
      lost += o.lost();
      outside += o.lostOutsideWindow();
      leftovers += o.leftovers().size();
      boolean failed = !faults.isEmpty() || o.state() == null;
      if (failed) {
        failures++;
      }
      String verdict = failed ? "FAIL" : "ok";
      long now = System.currentTimeMillis();
      out.printf("kill %d %s/%s/%s %s acked=%d lost=%d%s verify=%s%s%s (run %d ms, check %d"
          + " ms)%n",
          kills,
          ts.target.writer().configName(), ts.target.policy(),
          ts.target.durability().configName(), where, runAcked, o.lost(),
          o.lost() > 0 ? " (" + (o.lostOutsideWindow() > 0 ? o.lostOutsideWindow()
              + " NOT allowed" : ts.target.durability() != Durability.GROUP
              ? "allowed under " + ts.target.durability().configName() : "within the group window")
              + ")" : "",
          verdict, o.leftovers().isEmpty() ? "" : " leftovers=" + o.leftovers(), tamper,
          checkStarted - killStarted, now - checkStarted);
      faults.stream().limit(5).forEach(f -> out.println("  " + f));
      out.flush();
      if (o.state() == null) {
        ts.broken = true; // no known state to go on from
      } else {
        ts.state = o.state();
      }
    }
    long secs = (System.currentTimeMillis() - started) / 1000;
    Summary sum = new Summary(kills, atPoint, acked, lost, outside, failures, leftovers,
        reached);
    out.printf("crashtest summary: seed %d, %d kills in %d s (%d at a crash point): %d writes"
        + " acknowledged, %d lost (%d not allowed by their durability mode), %d verify failures,"
        + " %d leftover files: %s%n", s.seed(), kills, secs, atPoint, acked, lost, outside,
        failures, leftovers, sum.ok() ? "PASS" : "FAIL");
    out.printf("crashtest file mix-ups on the crash images (refused naming the file, harmless,"
        + " or not applicable; any other outcome is a verify failure above): %s%n", tampers);
    out.flush();
    return sum;
  }

  /**
   * This JVM's java launcher and class path (under a test run: the test class path) with the
   * options of a writer child: a small heap, quick start, JVM messages on standard error (standard
   * output is the acknowledgement channel).
   */
  public static List<String> javaCommand() {
    String cp = System.getProperty("surefire.test.class.path");
    if (cp == null || cp.isBlank()) {
      cp = System.getProperty("java.class.path");
    }
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-XX:+DisplayVMOutputToStderr", "-Dstrata.log.level=error",
        "-Dstrata.log.file=" + Path.of(System.getProperty("java.io.tmpdir"),
            "strata-crashtest-children.log"), "-cp", cp);
  }

  /** A kill at a crash point (half the time) or after a delay of 0.1 to 1.6 s. */
  static KillPlan plan(Random rnd, WriterKind writer) {
    if (rnd.nextBoolean()) {
      List<CrashPoint> points = new ArrayList<>(List.of(CrashPoint.values()));
      if (!writer.dataset()) {
        points.remove(CrashPoint.DATASET_BETWEEN_INDEXES);
      }
      CrashPoint p = points.get(rnd.nextInt(points.size()));
      return new KillPlan(p, 1 + rnd.nextInt(3), POINT_WAIT_MILLIS);
    }
    return new KillPlan(null, 1, 100 + rnd.nextInt(1500));
  }
}

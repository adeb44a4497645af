package org.strata.lsm.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeWindow;
import org.strata.lsm.spi.PolicyDriver;
import org.strata.lsm.spi.PolicyHost;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * The one {@link MergeContext} of the policy tests: a {@link RunList} the test lays out, on which a
 * policy's requests are checked as every host checks them ({@link RunList#check}) and recorded.
 * A merge is either left running, its inputs marked merging (the default, as the engine's
 * background merges are), or done at once ({@link #mergingAtOnce()}: Mao et al.'s model, the
 * output one run of the inputs' bytes). Moves are always done at once, as the engine does them.
 * Subclasses add layouts (an LSA/IAM tree's, for instance); the checks and the records stay here.
 */
public class PolicyTestHost implements MergeContext, PolicyDriver.Host {
  private RunList list = RunList.EMPTY;
  private final List<MergeRequest> requests = new ArrayList<>();
  private final List<List<RunInfo>> mergedRuns = new ArrayList<>();
  /** What this host offers; it refuses the requests of kinds it does not model. */
  private final PolicyHost host;
  private boolean atOnce;
  private boolean moved;
  private long largestFlush;
  private long nextRun = 1;
  private int nextFile = 1;
  private long bytesWritten;
  private long bytesFlushed;

  /** A host offering {@code offered} (none: whole runs only). */
  public PolicyTestHost(Capability... offered) {
    this.host = new PolicyHost("the policy test host", Set.of(offered), "");
  }

  /** Merges complete at once from here on: the output replaces the inputs before the call ends. */
  public PolicyTestHost mergingAtOnce() {
    atOnce = true;
    return this;
  }

  /** The largest flush the host reports (M); 0, the default, leaves it to the runs. */
  public PolicyTestHost largestFlush(long bytes) {
    largestFlush = bytes;
    return this;
  }

  /** A file named {@code name} of {@code bytes} over the keys {@code min..max} ({@link #key}). */
  public static ComponentInfo file(String name, int min, int max, long bytes) {
    return new ComponentInfo(name, 1, 1, bytes, bytes, 1, key(min), key(max));
  }

  /** Key {@code k} as six ASCII digits, so that keys sort as numbers. */
  public static byte[] key(int k) {
    return String.format("%06d", k).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  /** Adds a run of one component of {@code bytes} at {@code level} as the newest run. */
  public PolicyTestHost newest(int level, long bytes) {
    long id = nextRun;
    return newest(level, new ComponentInfo("c" + nextFile++, id, id, bytes, bytes, 1,
        new byte[0], new byte[0]));
  }

  /** Adds a run of {@code files} (in key order) at {@code level} as the newest run. */
  public PolicyTestHost newest(int level, ComponentInfo... files) {
    list = list.addNewest(new RunInfo(nextRun++, level, List.of(files), false));
    return this;
  }

  /** Adds a run of one component of {@code bytes} at {@code level} as the oldest run. */
  public PolicyTestHost oldest(int level, long bytes) {
    long id = nextRun;
    return oldest(level, new ComponentInfo("c" + nextFile++, id, id, bytes, bytes, 1,
        new byte[0], new byte[0]));
  }

  /**
   * Adds a run of {@code files} (in key order) at {@code level} as the oldest run; lay runs out
   * before merges start (a run with some files merging would count as merging whole).
   */
  public PolicyTestHost oldest(int level, ComponentInfo... files) {
    List<RunInfo> runs = new ArrayList<>(list.runs());
    runs.add(new RunInfo(nextRun++, level, List.of(files), false));
    list = RunList.of(runs);
    return this;
  }

  /** Replaces the run list (for layouts the builders above do not make). */
  public final PolicyTestHost runList(RunList runs) {
    list = runs;
    for (RunInfo r : runs.runs()) {
      nextRun = Math.max(nextRun, r.runId() + 1);
    }
    return this;
  }

  /**
   * Ends every merge under way without applying it: its inputs stay where they are and are no
   * longer merging (a test of which merge a policy picks next, whatever became of the last).
   */
  public PolicyTestHost abandonMerges() {
    for (MergeRequest r : requests) {
      if (!(r instanceof MergeRequest.Move)) {
        list = list.clearMerging(r);
      }
    }
    return this;
  }

  /** Marks the run at {@code index} (0 = newest) merging, as a merge of another host would. */
  public PolicyTestHost markMerging(int index) {
    List<RunInfo> runs = new ArrayList<>(list.runs());
    RunInfo r = runs.get(index);
    runs.set(index, new RunInfo(r.runId(), r.level(), r.components(), true));
    list = RunList.of(runs);
    return this;
  }

  /** A run id no run of the list has had from this host, for layouts a subclass builds. */
  protected final long newRunId() {
    return nextRun++;
  }

  /** Flushes a run of {@code bytes} (level 0, newest) and calls {@code policy} as a host does. */
  public void flush(MergePolicy policy, long bytes) {
    newest(0, bytes);
    bytesFlushed += bytes;
    bytesWritten += bytes;
    decide(policy, false);
  }

  /**
   * Asks {@code policy} for merges through the {@link PolicyDriver}, as every host does after a
   * disk component was added (or, with {@code fullMerge}, a full merge was asked for), and starts
   * what it returns; returns the requests started.
   */
  public List<MergeRequest> decide(MergePolicy policy, boolean fullMerge) {
    return new PolicyDriver("the policy under test", policy).diskComponentAdded(this, fullMerge,
        this);
  }

  /** The run list as it is now. */
  public final RunList runList() {
    return list;
  }

  /** Every request the host accepted, in order (moves included). */
  public List<MergeRequest> requests() {
    return List.copyOf(requests);
  }

  /** The input files of every accepted partitioned merge, by name, in order. */
  public List<List<String>> mergedFiles() {
    List<List<String>> out = new ArrayList<>();
    for (MergeRequest r : requests) {
      if (r instanceof MergeRequest.Components c) {
        out.add(c.componentNames());
      }
    }
    return out;
  }

  /** The input runs of every accepted merge of whole runs, as the policy named them, in order. */
  public List<List<RunInfo>> mergedRuns() {
    return List.copyOf(mergedRuns);
  }

  /** Bytes flushed and merged so far (merges done at once only), for write amplification. */
  public long bytesWritten() {
    return bytesWritten;
  }

  /** Bytes flushed through {@link #flush}. */
  public long bytesFlushed() {
    return bytesFlushed;
  }

  /** The bytes of the input runs of every accepted merge of whole runs, in order. */
  public List<List<Long>> mergedSizes() {
    List<List<Long>> out = new ArrayList<>();
    for (List<RunInfo> m : mergedRuns) {
      List<Long> sizes = new ArrayList<>();
      m.forEach(r -> sizes.add(r.sizeBytes()));
      out.add(sizes);
    }
    return out;
  }

  /** Every accepted merge of whole runs as "inputs -> output level", inputs by {@link #shape}. */
  public List<String> mergeShapes() {
    List<String> out = new ArrayList<>();
    int i = 0;
    for (MergeRequest r : requests) {
      if (r instanceof MergeRequest.Runs) {
        out.add(shape(mergedRuns.get(i++)) + " -> " + r.outputLevel());
      }
    }
    return out;
  }

  /** "level:bytes" of each run, newest first, space-separated. */
  public static String shape(List<RunInfo> runs) {
    StringBuilder b = new StringBuilder();
    for (RunInfo r : runs) {
      b.append(b.length() == 0 ? "" : " ").append(r.level()).append(':').append(r.sizeBytes());
    }
    return b.toString();
  }

  @Override
  public List<RunInfo> runs() {
    return list.runs();
  }

  @Override
  public Set<Capability> capabilities() {
    return host.offered();
  }

  @Override
  public long largestFlushBytes() {
    return largestFlush;
  }

  /**
   * Checks a request as every host does ({@link RunList#check}) and records it: a merge is left
   * running or done at once ({@link #mergingAtOnce()}), a move is done at once.
   */
  @Override
  public boolean start(MergeRequest request) {
    host.requireModelled(request);
    if (request instanceof MergeRequest.Move m) {
      if (list.check(m).isPresent()) {
        return false;
      }
      list = list.apply(m, List.of(), () -> nextRun++);
      requests.add(m);
      moved = true;
      return true;
    }
    List<RunInfo> inputs = request instanceof MergeRequest.Runs r ? runsOf(r) : null;
    if (!accept(request)) {
      return false;
    }
    if (inputs != null) {
      mergedRuns.add(inputs);
    }
    return true;
  }

  /**
   * A move changed the list at once, so the policy is asked again, as the engine asks it; merges
   * done at once ({@link #mergingAtOnce()}) are not followed by another call.
   */
  @Override
  public boolean takeChangedAtOnce() {
    boolean m = moved;
    moved = false;
    return m;
  }

  /** The runs a request of whole runs names, as the list holds them now (gone ones left out). */
  private List<RunInfo> runsOf(MergeRequest.Runs r) {
    List<RunInfo> out = new ArrayList<>();
    for (long id : r.runIds()) {
      for (RunInfo run : list.runs()) {
        if (run.runId() == id) {
          out.add(run);
        }
      }
    }
    return out;
  }

  private boolean accept(MergeRequest r) {
    if (list.check(r).isPresent()) {
      return false;
    }
    requests.add(r);
    if (!atOnce) {
      list = list.markMerging(r);
      return true;
    }
    MergeWindow w = list.window(r);
    long bytes = 0;
    long minId = Long.MAX_VALUE;
    long maxId = Long.MIN_VALUE;
    for (ComponentInfo c : w.components()) {
      bytes += c.sizeBytes();
      minId = Math.min(minId, c.minComponentId());
      maxId = Math.max(maxId, c.maxComponentId());
    }
    bytesWritten += bytes;
    ComponentInfo out = new ComponentInfo("c" + nextFile++, minId, maxId, bytes,
        bytes, 1, new byte[0], new byte[0]);
    list = list.apply(r, List.of(out), nextRun++);
    return true;
  }

}

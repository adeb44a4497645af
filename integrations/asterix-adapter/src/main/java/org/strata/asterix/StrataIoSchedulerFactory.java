package org.strata.asterix;

import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;
import org.apache.hyracks.storage.am.lsm.common.api.IIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationSchedulerFactory;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;

/**
 * Creates {@link StrataIoScheduler}s the way AsterixDB creates its I/O scheduler: with Hyracks'
 * thread factory, failure callback and the node's flush and merge limits. Its properties:
 *
 * <ul>
 *   <li>{@value #SCHEDULER}: the Strata merge scheduler ({@code single-thread}, {@code fair},
 *       {@code greedy}, ...); default {@code greedy}, AsterixDB's default too;
 *   <li>{@value #SCOPE}: {@code index} (default: one Strata scheduler per index) or {@code node};
 *   <li>every other property is a parameter of that scheduler, with Strata's names.
 * </ul>
 *
 * Of the limits AsterixDB passes, {@code maxNumRunningFlushes} is applied as Hyracks does; {@code
 * maxNumRunningMerges} becomes greedy's {@code max-concurrent-merges} for the node scope when that
 * parameter is not given; {@code maxNumScheduledMerges} is not applied (a Strata scheduler accepts
 * every merge its policy asks for). docs/asterixdb.md explains the choice.
 */
public final class StrataIoSchedulerFactory implements ILSMIOOperationSchedulerFactory {
  /** The property naming the Strata scheduler. */
  public static final String SCHEDULER = "scheduler";
  /** The property choosing {@code index} or {@code node} scope. */
  public static final String SCOPE = "scope";

  private final NamedPlugin scheduler;
  private final StrataIoScheduler.Scope scope;

  /**
   * @param properties {@value #SCHEDULER}, {@value #SCOPE} and the scheduler's parameters
   * @throws InvalidConfigurationException for an unknown scheduler, scope or parameter, with
   *     Strata's message
   */
  public StrataIoSchedulerFactory(Map<String, String> properties) {
    Map<String, String> p = new HashMap<>(properties == null ? Map.of() : properties);
    String name = p.remove(SCHEDULER);
    String scopeName = p.remove(SCOPE);
    this.scheduler = new NamedPlugin(name == null ? "greedy" : name.trim(), new TreeMap<>(p));
    StrataIoScheduler.check(scheduler); // a bad name or parameter fails here with Strata's message
    if (scopeName == null || scopeName.trim().equals("index")) {
      this.scope = StrataIoScheduler.Scope.INDEX;
    } else if (scopeName.trim().equals("node")) {
      this.scope = StrataIoScheduler.Scope.NODE;
    } else {
      throw InvalidConfigurationException.of("merge-scheduler '" + scheduler.name()
          + "' parameter " + SCOPE, scopeName, "index, node");
    }
  }

  /** The properties the factory accepts besides the scheduler's own parameters. */
  public static Set<String> ownProperties() {
    return Set.of(SCHEDULER, SCOPE);
  }

  @Override
  public ILSMIOOperationScheduler createIoScheduler(ThreadFactory threadFactory,
      IIoOperationFailedCallback callback, int maxNumRunningFlushes, int maxNumScheduledMerges,
      int maxNumRunningMerges) {
    NamedPlugin effective = scheduler;
    if (scope == StrataIoScheduler.Scope.NODE && scheduler.name().equals("greedy")
        && !scheduler.parameters().containsKey("max-concurrent-merges")
        && maxNumRunningMerges > 0) {
      Map<String, String> p = new TreeMap<>(scheduler.parameters());
      p.put("max-concurrent-merges", Integer.toString(maxNumRunningMerges));
      effective = new NamedPlugin(scheduler.name(), p);
    }
    return new StrataIoScheduler(effective, scope, threadFactory, callback,
        Math.max(0, maxNumRunningFlushes));
  }

  @Override
  public String getName() {
    return "strata-" + scheduler.name();
  }

  /**
   * The properties this factory was made with, {@value #SCHEDULER} and {@value #SCOPE} included.
   */
  public Map<String, String> properties() {
    Map<String, String> p = new TreeMap<>(scheduler.parameters());
    p.put(SCHEDULER, scheduler.name());
    p.put(SCOPE, scope.name().toLowerCase(Locale.ROOT));
    return Collections.unmodifiableMap(p);
  }
}

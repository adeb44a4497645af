package org.strata.asterixdb;

import org.apache.asterix.app.io.PersistedResourceRegistry;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.asterix.hyracks.bootstrap.NCApplication;
import org.apache.hyracks.api.application.IServiceContext;
import org.apache.hyracks.api.config.IConfigManager;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.strata.lsm.io.Clock;

/**
 * AsterixDB's node controller application with Strata's classes in the persisted-resource
 * registry ({@code [nc] app.class}): each index's stored resource names its merge policy factory
 * and I/O scheduler provider, so every start of a node that holds Strata datasets must use this
 * class (or opening them fails with AsterixDB's "Class ... was not registered"). It also owns the
 * node's Strata schedulers ({@link NodeSchedulers}), made on first use and closed when the node
 * stops.
 */
public class StrataNCApplication extends NCApplication {
  private NodeSchedulers schedulers;
  private ConfigManager configManager;
  private ExtensionSettings settings;
  private volatile boolean embedded;
  private StrataRateLimiterProvider rateLimiters;
  private INcApplicationContext budgeted;
  private INcApplicationContext budgetedOf;

  /**
   * Marks the application as part of an {@link EmbeddedCluster}, whose own shutdown hook stops
   * every controller in order; AsterixDB's per-controller hook is then not installed (it would
   * stop the node controller a second time, concurrently).
   */
  void embedded() {
    embedded = true;
  }

  @Override
  protected void installShutdownHook() {
    if (!embedded) {
      super.installShutdownHook();
    }
  }

  @Override
  protected void uninstallShutdownHook() {
    if (!embedded) {
      super.uninstallShutdownHook();
    }
  }

  @Override
  public void registerConfig(IConfigManager configManager) {
    super.registerConfig(configManager);
    this.configManager = (ConfigManager) configManager;
  }

  /**
   * Reads the extension's section before AsterixDB starts the node, so a bad key stops the start
   * with a message naming it.
   */
  @Override
  public void init(IServiceContext serviceCtx) throws Exception {
    settings();
    super.init(serviceCtx);
  }

  /** The extension's settings in this node's configuration. */
  public synchronized ExtensionSettings settings() {
    if (settings == null) {
      settings = configManager == null ? ExtensionSettings.DEFAULTS
          : ExtensionSettings.of(configManager);
    }
    return settings;
  }

  @Override
  protected void configurePersistedResourceRegistry() {
    ncServiceCtx.setPersistedResourceRegistry(new PersistedResourceRegistry() {
      @Override
      protected void registerClasses() {
        super.registerClasses();
        for (PolicyRow row : PolicyRow.values()) {
          registeredClasses.put(row.factoryClass().getSimpleName(), row.factoryClass());
        }
        registeredClasses.put(StrataSchedulerProvider.class.getSimpleName(),
            StrataSchedulerProvider.class);
      }
    });
  }

  /**
   * AsterixDB's application context of this node; when the extension's section sets {@code
   * io.write-rate-limit}, a view of it whose rate limiter provider is Strata's ({@link
   * StrataRateLimiterProvider}): every other call goes to AsterixDB's context. Every page-write
   * callback of the node reaches its limiters through this method (the node's service context
   * asks the application), so the budget applies without a change to AsterixDB.
   */
  @Override
  public INcApplicationContext getApplicationContext() {
    INcApplicationContext real = super.getApplicationContext();
    if (real == null || settings().writeRateLimit() <= 0) {
      return real;
    }
    synchronized (this) {
      if (budgetedOf != real) {
        budgeted = BudgetedContext.wrap(real, rateLimiters());
        budgetedOf = real;
      }
      return budgeted;
    }
  }

  /**
   * The node's Strata I/O budget, or null when the extension's section sets no {@code
   * io.write-rate-limit}.
   */
  public synchronized StrataRateLimiterProvider rateLimiters() {
    if (rateLimiters == null && settings().writeRateLimit() > 0) {
      rateLimiters = new StrataRateLimiterProvider(settings().writeRateLimit(), Clock.system(),
          t -> schedulers().runsFlushOn(t));
    }
    return rateLimiters;
  }

  /** The node's Strata schedulers (made on first use from the node's configuration). */
  public synchronized NodeSchedulers schedulers() {
    if (schedulers == null) {
      schedulers = new NodeSchedulers(ncServiceCtx.getNodeId(),
          settings(), ncServiceCtx.getThreadFactory());
    }
    return schedulers;
  }

  @Override
  public void stop() throws Exception {
    try {
      super.stop();
    } finally {
      NodeSchedulers s;
      synchronized (this) {
        s = schedulers;
        schedulers = null;
      }
      if (s != null) {
        s.close();
      }
    }
  }
}

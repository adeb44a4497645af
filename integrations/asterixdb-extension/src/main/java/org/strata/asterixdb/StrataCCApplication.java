package org.strata.asterixdb;

import org.apache.asterix.common.cluster.IGlobalRecoveryManager;
import org.apache.asterix.file.StorageComponentProvider;
import org.apache.asterix.hyracks.bootstrap.CCApplication;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationSchedulerProvider;

/**
 * AsterixDB's cluster controller application with Strata's I/O scheduler provider ({@code [cc]
 * app.class}): every user dataset created from then on records {@link StrataSchedulerProvider} in
 * its indexes' resources, so its flushes and merges go to Strata's schedulers on every node.
 * AsterixDB's metadata datasets keep the built-in scheduler.
 *
 * <p>The provider is put in place in {@link #createGlobalRecoveryManager}, the last protected
 * hook AsterixDB 0.9.8's {@code CCApplication.start} calls before it builds the application
 * context from the component provider.
 */
public class StrataCCApplication extends CCApplication {
  private volatile boolean embedded;

  /**
   * Marks the application as part of an {@link EmbeddedCluster}, whose own shutdown hook stops
   * every controller in order; AsterixDB's per-controller hook is then not installed (it would
   * stop the cluster controller a second time, concurrently).
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
  protected IGlobalRecoveryManager createGlobalRecoveryManager() throws Exception {
    componentProvider = new StorageComponentProvider() {
      @Override
      public ILSMIOOperationSchedulerProvider getIoOperationSchedulerProvider() {
        return StrataSchedulerProvider.INSTANCE;
      }
    };
    return super.createGlobalRecoveryManager();
  }
}

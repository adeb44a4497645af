package org.strata.asterixdb;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationSchedulerProvider;

/**
 * The I/O scheduler provider stored in every index resource of a user dataset: it hands each
 * index the {@link NodeSchedulers} of the node it opens on, which sends the index's flushes and
 * merges to the Strata scheduler the extension's section chooses for its dataset. Stateless: the
 * schedulers belong to the node's {@link StrataNCApplication}.
 */
public final class StrataSchedulerProvider implements ILSMIOOperationSchedulerProvider {
  private static final long serialVersionUID = 1L;

  /** The one instance (it has no state). */
  public static final StrataSchedulerProvider INSTANCE = new StrataSchedulerProvider();

  private StrataSchedulerProvider() {}

  /**
   * The node's schedulers.
   *
   * @throws IllegalStateException if the node does not run {@link StrataNCApplication}
   */
  @Override
  public ILSMIOOperationScheduler getIoScheduler(INCServiceContext ctx) {
    Object app = ctx.getControllerService() instanceof NodeControllerService nc
        ? nc.getApplication() : null;
    if (!(app instanceof StrataNCApplication strata)) {
      throw new IllegalStateException("node " + ctx.getNodeId() + " holds a dataset with Strata"
          + " schedulers but runs " + (app == null ? "no AsterixDB application" : app.getClass()
          .getName()) + "; set [nc] app.class = " + StrataNCApplication.class.getName());
    }
    return strata.schedulers();
  }

  @Override
  public JsonNode toJson(IPersistedResourceRegistry registry) throws HyracksDataException {
    return registry.getClassIdentifier(getClass(), serialVersionUID);
  }

  /** Hyracks' JSON counterpart of {@link #toJson}. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return INSTANCE;
  }

  private Object readResolve() {
    return INSTANCE;
  }
}

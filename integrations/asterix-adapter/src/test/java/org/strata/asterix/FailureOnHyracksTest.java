package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.IIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMPageWriteCallbackFactory;
import org.apache.hyracks.storage.common.IIndexBulkLoader;
import org.apache.hyracks.storage.common.IResource;
import org.apache.hyracks.storage.common.buffercache.ICachedPage;
import org.apache.hyracks.storage.common.buffercache.IPageWriteCallback;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;

/**
 * A real Hyracks flush that fails (its page writes throw, as a full or broken disk would make them)
 * is reported to Hyracks' failure callback and completed, and the index's later flushes fail at
 * once, as Hyracks' own schedulers do; the scheduler itself keeps serving.
 */
class FailureOnHyracksTest {
  /** Page writes that throw while {@code failing} is set. */
  static final class FailingPageWrites implements ILSMPageWriteCallbackFactory {
    private static final long serialVersionUID = 1L;
    final transient AtomicBoolean failing = new AtomicBoolean();

    @Override
    public void initialize(INCServiceContext ctx, IResource resource) {}

    @Override
    public IPageWriteCallback createPageWriteCallback() {
      return new IPageWriteCallback() {
        @Override
        public void initialize(IIndexBulkLoader bulkLoader) {}

        @Override
        public void beforeWrite(ICachedPage page) throws HyracksDataException {
          if (failing.get()) {
            throw HyracksDataException.create(new java.io.IOException("injected: disk full"));
          }
        }

        @Override
        public void afterWrite(ICachedPage page) {}
      };
    }

    @Override
    public JsonNode toJson(IPersistedResourceRegistry registry) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aFailedFlushIsReportedCompletedAndFailsTheIndexsLaterFlushes() throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-fail-").toFile();
    List<Throwable> reported = new CopyOnWriteArrayList<>();
    IIoOperationFailedCallback callback = new IIoOperationFailedCallback() {
      @Override
      public void operationFailed(ILSMIOOperation op, Throwable t) {
        reported.add(t);
      }

      @Override
      public void schedulerFailed(ILSMIOOperationScheduler s, Throwable t) {
        reported.add(t);
      }
    };
    StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin("greedy", Map.of()),
        StrataIoScheduler.Scope.INDEX, Thread::new, callback, 1);
    FailingPageWrites pageWrites = new FailingPageWrites();
    HyracksTree tree = new HyracksTree(dir, new StrataMergePolicyFactory().createMergePolicy(
        Map.of("policy", "binomial", "num-components", "3"), null), io, pageWrites, 64);
    try {
      for (int k = 0; k < 500; k++) {
        tree.insert(k, k * 7);
      }
      tree.flush();
      pageWrites.failing.set(true);
      for (int k = 500; k < 1000; k++) {
        tree.insert(k, k * 7);
      }
      ILSMIOOperation failed = tree.scheduleFlush();
      failed.sync();
      assertThat(failed.getStatus()).isEqualTo(LSMIOOperationStatus.FAILURE);
      assertThat(failed.isCompleted()).isTrue();
      assertThat(reported).hasSize(1);
      assertThat(rootMessages(reported.get(0))).contains("injected: disk full");

      pageWrites.failing.set(false);
      ILSMIOOperation later = tree.scheduleFlush();
      later.sync();
      assertThat(later.getStatus()).isEqualTo(LSMIOOperationStatus.FAILURE);
      assertThat(later.getFailure()).hasMessageContaining("an earlier flush of index")
          .hasMessageContaining("failed");
      assertThat(io.operationsFailed()).isEqualTo(1);
      assertThat(tree.diskComponentCount()).isEqualTo(1);
      for (int k = 0; k < 500; k++) {
        assertThat(tree.get(k)).isEqualTo(k * 7);
      }
    } finally {
      try {
        tree.close();
      } catch (Exception expected) {
        // closing flushes the memory component, which this index can no longer do
      }
      io.close();
    }
  }

  private static String rootMessages(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c.getMessage()).append(" | ");
    }
    return sb.toString();
  }
}

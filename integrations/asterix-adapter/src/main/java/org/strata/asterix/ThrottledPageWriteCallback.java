package org.strata.asterix;

import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponentBulkLoader;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.common.IIndexBulkLoader;
import org.apache.hyracks.storage.common.buffercache.ICachedPage;
import org.apache.hyracks.storage.common.buffercache.IPageWriteCallback;
import org.strata.lsm.io.IoThrottle;

/**
 * The page-write callback of one Hyracks flush, merge or bulk load: before each page it takes the
 * page's bytes from Strata's {@link IoThrottle} (flushes at priority, as in Strata's engine), and
 * after every {@code forceBytes} written it forces the component's files.
 */
final class ThrottledPageWriteCallback implements IPageWriteCallback {
  private final IoThrottle throttle;
  private final long forceBytes;
  private final PageWriteStats stats;
  private IIndexBulkLoader bulkLoader;
  private boolean flush;
  private long sinceForce;

  ThrottledPageWriteCallback(IoThrottle throttle, long forceBytes, PageWriteStats stats) {
    this.throttle = throttle;
    this.forceBytes = forceBytes;
    this.stats = stats;
  }

  @Override
  public void initialize(IIndexBulkLoader loader) {
    this.bulkLoader = loader;
    this.flush = loader instanceof ILSMDiskComponentBulkLoader
        && ((ILSMDiskComponentBulkLoader) loader).getOperation() != null
        && ((ILSMDiskComponentBulkLoader) loader).getOperation().getIOOpertionType()
            == LSMIOOperationType.FLUSH;
  }

  @Override
  public void beforeWrite(ICachedPage page) throws HyracksDataException {
    try {
      throttle.acquire(pageBytes(page), flush);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw HyracksDataException.create(e);
    }
  }

  @Override
  public void afterWrite(ICachedPage page) throws HyracksDataException {
    long b = pageBytes(page);
    stats.written(flush, b);
    sinceForce += b;
    if (forceBytes > 0 && sinceForce >= forceBytes && bulkLoader != null) {
      bulkLoader.force();
      stats.forced();
      sinceForce = 0;
    }
  }

  private static long pageBytes(ICachedPage page) {
    return (long) page.getPageSize() * Math.max(1, page.getFrameSizeMultiplier());
  }
}

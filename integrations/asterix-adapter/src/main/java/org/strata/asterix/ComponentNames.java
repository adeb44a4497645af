package org.strata.asterix;

import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;

/** How Strata names a Hyracks disk component, for tools that list an index's components. */
public final class ComponentNames {
  private ComponentNames() {}

  /**
   * The component's sequence name {@code S_E}, from its files: the first and last flush sequence
   * numbers it holds. A Strata policy sees them plus one as the component's ids.
   */
  public static String of(ILSMDiskComponent c) {
    return HyracksMergeContext.name(c);
  }
}

package org.strata.lsm.component;

/** The kinds of page in a disk component file; the byte is stored in every page header. */
public enum PageType {
  LEAF(1),
  INTERIOR(2),
  BLOOM(3),
  META(4),
  SKETCH(5);

  private final int code;

  PageType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The types indexed by code (never written after class initialisation). */
  private static final PageType[] BY_CODE = new PageType[6];

  static {
    for (PageType t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  /** The type with {@code code}, or null. Called for every page read, so it allocates nothing. */
  public static PageType of(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}

package org.strata.lsm.spi;

/**
 * What a merge policy may know about one disk component: an immutable B+-tree file.
 *
 * @param name unique name of the component within its index (its file name without directory)
 * @param minComponentId first flush ordinal covered (a flush's component covers exactly one
 *     ordinal)
 * @param maxComponentId last flush ordinal covered
 * @param sizeBytes file size in bytes
 * @param entryCount number of entries, anti-matter included
 * @param pageCount number of pages (leaf and interior) in the file
 * @param minKey smallest key held (do not modify)
 * @param maxKey largest key held (do not modify)
 */
public record ComponentInfo(
    String name,
    long minComponentId,
    long maxComponentId,
    long sizeBytes,
    long entryCount,
    long pageCount,
    byte[] minKey,
    byte[] maxKey) {}

/**
 * The disk component: one immutable, bulk-loaded B+-tree file with a Bloom filter, a key sketch
 * and a metadata page (docs/format.md). Writing ({@link
 * org.strata.lsm.component.ComponentWriter}, {@link org.strata.lsm.component.PageBuilder}),
 * reading ({@link org.strata.lsm.component.DiskComponent} through the store-wide {@link
 * org.strata.lsm.component.PageCache}, and {@link
 * org.strata.lsm.component.SequentialLeafScanner} for the input side of a merge), the on-disk
 * framing ({@link org.strata.lsm.component.PageCodec}, {@link org.strata.lsm.component.Footer},
 * {@link org.strata.lsm.component.ComponentMeta}, {@link org.strata.lsm.component.Varint}) and the
 * end-to-end check of a file ({@link org.strata.lsm.component.ComponentVerifier}). This package
 * knows nothing of runs, versions or merges; the engine names, forces and renames the files
 * ({@code org.strata.lsm.engine.ComponentFiles}).
 */
package org.strata.lsm.component;

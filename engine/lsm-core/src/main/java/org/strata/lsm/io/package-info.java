/**
 * What the engine needs from the operating system, behind small seams that tests replace: time
 * ({@link org.strata.lsm.io.Clock}), file creation and writing ({@link org.strata.lsm.io.FileIo},
 * {@link org.strata.lsm.io.WritableFile}), the exclusive directory lock ({@link
 * org.strata.lsm.io.DirectoryLock}), directory forces and clean-up of a refused open ({@link
 * org.strata.lsm.io.Directories}, {@link org.strata.lsm.io.CreatedPaths}), the store-wide write
 * budget of flushes and merges ({@link org.strata.lsm.io.IoThrottle}), the logging of a
 * background operation that keeps failing ({@link org.strata.lsm.io.RepeatedFailures}) and
 * big-endian integer codecs ({@link org.strata.lsm.io.BigEndian}).
 */
package org.strata.lsm.io;

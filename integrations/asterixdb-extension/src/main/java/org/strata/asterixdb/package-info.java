/**
 * Strata as an AsterixDB 0.9.8 extension: {@link org.strata.asterixdb.StrataExtension} adds a
 * {@code CompactionPolicy} row per Strata merge policy ({@link org.strata.asterixdb.PolicyRow},
 * {@link org.strata.asterixdb.StrataPolicyFactories}), and the controller applications ({@link
 * org.strata.asterixdb.StrataCCApplication}, {@link org.strata.asterixdb.StrataNCApplication})
 * give every user dataset Strata's I/O schedulers ({@link org.strata.asterixdb.NodeSchedulers},
 * {@link org.strata.asterixdb.StrataSchedulerProvider}) as the extension's section ({@link
 * org.strata.asterixdb.ExtensionSettings}) chooses. {@link org.strata.asterixdb.EmbeddedCluster}
 * runs a cluster in one JVM, and {@link org.strata.asterixdb.AsterixDbTarget} makes it a system
 * under test of the two-phase runner. The Hyracks-level pieces it installs live in {@code
 * org.strata.asterix}; docs/asterixdb.md is the user's view.
 */
package org.strata.asterixdb;

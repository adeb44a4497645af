/**
 * {@code strata asterixdb} ({@link org.strata.asterixdb.cli.AsterixDbCommand}), run from the
 * extension's own launcher: {@code start} an embedded cluster ({@link
 * org.strata.asterixdb.cli.StartCommand}), send SQL++ to it ({@link
 * org.strata.asterixdb.cli.SqlCommand}) and run the two-phase experiment against it ({@link
 * org.strata.asterixdb.cli.AsterixDbTwoPhaseCommand}).
 */
package org.strata.asterixdb.cli;

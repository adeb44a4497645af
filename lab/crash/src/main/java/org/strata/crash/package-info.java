/**
 * The crash-test loop ({@code strata crashtest}, docs/reliability.md): a writer process ({@link
 * org.strata.crash.CrashChild}) writes a deterministic sequence of operations ({@link
 * org.strata.crash.CrashWorkload}) and acknowledges each; the parent ({@link
 * org.strata.crash.CrashLoop}) kills it with SIGKILL at a named crash point of the engine or after
 * a random delay, reopens the store or dataset and checks it ({@link
 * org.strata.crash.CrashVerifier}) against a model of the acknowledged writes ({@link
 * org.strata.crash.CrashModel}).
 */
package org.strata.crash;

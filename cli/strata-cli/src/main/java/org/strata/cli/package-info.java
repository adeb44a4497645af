/**
 * The {@code strata} command line ({@code bin/strata}), on picocli: {@link org.strata.cli.Main}
 * lists the subcommands and maps failures to exit codes and one error line ({@link
 * org.strata.cli.ErrorLine}). Store commands ({@code put}, {@code get}, {@code scan}, {@code
 * delete}, {@code load}, {@code readbench}, {@code stats}, {@code verify}), dataset commands
 * ({@code import}, {@code query}, {@code gen-records}, {@code feed-server}), experiments ({@code
 * two-phase}, {@code compare}) and the models ({@code simulate}, {@code figures}, {@code des},
 * {@code tune}) each have their {@code *Command} class; a command that works on a directory writes
 * the directory's {@code LOG} ({@link org.strata.cli.StoreLog}).
 */
package org.strata.cli;

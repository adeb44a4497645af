package org.strata.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.RollingFileAppender;
import org.apache.logging.log4j.core.appender.rolling.DefaultRolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.SizeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.config.AbstractConfiguration;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code LOG} file of a store or dataset directory, as RocksDB keeps one: while a command works
 * on the directory, the engine's messages at {@code --log-level} (default {@code info}: opens,
 * recoveries, flushes and merges with their sizes; warnings and errors with stack traces) are
 * appended to {@code DIR/LOG}, which rolls over at 10 MB to {@code LOG.1} .. {@code LOG.3}. The
 * terminal still shows only warnings and errors, without traces. {@code verify} writes no LOG: it
 * changes nothing in the directory.
 */
final class StoreLog {
  private static final String PREFIX = "store-log:";

  private StoreLog() {}

  /**
   * Appends the engine's messages to {@code dir/LOG} until {@link #detachAll} (the end of the
   * command). Called once the directory holds a store or dataset; a second call for the same
   * directory does nothing.
   */
  static void attach(CommandSpec spec, Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    Level level = level(spec);
    if (level == Level.OFF) {
      return;
    }
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    Configuration config = ctx.getConfiguration();
    String name = PREFIX + dir.toAbsolutePath().normalize();
    if (config.getAppender(name) != null) {
      return;
    }
    Path file = dir.resolve("LOG");
    RollingFileAppender appender = RollingFileAppender.newBuilder()
        .setName(name)
        .withFileName(file.toString())
        .withFilePattern(dir.resolve("LOG.%i").toString())
        .withAppend(true)
        .withPolicy(SizeBasedTriggeringPolicy.createPolicy("10MB"))
        .withStrategy(DefaultRolloverStrategy.newBuilder().withMax("3").withMin("1")
            .withConfig(config).build())
        .setLayout(PatternLayout.newBuilder().withConfiguration(config)
            .withPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5level [%t] %c{1}: %msg%n%xEx").build())
        .setConfiguration(config)
        .build();
    appender.start();
    config.addAppender(appender);
    LoggerConfig root = config.getRootLogger();
    root.addAppender(appender, level, null);
    if (!root.getLevel().isLessSpecificThan(level)) {
      root.setLevel(level); // the console keeps its own threshold (log4j2.xml)
    }
    ctx.updateLoggers();
  }

  /**
   * Opens a store or dataset with its LOG attached: before the open when the directory already
   * holds one (so recovery is logged), after it for a new one (so a refused open creates nothing).
   */
  static <T> T open(CommandSpec spec, Path dir, java.util.function.Supplier<T> opener) {
    if (Files.exists(dir.resolve("config.json")) || Files.exists(dir.resolve("MANIFEST"))
        || Files.exists(dir.resolve("dataset.json"))) {
      attach(spec, dir);
    }
    T opened = opener.get();
    attach(spec, dir);
    return opened;
  }

  /** Stops and removes every LOG appender this process added, restoring the root level. */
  static void detachAll(Level rootLevel) {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    Configuration config = ctx.getConfiguration();
    boolean any = false;
    for (Appender a : config.getAppenders().values().toArray(Appender[]::new)) {
      if (a.getName().startsWith(PREFIX)) {
        config.getRootLogger().removeAppender(a.getName());
        a.stop();
        any = true;
      }
    }
    if (any) {
      for (String n : config.getAppenders().keySet().toArray(String[]::new)) {
        if (n.startsWith(PREFIX) && config instanceof AbstractConfiguration c) {
          c.removeAppender(n);
        }
      }
      config.getRootLogger().setLevel(rootLevel);
      ctx.updateLoggers();
    }
  }

  private static Level level(CommandSpec spec) {
    Object root = spec.root().userObject();
    return root instanceof Main m ? m.logLevel : Level.INFO;
  }
}

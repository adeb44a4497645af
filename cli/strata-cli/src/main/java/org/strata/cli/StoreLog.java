package org.strata.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.ErrorHandler;
import org.apache.logging.log4j.core.LogEvent;
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
  /** LOG files that could not be written during this command, each with the first reason. */
  private static final Map<Path, String> UNWRITTEN = new ConcurrentHashMap<>();

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
    // Opened here first: a LOG that cannot be opened (a read-only directory, no permission) is
    // skipped, saying why once at the end, instead of Log4j's trace and a failed command.
    try (var probe = Files.newOutputStream(file, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND)) {
      probe.flush();
    } catch (IOException | RuntimeException e) {
      UNWRITTEN.putIfAbsent(file, reason(e));
      return;
    }
    RollingFileAppender appender;
    try {
      appender = RollingFileAppender.newBuilder()
          .setName(name)
          .setFileName(file.toString())
          .setFilePattern(dir.resolve("LOG.%i").toString())
          .setAppend(true)
          .setPolicy(SizeBasedTriggeringPolicy.createPolicy("10MB"))
          .setStrategy(DefaultRolloverStrategy.newBuilder().setMax("3").setMin("1")
              .setConfig(config).build())
          .setLayout(PatternLayout.newBuilder().setConfiguration(config)
              .setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5level [%t] %c{1}: %msg%n%xEx")
              .build())
          .setIgnoreExceptions(true) // a failed write never fails the command's own work
          .setConfiguration(config)
          .build();
    } catch (RuntimeException e) {
      UNWRITTEN.putIfAbsent(file, reason(e));
      return;
    }
    if (appender == null) {
      UNWRITTEN.putIfAbsent(file, "Log4j could not open it");
      return;
    }
    // A write that fails (a full disk) is remembered, not printed with its trace (log4j2.xml
    // turns Log4j's own status messages off).
    appender.setHandler(new QuietErrors(file));
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

  /**
   * Stops and removes every LOG appender this process added, restoring the root level; returns
   * the LOG files that could not be written since the last call, each with why, and forgets them.
   */
  static Map<Path, String> detachAll(Level rootLevel) {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    Configuration config = ctx.getConfiguration();
    boolean any = false;
    for (Appender a : config.getAppenders().values().toArray(Appender[]::new)) {
      if (a.getName().startsWith(PREFIX)) {
        config.getRootLogger().removeAppender(a.getName());
        try {
          a.stop();
        } catch (RuntimeException e) {
          // a LOG that cannot be flushed is reported as unwritten by its handler
        }
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
    Map<Path, String> unwritten = new TreeMap<>();
    for (Path p : UNWRITTEN.keySet().toArray(Path[]::new)) {
      String why = UNWRITTEN.remove(p);
      if (why != null) {
        unwritten.put(p, why);
      }
    }
    return unwritten;
  }

  /** The one line saying that {@code file} could not be written, and why. */
  static String warning(Path file, String why) {
    return "warning: the store's LOG file " + file + " could not be written (" + why + "): this"
        + " command's messages are not in it";
  }

  /** Why an I/O error happened, in a few words: the system's reason, without the path. */
  private static String reason(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root instanceof FileSystemException f) {
      return f.getReason() != null ? f.getReason()
          : root instanceof AccessDeniedException ? "Permission denied" : root.toString();
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }

  /** An appender's error handler that remembers the first failure of its LOG, quietly. */
  private static final class QuietErrors implements ErrorHandler {
    private final Path file;

    QuietErrors(Path file) {
      this.file = file;
    }

    @Override
    public void error(String msg) {
      UNWRITTEN.putIfAbsent(file, msg);
    }

    @Override
    public void error(String msg, Throwable t) {
      UNWRITTEN.putIfAbsent(file, t == null ? msg : reason(t));
    }

    @Override
    public void error(String msg, LogEvent event, Throwable t) {
      error(msg, t);
    }
  }

  private static Level level(CommandSpec spec) {
    Object root = spec.root().userObject();
    return root instanceof Main m ? m.logLevel : Level.INFO;
  }
}

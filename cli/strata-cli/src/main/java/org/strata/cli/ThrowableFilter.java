package org.strata.cli;

import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.core.filter.AbstractFilter;

/**
 * A Log4j filter that matches log events carrying an exception. The command line's console uses it
 * to keep stack traces off the terminal: those events go to the log file only, and the one error
 * line the command prints names that file (see {@code log4j2.xml} and {@link Main}).
 */
@Plugin(name = "ThrowableFilter", category = Node.CATEGORY, elementType = Filter.ELEMENT_TYPE,
    printObject = true)
public final class ThrowableFilter extends AbstractFilter {
  private ThrowableFilter(Result onMatch, Result onMismatch) {
    super(onMatch, onMismatch);
  }

  @Override
  public Result filter(LogEvent event) {
    return event.getThrown() != null ? onMatch : onMismatch;
  }

  /** Log4j's factory: {@code <ThrowableFilter onMatch="DENY" onMismatch="NEUTRAL"/>}. */
  @PluginFactory
  public static ThrowableFilter createFilter(
      @PluginAttribute("onMatch") Result onMatch,
      @PluginAttribute("onMismatch") Result onMismatch) {
    return new ThrowableFilter(onMatch == null ? Result.DENY : onMatch,
        onMismatch == null ? Result.NEUTRAL : onMismatch);
  }
}

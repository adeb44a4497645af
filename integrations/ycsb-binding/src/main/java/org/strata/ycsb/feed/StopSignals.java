package org.strata.ycsb.feed;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Lets a server command stop cleanly on SIGTERM and SIGINT and exit 0, as a service manager
 * expects of a requested stop, instead of the JVM's default handling (shutdown hooks, then exit
 * 143 or 130). Used by {@code strata feed-server} and {@code strata asterixdb start}.
 */
public final class StopSignals {
  private StopSignals() {}

  /**
   * Makes each of {@code signals} (for example "TERM", "INT") run {@code onSignal} instead of
   * shutting the JVM down; {@code onSignal} should only wake the command's main thread, which
   * then stops and returns. Through reflection, since {@code sun.misc.Signal} is not a supported
   * API: where it is absent or a signal cannot be handled (e.g. under {@code -Xrs}), that signal
   * keeps the JVM's handling, so a command should also keep a shutdown hook that stops it.
   *
   * @return the signals now handled
   */
  public static int handle(Runnable onSignal, String... signals) {
    int handled = 0;
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Object handler = Proxy.newProxyInstance(StopSignals.class.getClassLoader(),
          new Class<?>[] {handlerType}, (proxy, method, args) -> switch (method.getName()) {
            case "handle" -> {
              onSignal.run();
              yield null;
            }
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "strata stop";
            default -> null;
          });
      Method handle = signal.getMethod("handle", signal, handlerType);
      for (String name : signals) {
        try {
          handle.invoke(null, signal.getConstructor(String.class).newInstance(name), handler);
          handled++;
        } catch (InvocationTargetException e) {
          // this signal cannot be handled here: the JVM's handling stays
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // no sun.misc.Signal: the caller's shutdown hook stops it
    }
    return handled;
  }
}

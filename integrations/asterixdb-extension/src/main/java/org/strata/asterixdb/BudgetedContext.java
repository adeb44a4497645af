package org.strata.asterixdb;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.asterix.common.api.IDiskWriteRateLimiterProvider;
import org.apache.asterix.common.api.INcApplicationContext;

/**
 * A view of AsterixDB's node application context that answers {@code
 * getDiskWriteRateLimiterProvider()} with Strata's provider and passes every other call to the
 * context itself. A dynamic proxy, so that it follows {@link INcApplicationContext} as it is in
 * the AsterixDB on the class path (nothing in AsterixDB 0.9.8 casts the context to its class).
 */
final class BudgetedContext implements InvocationHandler {
  private final INcApplicationContext real;
  private final IDiskWriteRateLimiterProvider limiters;

  private BudgetedContext(INcApplicationContext real, IDiskWriteRateLimiterProvider limiters) {
    this.real = real;
    this.limiters = limiters;
  }

  /** {@code real} with {@code limiters} as its rate limiter provider. */
  static INcApplicationContext wrap(INcApplicationContext real,
      IDiskWriteRateLimiterProvider limiters) {
    return (INcApplicationContext) Proxy.newProxyInstance(
        INcApplicationContext.class.getClassLoader(),
        new Class<?>[] {INcApplicationContext.class}, new BudgetedContext(real, limiters));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("getDiskWriteRateLimiterProvider")
        && method.getParameterCount() == 0) {
      return limiters;
    }
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}

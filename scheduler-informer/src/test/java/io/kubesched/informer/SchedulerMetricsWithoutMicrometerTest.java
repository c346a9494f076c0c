package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A controller without a meter registry must run where Micrometer is absent. These tests load the module's
 * main classes in a class loader that sees only them and the JDK, and drive {@link SchedulerMetrics}
 * through reflection.
 */
class SchedulerMetricsWithoutMicrometerTest {

  /** Sees the main classes and the JDK, nothing of the test class path; notes what it is asked for. */
  private static final class MainClassesOnly extends URLClassLoader {
    final Set<String> requested = ConcurrentHashMap.newKeySet();

    MainClassesOnly(URL mainClasses) {
      super(new URL[] {mainClasses}, ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      requested.add(name);
      return super.loadClass(name, resolve);
    }
  }

  private final MainClassesOnly loader =
      new MainClassesOnly(SchedulerMetrics.class.getProtectionDomain().getCodeSource().getLocation());

  @AfterEach
  void close() throws Exception {
    loader.close();
  }

  private Object call(Class<?> type, Object target, String name, Class<?>[] types, Object... args)
      throws Throwable {
    Method method = type.getDeclaredMethod(name, types);
    method.setAccessible(true);
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void the_isolated_loader_really_lacks_micrometer() {
    assertThrows(
        ClassNotFoundException.class,
        () -> loader.loadClass("io.micrometer.core.instrument.MeterRegistry"));
  }

  @Test
  void no_registry_gives_metrics_that_work_without_loading_micrometer() throws Throwable {
    var type = loader.loadClass(SchedulerMetrics.class.getName());
    assertEquals(loader, type.getClassLoader(), "loaded in isolation, not from the test class path");

    var none = call(type, null, "of", new Class<?>[] {Object.class}, (Object) null);
    call(type, none, "algorithm", new Class<?>[] {long.class}, 5L);
    call(type, none, "attempt", new Class<?>[] {String.class, String.class, long.class}, "p", "error", 1L);
    call(type, none, "scheduled", new Class<?>[] {int.class, long.class}, 3, 10L);
    call(type, none, "bound", new Class<?>[] {String.class, long.class, boolean.class}, "p", 2L, false);
    call(type, none, "queueDepths", new Class<?>[] {Supplier.class}, (Supplier<?>) Map::of);
    call(type, none, "pendingPods", new Class<?>[] {Supplier.class}, (Supplier<?>) () -> 0);
    call(type, none, "close", new Class<?>[0]);
    var refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                call(
                    type,
                    none,
                    "attempt",
                    new Class<?>[] {String.class, String.class, long.class},
                    "p",
                    "nope",
                    1L));
    assertTrue(refused.getMessage().contains("nope"));

    assertEquals(
        List.of(),
        loader.requested.stream().filter(name -> name.startsWith("io.micrometer")).toList(),
        "no Micrometer class was even asked for");
    assertFalse(
        loader.requested.contains(MicrometerMetrics.class.getName()),
        "the Micrometer implementation was never loaded");
  }

  @Test
  void a_registry_where_micrometer_is_absent_fails_with_a_clear_message() throws Throwable {
    var type = loader.loadClass(SchedulerMetrics.class.getName());

    var e =
        assertThrows(
            IllegalStateException.class,
            () -> call(type, null, "of", new Class<?>[] {Object.class}, new Object()));
    assertTrue(e.getMessage().contains("Micrometer"), e.getMessage());
    assertInstanceOf(NoClassDefFoundError.class, e.getCause());
  }
}

package io.kubesched.policy.plugins.dynamicresources.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Device;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** kube's {@code cache_test.go}: what the cache keeps, evicts and does not keep, and its use from many threads. */
class DeviceSelectorsCacheTest {

  @Test
  void theWarmUpSelectorCompilesAndSelectsItsDeviceInKubesEnvironment() throws Exception {
    assertTrue(SelectorEnvironment.compile(DeviceSelectors.WARM_UP).matches("warm.up", DeviceSelectors.WARM_UP_DEVICE),
        "the warm-up must run the whole compile and an evaluation, not fail half way");
    DeviceSelectors.warmUpInBackground();
    DeviceSelectors.warmUpInBackground();
    var warming = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("kubesched-cel-warm-up")).toList();
    assertTrue(warming.size() <= 1, "one warm-up per JVM: " + warming);
    for (var thread : warming) {
      thread.join();
    }
  }

  @Test
  void TestCacheSemantic() throws SelectorException {
    var cache = DeviceSelectors.create(2);

    var resultTrue = cache.compile("true");
    assertSame(resultTrue, cache.compile("true"), "`true` should have been cached");

    var failed = assertThrows(SelectorException.class, () -> cache.compile("no-such-variable"));
    assertTrue(failed.getMessage().contains("undeclared reference to 'no'"), failed.getMessage());
    assertEquals(1, cache.size(), "a failed compilation is not cached");

    var resultFalse = cache.compile("false");
    assertSame(resultFalse, cache.compile("false"), "`false` should have been cached");
    assertSame(resultTrue, cache.compile("true"), "`true` should still have been cached");

    var resultOther = cache.compile("false && true");
    assertSame(resultOther, cache.compile("false && true"), "`false && true` should have been cached");
    assertNotSame(resultFalse, cache.compile("false"), "`false` should have been evicted from the cache");
  }

  @Test
  void TestCacheConcurrency() throws Exception {
    var cache = DeviceSelectors.create(2);
    var pool = Executors.newFixedThreadPool(10);
    try {
      var results = new ArrayList<Future<Boolean>>();
      for (int i = 0; i < 10; i++) {
        String expression = i + " == " + i;
        Callable<Boolean> task = () -> cache.compile(expression).matches("", Device.of("d", Map.of(), Map.of()));
        results.add(pool.submit(task));
      }
      for (var result : results) {
        assertTrue(result.get());
      }
      assertEquals(2, cache.size());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrent_compilations_of_one_expression_share_one_selector() throws Exception {
    var cache = DeviceSelectors.create();
    var pool = Executors.newFixedThreadPool(8);
    try {
      var results = new ArrayList<Future<DeviceSelector>>();
      for (int i = 0; i < 8; i++) {
        results.add(pool.submit(() -> cache.compile("device.driver == \"dra.example.com\"")));
      }
      var first = results.get(0).get();
      for (var result : results) {
        assertSame(first, result.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void the_size_must_be_positive() {
    var error = assertThrows(IllegalArgumentException.class, () -> DeviceSelectors.create(0));
    assertEquals("maxEntries must be positive, not 0", error.getMessage());
  }
}

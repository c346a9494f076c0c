package io.kubesched.informer.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.SchedulingListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The promise of {@link SchedulingListener}: one thread, one call at a time, in order, nothing dropped. */
class SerialListenerTest {

  private static final int PRODUCERS = 8;
  private static final int CALLS_EACH = 250;

  @Test
  void calls_from_many_threads_reach_the_listener_on_one_thread_one_at_a_time_in_order() throws Exception {
    var threads = ConcurrentHashMap.<String>newKeySet();
    var inCall = new AtomicInteger();
    var mostAtOnce = new AtomicInteger();
    var received = new ConcurrentHashMap<String, List<Integer>>();
    var serial =
        new SerialListener(
            new SchedulingListener() {
              @Override
              public void failed(String podKey, Exception error) {
                mostAtOnce.accumulateAndGet(inCall.incrementAndGet(), Math::max);
                threads.add(Thread.currentThread().getName());
                received.computeIfAbsent(podKey, key -> new ArrayList<>()).add(Integer.parseInt(error.getMessage()));
                inCall.decrementAndGet();
              }
            },
            "test");
    var start = new CountDownLatch(1);
    var producers = new ArrayList<Thread>();
    for (int p = 0; p < PRODUCERS; p++) {
      var key = "ns/pod-" + p;
      var producer =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < CALLS_EACH; i++) {
                  serial.failed(key, new IllegalStateException(String.valueOf(i)));
                }
              });
      producer.start();
      producers.add(producer);
    }
    start.countDown();
    for (var producer : producers) {
      producer.join();
    }

    serial.close(Duration.ofMinutes(1)); // delivers what is queued before it returns

    assertEquals(Set.of("kubesched-listener-test"), threads);
    assertEquals(1, mostAtOnce.get(), "never two calls at once");
    assertEquals(PRODUCERS, received.size());
    var inOrder = java.util.stream.IntStream.range(0, CALLS_EACH).boxed().toList();
    for (Map.Entry<String, List<Integer>> pod : received.entrySet()) {
      assertEquals(inOrder, pod.getValue(), "every call for " + pod.getKey() + ", in the order made");
    }
  }

  @Test
  void a_listener_that_throws_gets_the_next_call_all_the_same() throws Exception {
    var heard = new ArrayList<String>();
    var serial =
        new SerialListener(
            new SchedulingListener() {
              @Override
              public void failed(String podKey, Exception error) {
                heard.add(podKey);
                throw new IllegalStateException("listener bug");
              }
            },
            "test");

    serial.failed("ns/a", new RuntimeException("x"));
    serial.failed("ns/b", new RuntimeException("x"));
    serial.close(Duration.ofMinutes(1));

    assertEquals(List.of("ns/a", "ns/b"), heard);
  }

  @Test
  void closing_from_the_listener_thread_does_not_wait_for_itself() throws Exception {
    var closed = new CountDownLatch(1);
    var holder = new SerialListener[1];
    holder[0] =
        new SerialListener(
            new SchedulingListener() {
              @Override
              public void failed(String podKey, Exception error) {
                try {
                  holder[0].close(Duration.ofDays(1));
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                closed.countDown();
              }
            },
            "test");

    holder[0].failed("ns/a", new RuntimeException("x"));

    closed.await();
    assertTrue(closed.getCount() == 0);
  }
}

package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SchedulingQueueTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final SchedulingQueue queue =
      new SchedulingQueue(now::get, Duration.ofSeconds(1), Duration.ofSeconds(10));

  private static SchedulingQueue.Item item(String name) {
    return new SchedulingQueue.Item("uid-" + name, "default", name);
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  @Test
  void a_pod_added_twice_is_queued_once() {
    queue.add(item("a"));
    queue.add(item("a"));

    assertEquals(1, queue.size());
    assertEquals(item("a"), queue.poll());
    assertNull(queue.poll());
  }

  @Test
  void pods_come_out_in_the_order_they_became_ready() {
    queue.add(item("a"));
    queue.add(item("b"));
    queue.add(item("c"));

    assertEquals("a", queue.poll().name());
    assertEquals("b", queue.poll().name());
    assertEquals("c", queue.poll().name());
  }

  @Test
  void backoff_starts_at_one_second_and_doubles_up_to_ten() {
    long[] expectedSeconds = {1, 2, 4, 8, 10, 10};
    for (int attempt = 1; attempt <= expectedSeconds.length; attempt++) {
      assertEquals(
          TimeUnit.SECONDS.toNanos(expectedSeconds[attempt - 1]),
          queue.backoffNanos(attempt),
          "attempt " + attempt);
    }
  }

  @Test
  void a_failed_pod_is_not_ready_before_its_backoff_ends() {
    queue.backoff(item("a"));
    assertNull(queue.poll());

    advance(Duration.ofMillis(999));
    assertNull(queue.poll());

    advance(Duration.ofMillis(1));
    assertEquals(item("a"), queue.poll());

    queue.backoff(item("a")); // second failure: two seconds
    advance(Duration.ofMillis(1999));
    assertNull(queue.poll());
    advance(Duration.ofMillis(1));
    assertEquals(item("a"), queue.poll());
  }

  @Test
  void forgetting_a_pod_resets_its_backoff_and_drops_its_entry() {
    queue.backoff(item("a"));
    queue.forget("uid-a");
    assertEquals(0, queue.size());

    queue.backoff(item("a"));
    advance(Duration.ofSeconds(1));
    assertEquals(item("a"), queue.poll(), "backoff starts again at one second");
  }

  @Test
  void activating_all_ends_every_backoff_at_once() {
    queue.backoff(item("a"));
    queue.backoff(item("b"));
    assertNull(queue.poll());

    queue.activateAll();

    assertEquals(item("a"), queue.poll());
    assertEquals(item("b"), queue.poll());
  }

  @Test
  void take_waits_for_an_item_and_returns_null_once_closed() throws Exception {
    var realTime = new SchedulingQueue(System::nanoTime, Duration.ofSeconds(1), Duration.ofSeconds(10));
    var taken = CompletableFuture.supplyAsync(() -> takeQuietly(realTime));
    realTime.add(item("a"));
    assertEquals(item("a"), taken.get(5, TimeUnit.SECONDS));

    var afterClose = CompletableFuture.supplyAsync(() -> takeQuietly(realTime));
    realTime.close();
    assertNull(afterClose.get(5, TimeUnit.SECONDS));
    realTime.add(item("b"));
    assertEquals(0, realTime.size(), "a closed queue takes nothing more");
  }

  private static SchedulingQueue.Item takeQuietly(SchedulingQueue queue) {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}

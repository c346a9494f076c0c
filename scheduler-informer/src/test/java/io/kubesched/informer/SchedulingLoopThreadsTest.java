package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many threads the loop filters and scores with (moved here from {@code ProfilesTest} with the loop). */
class SchedulingLoopThreadsTest {

  @Test
  void the_loop_uses_at_most_one_thread_per_processor_and_at_least_its_own() {
    assertEquals(1, SchedulingLoop.nodeThreads(16, 1));
    assertEquals(2, SchedulingLoop.nodeThreads(16, 2));
    assertEquals(8, SchedulingLoop.nodeThreads(8, 64));
    assertEquals(1, SchedulingLoop.nodeThreads(1, 64));
  }
}

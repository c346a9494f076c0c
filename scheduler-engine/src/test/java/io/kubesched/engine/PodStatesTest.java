package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.PodInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PodStates}' expiry on its own, where the time is handed in: the cache's tests cover the rest of it
 * through {@link SchedulerCache}, but their ticker cannot reach the point where {@link System#nanoTime()}
 * wraps around.
 */
class PodStatesTest {

  private static final long TTL = 10;

  private final PodStates states = new PodStates(TTL);

  private static PodInfo pod(String name) {
    return PodInfo.builder("default", name).uid("uid-" + name).nodeName("node").build();
  }

  @Test
  void a_deadline_past_the_wrap_of_the_clock_expires_only_once_passed() {
    var early = pod("early");
    var late = pod("late");
    states.add(early, true);
    states.add(late, true);
    long beforeWrap = Long.MAX_VALUE - 3;
    states.finishBinding(early.uid(), beforeWrap - 20);
    states.finishBinding(late.uid(), beforeWrap);

    assertEquals(List.of(early), states.expire(beforeWrap));
    // The late deadline is Long.MIN_VALUE + 6: reached after the wrap, passed one step later.
    assertEquals(List.of(), states.expire(Long.MIN_VALUE + 6));
    assertTrue(states.isAssumed(late.uid()));
    assertEquals(List.of(late), states.expire(Long.MIN_VALUE + 7));
    assertEquals(0, states.size());
  }
}

package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.kubesched.api.SchedulerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the queue tells {@link SchedulerMetrics#queueIncoming}: kube-scheduler's {@code
 * scheduler_queue_incoming_pods_total}, one record per pod entering active, backoff or unschedulable, under
 * kube's queue and event labels.
 */
class SchedulingQueueIncomingTest {

  private record Incoming(String queue, String event) {}

  private final List<Incoming> told = new ArrayList<>();
  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue =
      new SchedulingQueue(
          clock, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5),
          new SchedulerMetrics() {
            @Override
            public void queueIncoming(String queue, String event) {
              told.add(new Incoming(queue, event));
            }
          });

  private static QueuedPod pod(String name) {
    return new QueuedPod("uid-" + name, "ns", name, 0, "default-scheduler");
  }

  private QueuedPod take() throws InterruptedException {
    var taken = queue.take();
    assertNotNull(taken);
    return taken;
  }

  @Test
  void a_new_pod_enters_active_and_a_gated_one_unschedulable_as_kube_counts_them() {
    queue.add(pod("a"));
    queue.add(new QueuedPod("uid-g", "ns", "g", 0, "default-scheduler", true));

    assertEquals(
        List.of(new Incoming("active", "UnscheduledPodAdd"), new Incoming("unschedulable", "UnscheduledPodAdd")),
        told);
  }

  @Test
  void a_failed_attempt_then_a_cluster_event_then_the_backoffs_end_are_each_counted_where_the_pod_went()
      throws InterruptedException {
    queue.add(pod("a"));
    var taken = take();
    queue.requeueUnschedulable(taken, queue.schedulingCycle(), QueueingHint.ANY_CHANGE);
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    clock.advance(Duration.ofSeconds(5));
    queue.flush();

    assertEquals(
        List.of(
            new Incoming("active", "UnscheduledPodAdd"),
            new Incoming("unschedulable", "ScheduleAttemptFailure"),
            new Incoming("backoff", "NodeAdd"),
            new Incoming("active", "BackoffComplete")),
        told);
  }

  @Test
  void an_update_of_a_pod_waiting_in_active_leaves_it_there_uncounted() {
    queue.add(pod("a"));
    queue.add(pod("a"));

    assertEquals(List.of(new Incoming("active", "UnscheduledPodAdd")), told);
  }

  @Test
  void an_update_of_an_unschedulable_pod_moves_it_as_an_update() throws InterruptedException {
    queue.add(pod("a"));
    var taken = take();
    queue.requeueUnschedulable(taken, queue.schedulingCycle(), QueueingHint.ANY_CHANGE);
    clock.advance(Duration.ofSeconds(5));
    queue.add(pod("a"));

    assertEquals(new Incoming("active", "UnscheduledPodUpdate"), told.get(told.size() - 1));
  }

  @Test
  void a_pod_waiting_longer_than_the_limit_moves_as_kubes_unschedulable_timeout() throws InterruptedException {
    queue.add(pod("a"));
    var taken = take();
    queue.requeueUnschedulable(taken, queue.schedulingCycle(), QueueingHint.ANY_CHANGE);
    clock.advance(Duration.ofMinutes(6));
    queue.flush();

    assertEquals(new Incoming("active", "UnschedulableTimeout"), told.get(told.size() - 1));
  }

  @Test
  void an_activation_after_a_failed_preemption_is_kubes_force_activate() throws InterruptedException {
    queue.add(pod("a"));
    var taken = take();
    queue.requeueUnschedulable(taken, queue.schedulingCycle(), QueueingHint.ANY_CHANGE);
    queue.releasePreemption("uid-a", true);

    assertEquals(new Incoming("active", "ForceActivate"), told.get(told.size() - 1));
  }
}

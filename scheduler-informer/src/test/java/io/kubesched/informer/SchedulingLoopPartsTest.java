package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.binder.BindOutcome;
import io.kubesched.engine.QueueDepths;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.watch.InformerStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The loop's parts without an API server: the event handlers driven with fabric8 objects, the cycles run
 * inline on the test thread, a fake clock and a fake bind port.
 */
class SchedulingLoopPartsTest {

  private static final String NAME = "my-scheduler";

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final List<String> heard = new ArrayList<>();
  private final List<String> binds = new ArrayList<>();
  private final AtomicInteger decisions = new AtomicInteger();
  private final SchedulingListener listener =
      new SchedulingListener() {
        @Override
        public void bound(PodInfo pod, String nodeName) {
          heard.add("bound " + pod.name() + " to " + nodeName);
        }

        @Override
        public void unschedulable(PodInfo pod, String message) {
          heard.add("unschedulable " + pod.name());
        }

        @Override
        public void failed(String podKey, Exception error) {
          heard.add("failed " + podKey + ": " + error.getClass().getSimpleName());
        }
      };
  private final FinderFunc firstNode =
      (pod, nodes) -> {
        decisions.incrementAndGet();
        return Decision.bind(nodes.get(0).name());
      };

  private LoopParts parts(BindPort port, SchedulerMetrics metrics) {
    return FakeLoop.of(TestSettings.forFakeCluster(NAME), firstNode, clock::get, port)
        .listener(listener)
        .metrics(metrics)
        .create();
  }

  private LoopParts parts(BindPort port) {
    return parts(port, SchedulerMetrics.NONE);
  }

  private BindPort recording(BindOutcome outcome) {
    return (pod, nodeName) -> {
      binds.add(pod.getMetadata().getName() + " to " + nodeName);
      return outcome;
    };
  }

  static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata().withNamespace("default").withName(name).withUid("uid-" + name).endMetadata()
        .withNewSpec().withSchedulerName(NAME).addNewContainer().withName("c").withImage("i").endContainer().endSpec()
        .withNewStatus().withPhase("Pending").endStatus()
        .build();
  }

  static Pod boundTo(Pod pod, String nodeName) {
    return new PodBuilder(pod).editSpec().withNodeName(nodeName).endSpec().build();
  }

  static Node node(String name) {
    return new NodeBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewStatus()
        .addToAllocatable("cpu", new Quantity("4"))
        .addToAllocatable("memory", new Quantity("8Gi"))
        .addToAllocatable("pods", new Quantity("110"))
        .endStatus()
        .build();
  }

  /** Takes the next pod off the queue and runs its scheduling cycle (and, inline, its binding cycle). */
  private static void scheduleNext(LoopParts parts) throws InterruptedException {
    parts.scheduling().scheduleOne(parts.queue().poll());
  }

  private static QueueDepths depths(LoopParts parts) {
    return parts.queue().depths();
  }

  @Test
  void a_pod_is_bound_and_the_watch_confirms_it() throws Exception {
    var parts = parts(recording(new BindOutcome.Bound("n1", false)));
    parts.handlers().nodes().onAdd(node("n1"));
    var pod = pod("p");
    parts.handlers().pods().onAdd(pod);

    scheduleNext(parts);

    assertEquals(List.of("p to n1"), binds);
    assertEquals(List.of("bound p to n1"), heard);
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), depths(parts), "the queue forgot the pod");
    assertTrue(parts.cache().isAssumed("uid-p"), "counted on n1 until the watch shows it there");

    parts.handlers().pods().onUpdate(pod, boundTo(pod, "n1"));

    assertFalse(parts.cache().isAssumed("uid-p"));
    assertEquals(1, parts.cache().nodes().get(0).pods().size());
  }

  @Test
  void a_bind_failure_is_forgotten_and_requeued_and_reported_bound_if_it_had_landed() throws Exception {
    var parts = parts(recording(new BindOutcome.Failed("connection reset")));
    parts.handlers().nodes().onAdd(node("n1"));
    var pod = pod("p");
    parts.handlers().pods().onAdd(pod);

    scheduleNext(parts);

    assertEquals(List.of("failed default/p: " + SchedulerException.class.getSimpleName()), heard);
    assertFalse(parts.cache().isAssumed("uid-p"), "the assumption is forgotten");
    assertEquals(0, parts.cache().nodes().get(0).pods().size());
    var waiting = parts.queue().contents().backoff();
    assertEquals(1, waiting.size(), "requeued to wait out its backoff");
    assertEquals("n1", waiting.get(0).progress().unconfirmedNode());

    parts.handlers().pods().onUpdate(pod, boundTo(pod, "n1")); // the write had landed after all

    assertEquals("bound p to n1", heard.get(heard.size() - 1));
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), depths(parts), "seen bound: out of the queue at once");
  }

  /** A port whose first binding fails as if its answer were lost, and whose next ones do {@code retry}. */
  private BindPort lostAnswerThen(BindPort retry) {
    var calls = new AtomicInteger();
    return (pod, nodeName) -> {
      binds.add(pod.getMetadata().getName() + " to " + nodeName);
      return calls.incrementAndGet() == 1 ? new BindOutcome.Failed("timed out") : retry.bind(pod, nodeName);
    };
  }

  /** Schedules {@code p} once (its binding's answer lost), then again past its backoff. */
  private void bindLostThenRetry(LoopParts parts, Pod pod) throws InterruptedException {
    parts.handlers().pods().onAdd(pod);
    scheduleNext(parts);
    clock.addAndGet(Duration.ofSeconds(2).toNanos()); // past its one-second backoff
    scheduleNext(parts);
  }

  @Test
  void a_lost_answer_is_heard_bound_once_when_the_watch_shows_the_pod_bound_during_the_retry() throws Exception {
    var pod = pod("p");
    var holder = new LoopParts[1];
    var parts =
        parts(
            lostAnswerThen(
                (retried, nodeName) -> {
                  holder[0].handlers().pods().onUpdate(pod, boundTo(pod, nodeName)); // the first write landed
                  return new BindOutcome.Bound(nodeName, true);
                }));
    holder[0] = parts;
    parts.handlers().nodes().onAdd(node("n1"));

    bindLostThenRetry(parts, pod);

    assertEquals(List.of("p to n1", "p to n1"), binds);
    assertEquals(
        List.of("failed default/p: " + SchedulerException.class.getSimpleName(), "bound p to n1"), heard,
        "the watch told the listener; the retry's answer does not again");
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), depths(parts));
  }

  @Test
  void a_lost_answer_is_heard_bound_once_when_the_retry_answers_before_the_watch_shows_it() throws Exception {
    var parts = parts(lostAnswerThen((retried, nodeName) -> new BindOutcome.Bound(nodeName, true)));
    parts.handlers().nodes().onAdd(node("n1"));
    var pod = pod("p");

    bindLostThenRetry(parts, pod);
    parts.handlers().pods().onUpdate(pod, boundTo(pod, "n1"));

    assertEquals(
        List.of("failed default/p: " + SchedulerException.class.getSimpleName(), "bound p to n1"), heard,
        "the retry told the listener; the watch, finding the pod no longer queued, does not again");
  }

  @Test
  void a_retry_elsewhere_finding_the_pod_where_its_lost_answer_put_it_hears_it_bound_there() throws Exception {
    var choices = new AtomicInteger();
    FinderFunc elsewhereNext = (pod, nodes) -> Decision.bind(nodes.get(choices.getAndIncrement() % 2).name());
    var parts =
        FakeLoop.of(
                TestSettings.forFakeCluster(NAME), elsewhereNext, clock::get,
                lostAnswerThen((retried, nodeName) -> new BindOutcome.Conflict("n1")))
            .listener(listener)
            .create();
    parts.handlers().nodes().onAdd(node("n1"));
    parts.handlers().nodes().onAdd(node("n2"));
    var pod = pod("p");

    bindLostThenRetry(parts, pod);
    parts.handlers().pods().onUpdate(pod, boundTo(pod, "n1"));

    assertEquals(List.of("p to n1", "p to n2"), binds);
    assertEquals(
        List.of("failed default/p: " + SchedulerException.class.getSimpleName(), "bound p to n1"), heard,
        "bound where the first binding landed, told once");
  }

  @Test
  void a_pod_deleted_mid_bind_is_forgotten_everywhere() throws Exception {
    var pod = pod("p");
    var holder = new LoopParts[1];
    var parts =
        parts(
            (bound, nodeName) -> {
              holder[0].handlers().pods().onDelete(pod, false); // the watch delivers the deletion meanwhile
              return new BindOutcome.PodGone("pod default/p is gone");
            });
    holder[0] = parts;
    parts.handlers().nodes().onAdd(node("n1"));
    parts.handlers().pods().onAdd(pod);

    scheduleNext(parts);

    assertEquals(List.of(), heard, "neither bound nor failed");
    assertFalse(parts.cache().isAssumed("uid-p"));
    assertEquals(0, parts.cache().podCount());
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), depths(parts));
    assertEquals(null, parts.handlers().pendingPod("uid-p"));
  }

  @Test
  void a_pod_taken_after_leadership_was_lost_is_requeued_untried() throws Exception {
    var parts = parts(recording(new BindOutcome.Bound("n1", false)));
    parts.handlers().nodes().onAdd(node("n1"));
    parts.handlers().pods().onAdd(pod("p"));
    var taken = parts.queue().poll();

    parts.leadership().set(false);
    parts.scheduling().scheduleOne(taken);

    assertEquals(0, decisions.get(), "the policy was not asked");
    assertEquals(List.of(), binds);
    assertEquals(1, depths(parts).waiting(), "back in the queue for the next leader");

    parts.leadership().set(true);
    clock.addAndGet(Duration.ofSeconds(2).toNanos()); // past its one-second backoff
    scheduleNext(parts);

    assertEquals(List.of("p to n1"), binds);
  }

  @Test
  void a_pod_is_converted_once_per_update_and_a_status_write_does_not_requeue_it() {
    var parts = parts(recording(new BindOutcome.Bound("n1", false)));
    var pod = pod("p");
    parts.handlers().pods().onAdd(pod);
    var queued = parts.queue().contents().active().get(0);
    var withCondition =
        new PodBuilder(pod).editStatus().addNewCondition().withType("PodScheduled").withStatus("False").endCondition()
            .endStatus().editMetadata().addToAnnotations("note", "not read by the scheduler").endMetadata().build();

    parts.handlers().pods().onUpdate(pod, withCondition);

    assertTrue(queued.info() != null && queued.info().uid().equals("uid-p"), "converted in the handler");
    var kept = parts.handlers().pendingPod("uid-p");
    assertEquals(InformerStores.kept(withCondition), kept, "the latest object, for the reporter");
    assertEquals("PodScheduled", kept.getStatus().getConditions().get(0).getType(), "with its condition");
    assertTrue(kept.getMetadata().getAnnotations().isEmpty(), "kept as the store keeps it, not in full");
    assertEquals(1, depths(parts).active());
  }

  @Test
  void a_metrics_implementation_that_throws_does_not_stop_a_binding() throws Exception {
    var throwing =
        new SchedulerMetrics() {
          @Override
          public void algorithm(Duration took) {
            throw new IllegalStateException("broken gauge");
          }

          @Override
          public void attempt(String profile, Result result, Duration took) {
            throw new IllegalStateException("broken counter");
          }

          @Override
          public void bound(String profile, Duration took, boolean success) {
            throw new IllegalStateException("broken timer");
          }
        };
    var parts = parts(recording(new BindOutcome.Bound("n1", false)), throwing);
    parts.handlers().nodes().onAdd(node("n1"));
    parts.handlers().pods().onAdd(pod("p"));

    scheduleNext(parts);

    assertEquals(List.of("bound p to n1"), heard);
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), depths(parts));
  }
}

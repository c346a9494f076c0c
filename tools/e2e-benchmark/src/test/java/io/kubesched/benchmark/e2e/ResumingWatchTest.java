package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Listable;
import io.fabric8.kubernetes.client.dsl.Watchable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The runner's watch after the API server's "resourceVersion too old": listed again, then watched on. */
class ResumingWatchTest {

  /** The pods of a fake API server: each watch opened is kept, with the version it started from. */
  static final class FakePods implements Watchable<Pod>, Listable<PodList> {
    record Opened(@Nullable String resourceVersion, Watcher<Pod> watcher) {}

    final LinkedBlockingQueue<Opened> opened = new LinkedBlockingQueue<>();
    final List<String> closed = new CopyOnWriteArrayList<>();
    volatile PodList listed = new PodList();

    @Override
    public Watch watch(Watcher<Pod> watcher) {
      return watch((String) null, watcher);
    }

    @Override
    public Watch watch(ListOptions options, Watcher<Pod> watcher) {
      return watch(options.getResourceVersion(), watcher);
    }

    @Override
    public Watch watch(@Nullable String resourceVersion, Watcher<Pod> watcher) {
      opened.add(new Opened(resourceVersion, watcher));
      return () -> closed.add(String.valueOf(resourceVersion));
    }

    @Override
    public PodList list() {
      return listed;
    }

    @Override
    public PodList list(Integer limitVal, String continueVal) {
      return listed;
    }

    @Override
    public PodList list(ListOptions listOptions) {
      return listed;
    }
  }

  /** A watcher that records what it is told. */
  static final class Seen implements Watcher<Pod> {
    final List<String> events = new CopyOnWriteArrayList<>();
    volatile @Nullable WatcherException closedWith;

    @Override
    public void eventReceived(Action action, Pod pod) {
      events.add(action + " " + pod.getMetadata().getName() + " on " + pod.getSpec().getNodeName());
    }

    @Override
    public void onClose(WatcherException cause) {
      closedWith = cause;
    }
  }

  private static Pod pod(String name, @Nullable String node) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withNodeName(node)
        .endSpec().build();
  }

  private static WatcherException status(int code) {
    return new WatcherException("watch closed", new KubernetesClientException("watch closed", code, null));
  }

  @Test
  void a_410_lists_the_pods_hands_them_over_and_watches_on_from_the_lists_version() throws Exception {
    var pods = new FakePods();
    var seen = new Seen();
    var resynced = new CopyOnWriteArrayList<String>();
    var watch = ResumingWatch.open(pods, seen, listed -> listed.forEach(p -> resynced.add(p.getMetadata().getName())));
    var first = pods.opened.poll(5, TimeUnit.SECONDS);
    first.watcher().eventReceived(Watcher.Action.ADDED, pod("a", null));

    pods.listed = new PodListBuilder().withNewMetadata().withResourceVersion("42").endMetadata()
        .withItems(pod("a", "node-1"), pod("b", null)).build();
    first.watcher().onClose(status(410));
    var second = pods.opened.poll(5, TimeUnit.SECONDS);

    assertEquals("42", second.resourceVersion());
    assertEquals(List.of("a", "b"), resynced);
    assertNull(seen.closedWith, "a 410 is not the watcher's close");
    second.watcher().eventReceived(Watcher.Action.MODIFIED, pod("b", "node-2"));
    assertEquals(List.of("ADDED a on null", "MODIFIED b on node-2"), seen.events);

    watch.close();
    for (int i = 0; i < 50 && !pods.closed.contains("42"); i++) {
      Thread.sleep(100); // the resumed watch may still be taking over from the first one
    }
    assertTrue(pods.closed.contains("42"), "the resumed watch is closed with it: " + pods.closed);
  }

  @Test
  void any_other_close_is_the_watchers_and_nothing_is_reopened() throws Exception {
    var pods = new FakePods();
    var seen = new Seen();
    ResumingWatch.open(pods, seen, listed -> {});
    var first = pods.opened.poll(5, TimeUnit.SECONDS);

    first.watcher().onClose(status(500));

    assertTrue(seen.closedWith != null && !seen.closedWith.isHttpGone());
    assertNull(pods.opened.poll(200, TimeUnit.MILLISECONDS));
  }

  @Test
  void a_410_after_close_reopens_nothing() throws Exception {
    var pods = new FakePods();
    var watch = ResumingWatch.open(pods, new Seen(), listed -> {});
    var first = pods.opened.poll(5, TimeUnit.SECONDS);

    watch.close();
    first.watcher().onClose(status(410));

    assertNull(pods.opened.poll(200, TimeUnit.MILLISECONDS));
  }
}

package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Listable;
import io.fabric8.kubernetes.client.dsl.Watchable;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A watch of the runner that survives the API server's "resourceVersion too old" (HTTP 410): fabric8 re-opens a
 * dropped watch from the last version it saw, which the API server may have let go of already when the runner fell
 * behind a fast stream of events (the DRA steady state's pods, each created, bound, named in its status and
 * deleted, ended a 3-repetition run at its fourth run). Then the objects are listed again and handed to {@code
 * resync} (which brings the watcher's record up to the list), and the watch goes on from the list's version. What
 * happened between the last event and the list is seen as its outcome only: a pod bound then counts as bound when
 * listed. Any other close is the watcher's {@code onClose}, as before.
 *
 * @param <T> the kind watched
 */
final class ResumingWatch<T extends HasMetadata> implements Watch {

  private final Watchable<T> watchable;
  private final Listable<? extends KubernetesResourceList<T>> listable;
  private final Watcher<T> target;
  private final Consumer<List<T>> resync;
  private volatile @Nullable Watch current;
  private volatile boolean closed;

  private ResumingWatch(
      Watchable<T> watchable,
      Listable<? extends KubernetesResourceList<T>> listable,
      Watcher<T> target,
      Consumer<List<T>> resync) {
    this.watchable = watchable;
    this.listable = listable;
    this.target = target;
    this.resync = resync;
  }

  /**
   * Opens the watch.
   *
   * @param resource what to watch and list (the same selection)
   * @param target gets every event, and the close that is not a 410
   * @param resync gets the listed objects after a 410, before the watch goes on
   */
  static <T extends HasMetadata, R extends Watchable<T> & Listable<? extends KubernetesResourceList<T>>>
      ResumingWatch<T> open(R resource, Watcher<T> target, Consumer<List<T>> resync) {
    var watch = new ResumingWatch<T>(resource, resource, target, resync);
    watch.current = resource.watch(watch.relay());
    return watch;
  }

  private Watcher<T> relay() {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        target.eventReceived(action, resource);
      }

      @Override
      public void onClose(WatcherException cause) {
        if (closed) {
          return;
        }
        if (!cause.isHttpGone()) {
          target.onClose(cause);
          return;
        }
        var resume = new Thread(() -> resume(cause), "runner-watch-resume");
        resume.setDaemon(true);
        resume.start();
      }
    };
  }

  private void resume(WatcherException gone) {
    try {
      var list = listable.list();
      resync.accept(list.getItems());
      if (!closed) {
        swap(watchable.watch(
            new ListOptionsBuilder().withResourceVersion(list.getMetadata().getResourceVersion()).build(), relay()));
      }
    } catch (RuntimeException e) {
      gone.addSuppressed(e);
      target.onClose(gone);
    }
  }

  /** Keeps the watch resumed, or closes it if this watch was closed while it was being opened. */
  private synchronized void swap(Watch next) {
    if (closed) {
      next.close();
    } else {
      current = next;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    var watch = current;
    if (watch != null) {
      watch.close();
    }
  }
}

package io.kubesched.informer.watch;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts the informers when they stop watching and do not come back by themselves.
 *
 * <p>fabric8 8.0.0 was seen (while the client still spoke HTTP/2) to drop a pod watch for good after a
 * kube-apiserver restart: the watch answers 410 Gone, two close events race, the second is ignored as a
 * duplicate and the informer never lists again, yet still reports that it is watching; no pod event
 * arrives until the process restarts. So two signs count as a lost watch: an informer that says it is not watching for
 * {@link #GRACE_SECONDS} in a row, and a resource version that has not moved for {@link #STALE_SECONDS}
 * (the informers ask for bookmarks, which the API server sends about once a minute even when nothing
 * changes, so a live watch moves it). In a cluster where nothing at all is written, the second sign can
 * fire without need; the cost is one relist.
 */
final class InformerWatchdog implements AutoCloseable {

  /** How long the informers may say they are not watching before they are restarted. */
  static final int GRACE_SECONDS = 15;

  /** How long the informers' resource versions may stand still before they are restarted. */
  static final int STALE_SECONDS = 150;

  private static final Logger LOG = LoggerFactory.getLogger(InformerWatchdog.class);
  private static final int CHECK_SECONDS = 1;

  /** Restarts the informers; may throw InterruptedException when closed meanwhile. */
  interface Restart {
    void run() throws InterruptedException;
  }

  private final Restart restart;
  private @Nullable ScheduledExecutorService timer;
  private int secondsWithoutWatch;
  private List<@Nullable String> lastVersions = List.of();
  private int[] secondsWithoutProgress = new int[0];

  InformerWatchdog(Restart restart) {
    this.restart = restart;
  }

  /**
   * @param watching whether every informer says it is watching
   * @param versions each informer's last resource version, always in the same order
   */
  synchronized void start(
      String threadName, BooleanSupplier watching, Supplier<List<@Nullable String>> versions) {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              var thread = new Thread(task, threadName);
              thread.setDaemon(true);
              return thread;
            });
    timer.scheduleWithFixedDelay(
        () -> check(watching, versions), CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
  }

  /** One check, as the timer runs it every {@link #CHECK_SECONDS}; package-private for tests. */
  void check(BooleanSupplier watching, Supplier<List<@Nullable String>> versions) {
    secondsWithoutWatch = watching.getAsBoolean() ? 0 : secondsWithoutWatch + CHECK_SECONDS;
    var current = versions.get();
    if (secondsWithoutProgress.length != current.size()) {
      secondsWithoutProgress = new int[current.size()];
    }
    int stalest = 0;
    for (int i = 0; i < current.size(); i++) {
      boolean moved = i >= lastVersions.size() || !Objects.equals(current.get(i), lastVersions.get(i));
      secondsWithoutProgress[i] = moved ? 0 : secondsWithoutProgress[i] + CHECK_SECONDS;
      stalest = Math.max(stalest, secondsWithoutProgress[i]);
    }
    lastVersions = current;
    if (secondsWithoutWatch >= GRACE_SECONDS) {
      LOG.warn(
          "The watches of nodes and pods have been down for {} s; listing everything again",
          secondsWithoutWatch);
    } else if (stalest >= STALE_SECONDS) {
      LOG.warn(
          "No watch event or bookmark for {} s: the watch is taken as lost; listing everything again",
          stalest);
    } else {
      return;
    }
    secondsWithoutWatch = 0;
    Arrays.fill(secondsWithoutProgress, 0);
    try {
      restart.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("Restarting the informers failed; trying again later", e);
    }
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}

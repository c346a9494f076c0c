package io.kubesched.informer.report;

import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers every call to a {@link SchedulingListener} on one thread of its own, {@code
 * kubesched-listener-<name>}, in the order the loop made them, so that the listener's contract holds
 * however many scheduling and binding threads report. Nothing is dropped: the backlog is unbounded (each
 * call is a few references). A call that throws is logged and the next one is delivered.
 *
 * <p>Callable from any thread. {@link #close} delivers what is queued, then stops the thread; a call made
 * after that is logged and dropped (the loop makes none once its cycles have stopped).
 */
public final class SerialListener implements SchedulingListener {

  private static final Logger LOG = LoggerFactory.getLogger(SerialListener.class);

  private final SchedulingListener delegate;
  private final ExecutorService thread;
  private volatile @Nullable Thread runner;

  /** @param name the scheduler's name, for the thread's */
  public SerialListener(SchedulingListener delegate, String name) {
    this.delegate = delegate;
    this.thread =
        Executors.newSingleThreadExecutor(
            task -> {
              var created = new Thread(task, "kubesched-listener-" + name);
              created.setDaemon(true);
              runner = created;
              return created;
            });
  }

  @Override
  public void bound(PodInfo pod, String nodeName) {
    deliver(() -> delegate.bound(pod, nodeName));
  }

  @Override
  public void unschedulable(PodInfo pod, String message) {
    deliver(() -> delegate.unschedulable(pod, message));
  }

  @Override
  public void failed(String podKey, Exception error) {
    deliver(() -> delegate.failed(podKey, error));
  }

  /**
   * Delivers the calls queued so far, waiting up to {@code timeout}, then stops the thread. From the
   * listener's own thread (a listener that closes the loop) it does not wait, as it cannot.
   *
   * @throws InterruptedException if the closing thread is interrupted while it waits
   */
  public void close(Duration timeout) throws InterruptedException {
    thread.shutdown();
    if (Thread.currentThread() != runner && !thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      LOG.warn("SchedulingListener still busy after {}; interrupting it", timeout);
      thread.shutdownNow();
    }
  }

  private void deliver(Runnable call) {
    if (delegate == SchedulingListener.NONE) {
      return; // nothing would hear it: no task per pod for the thread to run
    }
    try {
      thread.execute(
          () -> {
            try {
              call.run();
            } catch (RuntimeException e) {
              LOG.warn("SchedulingListener threw; ignoring it", e);
            }
          });
    } catch (RejectedExecutionException closed) {
      LOG.debug("SchedulingListener closed: a call made after close is dropped");
    }
  }
}

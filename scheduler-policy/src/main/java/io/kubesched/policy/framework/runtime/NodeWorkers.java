package io.kubesched.policy.framework.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * Runs one decision's per-node work in chunks on the calling thread and up to {@code parallelism - 1} threads of
 * an executor, as kube-scheduler's {@code Parallelizer.Until} runs it on its {@code parallelism} goroutines.
 *
 * <p>Chunks are claimed in increasing order from one counter, so at any time the chunks claimed are a prefix
 * {@code 0..k} of all chunks, and each one claimed is run to its end: whoever reads the results in chunk order
 * sees every chunk up to the last claimed one done. That is what makes the {@link Evaluator}'s parallel search
 * decide exactly as its sequential one: it stops claiming once the chunks done hold enough feasible nodes, and
 * then reads them in node order.
 *
 * <p>The calling thread works too, so the work ends even if no helper ever starts (the executor busy, shut down
 * or rejecting): a helper that starts after the caller has finished finds nothing left and returns at once, and
 * the caller waits only for the helpers that took part. A chunk's body must not throw (the {@link Evaluator}
 * records each node's failure as its outcome).
 *
 * <p>Thread-safe: each {@link #run} has state of its own; calls from several threads share only the executor.
 */
public final class NodeWorkers {

  private final int parallelism;
  private final Executor executor;
  private final int minNodes;
  private final int chunkSize;

  /**
   * @param parallelism how many threads work on one decision, the caller included; at least 2
   * @param executor runs the helpers; its threads must not wait on the caller
   * @param minNodes below this many nodes (or feasible nodes, for scoring) the work stays on the caller
   * @param chunkSize nodes per chunk, at least 1
   */
  public NodeWorkers(int parallelism, Executor executor, int minNodes, int chunkSize) {
    if (parallelism < 2) {
      throw new IllegalArgumentException("parallelism of node workers must be at least 2, was " + parallelism);
    }
    if (chunkSize < 1) {
      throw new IllegalArgumentException("chunkSize must be at least 1, was " + chunkSize);
    }
    this.parallelism = parallelism;
    this.executor = executor;
    this.minNodes = minNodes;
    this.chunkSize = chunkSize;
  }

  public int parallelism() {
    return parallelism;
  }

  Executor executor() {
    return executor;
  }

  int minNodes() {
    return minNodes;
  }

  int chunkSize() {
    return chunkSize;
  }

  /** @return whether {@code count} nodes are worth sharing out */
  boolean worthIt(int count) {
    return count >= minNodes && count > chunkSize;
  }

  /** @return how many chunks {@code count} nodes make */
  int chunks(int count) {
    return (count + chunkSize - 1) / chunkSize;
  }

  /**
   * Runs {@code body} for chunks {@code 0..chunks-1}, each once, in claim order, until {@code claimable} says a
   * chunk is not to be claimed (then no later one is either). Returns when every claimed chunk is done.
   *
   * @param chunks how many chunks there are
   * @param claimable asked before each claim with the chunk's index; must be cheap and thread-safe
   * @param body runs one chunk; must not throw
   */
  void run(int chunks, IntPredicate claimable, IntConsumer body) {
    var run = new Run(chunks, claimable, body);
    int helpers = Math.min(parallelism - 1, chunks - 1);
    for (int i = 0; i < helpers; i++) {
      try {
        executor.execute(run::help);
      } catch (RejectedExecutionException closing) {
        break; // the caller does what is left
      }
    }
    run.work();
    run.awaitHelpers();
  }

  /** One call's shared state. */
  private static final class Run {
    private final int chunks;
    private final IntPredicate claimable;
    private final IntConsumer body;
    private final AtomicInteger next = new AtomicInteger();
    private final Object lock = new Object();
    /** Guarded by {@link #lock}: helpers working now, and whether the caller is done (no helper may join). */
    private int active;

    private boolean closed;

    Run(int chunks, IntPredicate claimable, IntConsumer body) {
      this.chunks = chunks;
      this.claimable = claimable;
      this.body = body;
    }

    void work() {
      while (true) {
        int chunk = next.get();
        if (chunk >= chunks || !claimable.test(chunk)) {
          return;
        }
        chunk = next.getAndIncrement();
        if (chunk >= chunks) {
          return;
        }
        body.accept(chunk);
      }
    }

    void help() {
      synchronized (lock) {
        if (closed) {
          return;
        }
        active++;
      }
      try {
        work();
      } finally {
        synchronized (lock) {
          if (--active == 0) {
            lock.notifyAll();
          }
        }
      }
    }

    /** Closes the run to helpers not yet started and waits for those at work (each finishes one chunk at most). */
    void awaitHelpers() {
      boolean interrupted = false;
      synchronized (lock) {
        closed = true;
        while (active > 0) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            interrupted = true; // a chunk is short: finish waiting, then keep the interrupt for the caller
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

package io.kubesched.informer.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.kubesched.engine.Ticker;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The Lease lock of one campaign of {@link LeaderElection}: fabric8's {@code LeaseLock} with three fixes
 * and a record of when this candidate last renewed.
 *
 * <ul>
 *   <li><b>Every failure is a {@link KubernetesClientException}.</b> fabric8 8.0.0's elector retries only
 *       those. Any other exception while acquiring (a Lease without {@code renewTime} or
 *       {@code leaseDurationSeconds} makes {@code LeaseLock} throw a {@code NullPointerException}) ends
 *       the acquire loop without completing the future of {@code LeaderElector.start()}: the candidate
 *       would stop campaigning, silently and for good. As a {@code KubernetesClientException} it is logged
 *       and retried.
 *   <li><b>A failed call is logged once per change, as what it is.</b> Each failure goes to {@link LeaseCalls}
 *       (the API server's answer, once per change), and fabric8 gets it as a {@code KubernetesClientException}
 *       of one line without a stack trace: it logs every failed attempt, every retry period.
 *   <li><b>A release frees the Lease.</b> fabric8 releases by writing a record whose holder is
 *       {@code null}; fabric8's own {@code LeaseLock} writes with a JSON merge patch, which leaves a missing
 *       field as it was, so the Lease kept the old holder, with a one-second duration. An empty holder, as
 *       client-go writes, frees it for the next attempt of any candidate (also with {@link UpdatingLeaseLock}'s
 *       update, which this lock wraps in the server).
 *   <li><b>A fenced lock refuses to renew.</b> Once {@link #fence()}d, every write that names this
 *       candidate fails, while reads and the release still work, so fabric8's renewal fails until its
 *       renew deadline, then it releases and the campaign ends.
 * </ul>
 *
 * <p>Called by fabric8 on the elector's thread; {@link #renewedAt()} and {@link #fence()} may be called
 * from any thread.
 */
final class LeaderLock implements Lock {

  private final Lock delegate;
  private final Ticker ticker;
  private final LeaseCalls calls;
  private volatile long attemptStartedAt;
  private volatile long renewedAt;
  private volatile boolean fenced;

  /**
   * @param delegate fabric8's lock for the Lease and this candidate's identity
   * @param ticker the clock of {@link #renewedAt()}
   * @param calls where each call's outcome goes, shared by the campaigns of one election
   */
  LeaderLock(Lock delegate, Ticker ticker, LeaseCalls calls) {
    this.delegate = delegate;
    this.ticker = ticker;
    this.calls = calls;
    this.attemptStartedAt = ticker.nanoTime();
    this.renewedAt = attemptStartedAt;
  }

  /**
   * @return the {@link Ticker} time at which the last attempt that wrote this candidate into the Lease
   *     started (fabric8 takes the renew time it writes just before that); the creation of this lock if
   *     there was none. The Lease runs out a lease duration after it, whatever happens afterwards.
   */
  long renewedAt() {
    return renewedAt;
  }

  /** From now on, refuses to write this candidate into the Lease. Idempotent. */
  void fence() {
    fenced = true;
  }

  @Override
  public @Nullable LeaderElectionRecord get(KubernetesClient client) {
    // Every attempt of fabric8 starts with a read.
    attemptStartedAt = ticker.nanoTime();
    return call("get", () -> delegate.get(client));
  }

  @Override
  public void create(KubernetesClient client, LeaderElectionRecord record) {
    write("create", client, record, (c, r) -> delegate.create(c, r));
  }

  @Override
  public void update(KubernetesClient client, LeaderElectionRecord record) {
    var written = record.getHolderIdentity() == null ? withEmptyHolder(record) : record;
    write("update", client, written, (c, r) -> delegate.update(c, r));
  }

  @Override
  public String identity() {
    return delegate.identity();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  private interface Write {
    void to(KubernetesClient client, LeaderElectionRecord record);
  }

  private void write(String verb, KubernetesClient client, LeaderElectionRecord record, Write write) {
    boolean ours = identity().equals(record.getHolderIdentity());
    if (ours && fenced) {
      throw new KubernetesClientException(
          "Not renewing the leader lock "
              + describe()
              + ": this candidate has stopped leading after it missed its renew deadline");
    }
    var startedAt = attemptStartedAt;
    call(
        verb,
        () -> {
          write.to(client, record);
          return null;
        });
    if (ours) {
      renewedAt = startedAt;
    }
  }

  /**
   * A failed call as fabric8 gets it: the one line {@link LeaseCalls} logged, the API server's code and status,
   * and no stack trace (fabric8 logs it on each attempt; the stack would repeat every retry period).
   */
  static final class Failed extends KubernetesClientException {
    private static final long serialVersionUID = 1L;

    Failed(String line, KubernetesClientException answer) {
      super(line, answer.getCode(), answer.getStatus());
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  private static LeaderElectionRecord withEmptyHolder(LeaderElectionRecord release) {
    return new LeaderElectionRecord(
        "",
        release.getLeaseDuration(),
        release.getAcquireTime(),
        release.getRenewTime(),
        release.getLeaderTransitions());
  }

  private <T extends @Nullable Object> T call(String verb, Supplier<T> action) {
    try {
      var result = action.get();
      calls.succeeded();
      return result;
    } catch (KubernetesClientException e) {
      throw new Failed(calls.failed(verb, e), e);
    } catch (RuntimeException e) {
      throw new KubernetesClientException(
          "Could not " + verb + " the leader lock " + describe() + ": " + e, e);
    }
  }
}

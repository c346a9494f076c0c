package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.VolumeBinding;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ResourceClaim;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.ClaimOutcome;
import io.kubesched.binder.TokenBucket;
import io.kubesched.binder.VolumeOutcome;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binding cycle, as kube-scheduler's {@code bindingCycle}: writes the binding the {@link SchedulingCycle}
 * chose, off the scheduling thread, at most {@code parallelBindings} at once, each taking a token of the
 * write rate limit. A pod bound is done; a pod bound elsewhere or gone is left; a binding that failed
 * forgets the assumption and requeues the pod after backoff, remembering the node in the pod's progress in
 * case the write had landed after all (the {@linkplain io.kubesched.informer.watch.EventHandlers event
 * handlers} see it then).
 *
 * <p>A pod with volume bindings first goes through kube's VolumeBinding PreBind: its volumes' {@code
 * claimRef}s and its claims' selected nodes are written ({@link VolumePort}), then the pod waits, up to {@code
 * volumeBindingTimeout}, until the PersistentVolume controller and the provisioners have bound its claims
 * ({@link VolumeBindingCheck}); only then is the pod bound.
 *
 * <p>A pod with ResourceClaims then goes through kube's DynamicResources PreBind on its binding thread: each claim
 * gets the allocation the policy made for it (and kube's delete-protection finalizer) and the pod in its {@code
 * reservedFor} ({@link ClaimPort}); a failure takes the pod out of the claims written so far, gives the assumed
 * allocations back ({@link ClaimAssumptions}) and requeues the pod ({@code running PreBind plugin
 * "DynamicResources": ...}). A binding that fails after that takes the pod out of its claims again, as kube's
 * Unreserve. Allocations written stay assumed until the watch shows them. When a device of its claims has binding
 * conditions, the pod then waits as a pod waits for its volumes, until {@link #checkDeviceWaits} finds each such
 * device's conditions {@code True} in its claim's {@code status.devices} (the pod is bound), a binding failure
 * condition {@code True} or kube's binding timeout passed (the pod leaves its claims and is requeued: {@code running
 * PreBind plugin "DynamicResources": device binding failed: ...}), or the pod gone. A pod group's member with such a
 * device is refused before anything is written.
 *
 * <p>The wait holds neither a binding slot nor a thread. kube-scheduler's PreBind blocks a goroutine for up
 * to ten minutes, which costs Go little; a thread of the bounded pool blocked per pod waiting for a
 * provisioner would stop every other pod's binding once {@code parallelBindings} pods wait. So the writes take
 * a slot for as long as they last, the pod is then parked among the waiting ones, and {@link
 * #checkVolumeWaits} checks each waiting pod against what the informers show. It is called every second by
 * the loop's housekeeping thread, as kube polls every second; the storage informers' handlers may call it too,
 * on each claim and volume event, for a quicker answer. A pod found done is handed back to the binding pool;
 * one that failed or timed out is undone (its reservation released, its assumption forgotten), requeued after
 * backoff and reported as kube reports a PreBind failure ({@code running PreBind plugin "VolumeBinding":
 * ...}). A pod deleted or bound elsewhere while it waits is dropped at the next check.
 *
 * <p>{@link #submit} is called from the scheduling thread and blocks while every slot is taken; the
 * bindings run on the {@code binders} executor; {@link #checkVolumeWaits} and {@link #checkDeviceWaits} may be
 * called from any thread (the loop calls both each second from its housekeeping thread).
 */
public final class BindingCycle {

  private static final Logger LOG = LoggerFactory.getLogger(BindingCycle.class);

  /** The plugin kube-scheduler names in a PreBind failure of the volumes. */
  static final String PRE_BIND_FAILED = "running PreBind plugin \"VolumeBinding\": ";

  /** The plugin kube-scheduler names in a PreBind failure of the ResourceClaims. */
  static final String CLAIMS_PRE_BIND_FAILED = "running PreBind plugin \"DynamicResources\": ";

  /** How many times a group member's failed binding is retried onto its node before its group is released. */
  public static final int GROUP_BIND_RETRIES = 2;

  /** The wait before the first retry of a group member's binding; doubled before each further one. */
  public static final Duration GROUP_BIND_RETRY_DELAY = Duration.ofMillis(200);

  private final Duration groupBindRetryDelay;

  private final BindPort port;
  private final VolumePort volumes;
  private final ClaimPort claims;
  private final ClaimAssumptions claimAssumptions;
  private final TokenBucket writes;
  private final Executor binders;
  private final Semaphore slots;
  private final Duration volumeBindingTimeout;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final StorageCache storage;
  private final PendingPodLookup pending;
  private final Reporting reporting;
  private final SchedulerMetrics metrics;
  private final Ticker ticker;
  /** The pods whose volume bindings are written and awaited, by uid. */
  private final Map<String, VolumeWait> waiting = new ConcurrentHashMap<>();
  /** The pods whose claims are written and whose devices' binding conditions are awaited, by uid. */
  private final Map<String, DeviceWait> deviceWaits = new ConcurrentHashMap<>();
  /** The wall clock the claims' allocation timestamps are compared with. */
  private final Clock wallClock = Clock.systemUTC();

  /** One pod waiting for its devices' binding conditions; checked by one thread at a time. */
  private record DeviceWait(Assumed assumed, long deadlineNanos) {

    String uid() {
      return assumed.uid();
    }
  }

  /** One pod waiting for its volumes; checked by one thread at a time. */
  private record VolumeWait(Assumed assumed, long deadlineNanos, VolumeBindingCheck check) {

    String uid() {
      return assumed.uid();
    }
  }

  /**
   * @param pending the pod of a uid while it is pending and ours; null once it is deleted or bound
   * @param groupBindRetryDelay the wait before a group member's failed binding is first retried ({@link
   *     #GROUP_BIND_RETRY_DELAY} in the running loop)
   */
  public BindingCycle(
      BindPort port,
      VolumePort volumes,
      ClaimPort claims,
      ClaimAssumptions claimAssumptions,
      TokenBucket writes,
      Executor binders,
      int parallelBindings,
      Duration volumeBindingTimeout,
      SchedulingQueue queue,
      SchedulerCache cache,
      StorageCache storage,
      PendingPodLookup pending,
      Reporting reporting,
      SchedulerMetrics metrics,
      Ticker ticker,
      Duration groupBindRetryDelay) {
    this.groupBindRetryDelay = groupBindRetryDelay;
    this.port = port;
    this.volumes = volumes;
    this.claims = claims;
    this.claimAssumptions = claimAssumptions;
    this.writes = writes;
    this.binders = binders;
    this.slots = new Semaphore(parallelBindings);
    this.volumeBindingTimeout = volumeBindingTimeout;
    this.queue = queue;
    this.cache = cache;
    this.storage = storage;
    this.pending = pending;
    this.reporting = reporting;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /**
   * Hands an assumed pod to a binding thread, waiting for a free slot first.
   *
   * @param assumed the attempt and the node its pod is assumed on
   * @param volumeBindings what to write before the pod is bound, already reserved in the {@link StorageCache};
   *     empty for none
   * @throws InterruptedException if the scheduling thread is interrupted while it waits for a slot
   */
  void submit(Assumed assumed, List<VolumeBinding> volumeBindings) throws InterruptedException {
    submit(assumed, volumeBindings, null);
  }

  /**
   * Hands an assumed member of a placed pod group to a binding thread, waiting for a free slot first. A failed
   * binding is retried onto the same node ({@link #GROUP_BIND_RETRIES} times, after the loop's retry delay,
   * doubled each time); if it still fails, or the member is gone, the {@code group} is released: its members not
   * bound yet give up their assumptions and go back to the queue. A member has no volume bindings; its claims are
   * written first (a failure releases the group too).
   *
   * @param group the group's bindings
   * @throws InterruptedException if the scheduling thread is interrupted while it waits for a slot
   */
  void submit(Assumed member, GroupBinding group) throws InterruptedException {
    submit(member, List.of(), group);
  }

  private void submit(Assumed assumed, List<VolumeBinding> volumeBindings, @Nullable GroupBinding group)
      throws InterruptedException {
    slots.acquire();
    try {
      binders.execute(() -> {
        try {
          if (group != null) {
            bindMember(assumed, group);
          } else if (volumeBindings.isEmpty()) {
            bindPod(assumed);
          } else {
            preBind(assumed, volumeBindings);
          }
        } finally {
          slots.release();
        }
      });
    } catch (RejectedExecutionException closing) {
      slots.release();
      undo(assumed.uid());
      if (group != null) {
        group.finished(assumed.uid(), false);
      }
    }
  }

  /** @return how many binding slots are free now (a pod waiting for its volumes holds none) */
  public int freeSlots() {
    return slots.availablePermits();
  }

  /** @return how many pods wait for their volumes to be bound */
  public int volumeWaits() {
    return waiting.size();
  }

  /** @return how many pods wait for their devices' binding conditions */
  public int deviceWaits() {
    return deviceWaits.size();
  }

  /**
   * Checks every pod waiting for its devices' binding conditions (kube's DynamicResources PreBind poll): binds those
   * whose claims' devices all meet them, and fails those whose binding failed or timed out, or that are gone (the
   * claims are given up and the pod requeued, on a binding thread). Cheap (no API request: it reads the claims the
   * informers show); callable from any thread, at any time.
   */
  public void checkDeviceWaits() {
    for (var wait : deviceWaits.values()) {
      try {
        check(wait);
      } catch (RuntimeException e) {
        if (deviceWaits.remove(wait.uid(), wait)) {
          forgetAssumed(wait.uid());
          PodLog.of(LOG.atError(), wait.assumed()).setCause(e)
              .log("Unexpected failure checking the devices of pod {}; it will be retried", wait.assumed().key());
          queue.requeueAfterError(wait.assumed().attempt().item());
        }
      }
    }
  }

  /**
   * Checks every pod waiting for its volumes: binds those whose claims are bound, undoes and requeues those
   * whose binding failed, timed out, or that are gone. Cheap (no API request); callable from any thread, at
   * any time: on a timer, and on every claim and volume event.
   */
  public void checkVolumeWaits() {
    for (var wait : waiting.values()) {
      try {
        check(wait);
      } catch (RuntimeException e) {
        if (waiting.remove(wait.uid(), wait)) {
          undo(wait.uid());
          PodLog.of(LOG.atError(), wait.assumed()).setCause(e)
              .log("Unexpected failure checking the volumes of pod {}; it will be retried", wait.assumed().key());
          queue.requeueAfterError(wait.assumed().attempt().item());
        }
      }
    }
  }

  /** Writes the volume bindings (kube's {@code bindAPIUpdate}), then parks the pod until they are carried out. */
  private void preBind(Assumed assumed, List<VolumeBinding> bindings) {
    var nodeName = assumed.nodeName();
    try {
      for (var binding : bindings) {
        var outcome =
            binding instanceof VolumeBinding.Static bound
                ? volumes.bindVolume(
                    bound.volumeName(), bound.claimNamespace(), bound.claimName(), bound.claimUid())
                : volumes.selectNode(
                    binding.claimNamespace(), binding.claimName(),
                    ((VolumeBinding.Provision) binding).claimUid(), nodeName);
        if (outcome instanceof VolumeOutcome.Failed failed) {
          preBindFailed(assumed, failed.detail());
          return;
        }
      }
    } catch (InterruptedException e) {
      undo(assumed.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      undo(assumed.uid());
      PodLog.of(LOG.atError(), assumed).setCause(e)
          .log("Unexpected failure binding the volumes of pod {}; it will be retried", assumed.key());
      queue.requeueAfterError(assumed.attempt().item());
      return;
    }
    var wait =
        new VolumeWait(
            assumed, ticker.nanoTime() + volumeBindingTimeout.toNanos(), new VolumeBindingCheck(nodeName, bindings));
    waiting.put(assumed.uid(), wait);
    PodLog.of(LOG.atDebug(), assumed).log("Waiting for the volumes of pod {} to be bound", assumed.key());
    check(wait);
  }

  private void check(VolumeWait wait) {
    synchronized (wait) {
      if (waiting.get(wait.uid()) != wait) {
        return; // finished by another thread
      }
      var uid = wait.uid();
      // After an asynchronous wait: whether the pod is still ours to bind, as the watch shows it now.
      if (pending.pendingPod(uid) == null) {
        waiting.remove(uid, wait);
        undo(uid);
        queue.done(uid);
        PodLog.of(LOG.atInfo(), wait.assumed())
            .log("Stopped binding the volumes of pod {}: it was deleted or bound elsewhere", wait.assumed().key());
        return;
      }
      var nodeName = wait.assumed().nodeName();
      var node = cache.nodes().node(nodeName);
      VolumeBindingCheck.Result result =
          node == null
              ? new VolumeBindingCheck.Result.Failed(
                  "failed to get node \"" + nodeName + "\": node \"" + nodeName + "\" not found")
              : wait.check().check(storage, node.labels());
      if (result instanceof VolumeBindingCheck.Result.Pending) {
        if (ticker.nanoTime() - wait.deadlineNanos() < 0) {
          return;
        }
        result = new VolumeBindingCheck.Result.Failed("context deadline exceeded");
      }
      waiting.remove(uid, wait);
      if (result instanceof VolumeBindingCheck.Result.Failed failed) {
        var detail = "binding volumes: " + failed.message();
        preBindFailed(wait.assumed(), detail);
        return;
      }
    }
    PodLog.of(LOG.atDebug(), wait.assumed()).log("The volumes of pod {} are bound", wait.assumed().key());
    try {
      binders.execute(() -> bindPod(wait.assumed()));
    } catch (RejectedExecutionException closing) {
      undo(wait.uid());
    }
  }

  /** kube's Unreserve after a failed PreBind, then the pod back to the queue after backoff. */
  private void preBindFailed(Assumed assumed, String detail) {
    preBindFailed(assumed, PRE_BIND_FAILED, detail);
  }

  private void preBindFailed(Assumed assumed, String plugin, String detail) {
    var attempt = assumed.attempt();
    var item = attempt.item();
    undo(item.uid());
    var error = new SchedulerException(plugin + detail);
    PodLog.of(LOG.atWarn(), assumed).log("PreBind of pod {} for node {} failed: {}; retrying after backoff",
        item.key(), assumed.nodeName(), error.getMessage());
    queue.requeueAfterError(item);
    metrics.attempt(item.profile(), Result.ERROR, since(attempt));
    // The pod may have changed during the volume writes and the wait for them: the report is written about the
    // object the watch shows now (its status patch is locked to that resourceVersion), else about the attempt's.
    var current = pending.pendingPod(item.uid());
    reporting.failed(current == null ? attempt : attempt.withPod(current), error);
  }

  /** Unreserve: releases the pod's volume reservation, its assumed claim allocations, and forgets its assumption. */
  private void undo(String uid) {
    storage.release(uid);
    forgetAssumed(uid);
  }

  /** Gives the pod's assumed claim allocations back and forgets its assumption in the cache. */
  private void forgetAssumed(String uid) {
    claimAssumptions.forget(uid);
    cache.forget(uid);
  }

  /**
   * kube's DynamicResources PreBind: writes each claim's allocation (when the policy made one) and the pod into its
   * {@code reservedFor}, in order; the claim for the pod's extended resources is created first, and once written
   * the pod's {@code status.extendedResourceClaimStatus} names it. On the first failure the claims written so far
   * give the pod up again and a claim created is deleted (kube's Unreserve), the attempt is undone and the pod
   * requeued after backoff.
   *
   * @return {@code assumed} with the claims as written (a created claim under its name); {@code null} on a failure
   */
  private @Nullable Assumed reserveClaims(Assumed assumed) throws InterruptedException {
    var info = assumed.attempt().info();
    var written = new ArrayList<ClaimAllocation>(assumed.claimAllocations().size());
    for (var planned : assumed.claimAllocations()) {
      var claim = planned;
      if (planned.toCreate()) {
        var made = claims.create(planned);
        if (!(made instanceof ClaimOutcome.Created created)) {
          unreserveClaims(written, info.uid());
          preBindFailed(assumed, CLAIMS_PRE_BIND_FAILED,
              made instanceof ClaimOutcome.Failed failed ? failed.detail() : "claim creation answered " + made);
          return null;
        }
        claim = planned.created(created.name(), created.uid());
        written.add(claim); // from here a failure deletes it
      }
      var outcome = claims.reserve(claim, info.name(), info.uid());
      if (outcome instanceof ClaimOutcome.Written && claim != planned) {
        claimAssumptions.created(info.uid(), planned.uid(), claim);
        outcome = claims.writePodStatus(claim, info.name(), info.uid());
      }
      if (outcome instanceof ClaimOutcome.Failed failed) {
        unreserveClaims(written, info.uid());
        preBindFailed(assumed, CLAIMS_PRE_BIND_FAILED, failed.detail());
        return null;
      }
      if (claim == planned) {
        written.add(claim);
      }
    }
    return assumed.withClaimAllocations(written);
  }

  /**
   * @return whether a claim of the pod has a device with binding conditions (kube's {@code hasBindingConditions}):
   *     in the allocation made for it, or, for a claim allocated before, as the claim is seen now
   */
  private boolean hasBindingConditions(List<ClaimAllocation> allocations) {
    for (var claim : allocations) {
      var allocation = claim.allocation();
      if (allocation != null) {
        if (allocation.devices().stream().anyMatch(d -> !d.bindingConditions().isEmpty())) {
          return true;
        }
      } else if (claimAssumptions.current(claim.namespace(), claim.name())
          .filter(c -> c.uid().equals(claim.uid()) && c.hasBindingConditions()).isPresent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The rest of kube's DynamicResources PreBind for a pod whose claims are written and one of whose devices has
   * binding conditions: a {@code BindingConditionsPending} event, then the pod is parked (no slot, no thread held)
   * until {@link #checkDeviceWaits} finds every such device's conditions {@code True} in its claim's {@code
   * status.devices}, a failure condition {@code True}, or kube's binding timeout passed.
   */
  private void awaitBindingConditions(Assumed assumed) {
    reporting.bindingConditionsPending(assumed);
    var wait = new DeviceWait(assumed, ticker.nanoTime() + ResourceClaim.DEFAULT_BINDING_TIMEOUT.toNanos());
    deviceWaits.put(assumed.uid(), wait);
    PodLog.of(LOG.atDebug(), assumed)
        .log("Waiting for the binding conditions of the devices of pod {} on node {}", assumed.key(),
            assumed.nodeName());
    check(wait);
  }

  private void check(DeviceWait wait) {
    String failure;
    boolean gone;
    synchronized (wait) {
      if (deviceWaits.get(wait.uid()) != wait) {
        return; // finished by another thread
      }
      // After an asynchronous wait: whether the pod is still ours to bind, as the watch shows it now.
      gone = pending.pendingPod(wait.uid()) == null;
      failure = gone ? "" : bindingFailure(wait);
      if (failure == null) {
        return; // still waiting
      }
      deviceWaits.remove(wait.uid(), wait);
    }
    var assumed = wait.assumed();
    try {
      binders.execute(() -> {
        try {
          if (gone) {
            unreserveClaims(assumed.claimAllocations(), assumed.uid());
            forgetAssumed(assumed.uid());
            queue.done(assumed.uid());
            PodLog.of(LOG.atInfo(), assumed).log(
                "Stopped waiting for the devices of pod {}: it was deleted or bound elsewhere", assumed.key());
          } else if (failure.isEmpty()) {
            PodLog.of(LOG.atDebug(), assumed).log("The devices of pod {} meet their binding conditions", assumed.key());
            bindPodWithClaims(assumed);
          } else {
            // kube's PreBind error, then its Unreserve: the pod leaves its claims, which keep their allocation (the
            // next attempt's PostFilter deallocates a claim whose binding failed or timed out).
            unreserveClaims(assumed.claimAllocations(), assumed.uid());
            preBindFailed(assumed, CLAIMS_PRE_BIND_FAILED, failure);
          }
        } catch (InterruptedException e) {
          forgetAssumed(assumed.uid());
          Thread.currentThread().interrupt();
        }
      });
    } catch (RejectedExecutionException closing) {
      forgetAssumed(wait.uid());
    }
  }

  /**
   * kube's {@code isPodReadyForBinding} over the claims as seen now, then its poll's own deadline.
   *
   * @return {@code null} while waiting; empty when every device is ready; else kube's error
   */
  private @Nullable String bindingFailure(DeviceWait wait) {
    var now = wallClock.instant();
    for (var planned : wait.assumed().claimAllocations()) {
      var claim = claimAssumptions.current(planned.namespace(), planned.name())
          .filter(c -> c.uid().equals(planned.uid())).orElse(null);
      if (claim == null) {
        return "claim " + planned.namespace() + "/" + planned.name() + " got deleted in the meantime";
      }
      var state = claim.bindingState();
      if (state instanceof ResourceClaim.BindingState.Failed failed) {
        return failed.message();
      }
      if (state instanceof ResourceClaim.BindingState.Pending) {
        if (claim.bindingTimedOut(now, ResourceClaim.DEFAULT_BINDING_TIMEOUT)) {
          return "device binding timeout: claim=" + claim.name();
        }
        return ticker.nanoTime() - wait.deadlineNanos() < 0 ? null
            : "device binding timeout: context deadline exceeded";
      }
    }
    return "";
  }

  /**
   * kube's DynamicResources Unreserve for claims already written: the pod leaves their {@code reservedFor}; the
   * claim created for its extended resources is deleted; one never created has nothing to undo.
   */
  private void unreserveClaims(List<ClaimAllocation> written, String podUid) throws InterruptedException {
    for (var claim : written) {
      if (claim.create() == null) {
        claims.unreserve(claim, podUid);
      } else if (!claim.toCreate()) {
        claims.delete(claim);
      }
    }
  }

  private void bindPod(Assumed assumed) {
    var item = assumed.attempt().item();
    try {
      var reserved = assumed.claimAllocations().isEmpty() ? assumed : reserveClaims(assumed);
      if (reserved == null) {
        return;
      }
      if (hasBindingConditions(reserved.claimAllocations())) {
        awaitBindingConditions(reserved);
        return;
      }
      bind(reserved);
    } catch (InterruptedException e) {
      forgetAssumed(item.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      forgetAssumed(item.uid());
      PodLog.of(LOG.atError(), item).setCause(e).log("Unexpected failure binding pod {}; it will be retried", item.key());
      queue.requeueAfterError(item);
    } finally {
      // Bound: the informers show its claims bound already (the wait saw them), the overlay is not needed.
      storage.release(item.uid());
    }
  }

  /** Binds a pod whose claims were written and whose devices met their binding conditions. */
  private void bindPodWithClaims(Assumed assumed) throws InterruptedException {
    var item = assumed.attempt().item();
    try {
      bind(assumed);
    } catch (RuntimeException e) {
      forgetAssumed(item.uid());
      PodLog.of(LOG.atError(), item).setCause(e).log("Unexpected failure binding pod {}; it will be retried", item.key());
      queue.requeueAfterError(item);
    }
  }

  /**
   * Binds a member of a placed group: as {@link #bindPod}, but given up at once if its group was released, and a
   * failed binding retried onto the same node before the group is released.
   */
  private void bindMember(Assumed member, GroupBinding group) {
    var item = member.attempt().item();
    boolean bound = false;
    try {
      if (!group.start(item.uid())) {
        forgetAssumed(item.uid());
        PodLog.of(LOG.atInfo(), item).log("Not binding pod {}: another member of its group {} could not be bound",
            item.key(), group.group().key());
        queue.requeueAfterError(item);
        return;
      }
      var claimed = member.claimAllocations();
      if (!claimed.isEmpty() && hasBindingConditions(claimed)) {
        // A group's members are bound together, without a wait between the claims and the binding: a device that
        // must first be prepared is refused before anything is written rather than used before it is ready.
        preBindFailed(member, CLAIMS_PRE_BIND_FAILED, "a claim of pod " + item.key() + " has devices with binding"
            + " conditions, which kubesched does not wait for in a pod group yet");
        group.release();
        return;
      }
      var reserved = claimed.isEmpty() ? member : reserveClaims(member);
      if (reserved == null) {
        group.release(); // its claims could not be written: the group cannot complete as placed
        return;
      }
      var outcome = bindWithRetries(reserved, group);
      if (!(outcome instanceof BindOutcome.Bound)) {
        unreserveClaims(reserved.claimAllocations(), item.uid());
      }
      bound = outcome instanceof BindOutcome.Bound || outcome instanceof BindOutcome.Conflict;
      if (!bound) {
        group.release();
      }
      settle(member, outcome);
    } catch (InterruptedException e) {
      forgetAssumed(item.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      forgetAssumed(item.uid());
      group.release();
      PodLog.of(LOG.atError(), item).setCause(e).log("Unexpected failure binding pod {}; it will be retried", item.key());
      queue.requeueAfterError(item);
    } finally {
      group.finished(item.uid(), bound);
    }
  }

  private BindOutcome bindWithRetries(Assumed member, GroupBinding group) throws InterruptedException {
    var item = member.attempt().item();
    var nodeName = member.nodeName();
    var delay = groupBindRetryDelay;
    for (int retry = 0; ; retry++) {
      writes.acquire();
      long bindStart = ticker.nanoTime();
      var outcome = port.bind(member.attempt().pod(), nodeName);
      metrics.bound(
          item.profile(), Duration.ofNanos(ticker.nanoTime() - bindStart), outcome instanceof BindOutcome.Bound);
      if (!(outcome instanceof BindOutcome.Failed failed) || retry == GROUP_BIND_RETRIES || group.isReleased()) {
        return outcome;
      }
      PodLog.of(LOG.atInfo(), item, nodeName).log("Binding pod {} of group {} to {} failed ({}); retrying onto the same node in {} ms",
          item.key(), group.group().key(), nodeName, failed.detail(), delay.toMillis());
      Thread.sleep(delay.toMillis());
      delay = delay.multipliedBy(2);
    }
  }

  private void bind(Assumed assumed) throws InterruptedException {
    var attempt = assumed.attempt();
    writes.acquire();
    long bindStart = ticker.nanoTime();
    var outcome = port.bind(attempt.pod(), assumed.nodeName());
    metrics.bound(
        attempt.item().profile(), Duration.ofNanos(ticker.nanoTime() - bindStart),
        outcome instanceof BindOutcome.Bound);
    if (!(outcome instanceof BindOutcome.Bound)) {
      // kube's Unreserve after a failed binding: the pod leaves the claims it was written into; settle gives the
      // allocations assumed back (an allocation written stays on the claim, for the resource claim controller).
      unreserveClaims(assumed.claimAllocations(), attempt.uid());
    }
    settle(assumed, outcome);
  }

  /** Acts on a binding's outcome: done if bound (by us or another), else the assumption forgotten. */
  private void settle(Assumed assumed, BindOutcome outcome) {
    var attempt = assumed.attempt();
    var item = attempt.item();
    var nodeName = assumed.nodeName();
    long startedNanos = attempt.startedNanos();
    long now = ticker.nanoTime();
    // Whoever takes the pod out of the queue tells the listener of a binding whose answer was lost: the watch
    // if it sees the pod there first (it has told it then), else this attempt.
    var unconfirmed = item.progress().unconfirmedNode();
    if (outcome instanceof BindOutcome.Bound) {
      cache.finishBinding(item.uid());
      boolean watchTookIt = !queue.done(item.uid()) && nodeName.equals(unconfirmed);
      metrics.attempt(item.profile(), Result.SCHEDULED, Duration.ofNanos(now - startedNanos));
      var progress = item.progress();
      metrics.scheduled(progress.attempts(), Duration.ofNanos(now - progress.initialAttemptNanos()));
      reporting.scheduled(assumed, !watchTookIt);
      return;
    }
    forgetAssumed(item.uid());
    if (outcome instanceof BindOutcome.Conflict conflict) {
      boolean known = queue.done(item.uid());
      if (known && conflict.actualNode().equals(unconfirmed)) {
        reporting.lateBinding(attempt.info(), unconfirmed);
      } else {
        PodLog.of(LOG.atInfo(), item, conflict.actualNode())
            .log("Pod {} was bound to {} by someone else; leaving it there", item.key(), conflict.actualNode());
      }
    } else if (outcome instanceof BindOutcome.PodGone gone) {
      queue.done(item.uid());
      PodLog.of(LOG.atInfo(), item).log("Not binding pod {}: {}", item.key(), gone.detail());
    } else if (outcome instanceof BindOutcome.Failed failed) {
      var error =
          new SchedulerException(
              "binding pod " + item.key() + " to node " + nodeName + " failed: " + failed.detail());
      PodLog.of(LOG.atWarn(), item, nodeName).log("{}; retrying after backoff", error.getMessage());
      queue.requeueAfterError(item.withProgress(item.progress().withUnconfirmedNode(nodeName)));
      metrics.attempt(item.profile(), Result.ERROR, since(attempt));
      reporting.failed(attempt, error);
    }
  }

  private Duration since(Attempt attempt) {
    return Duration.ofNanos(ticker.nanoTime() - attempt.startedNanos());
  }
}

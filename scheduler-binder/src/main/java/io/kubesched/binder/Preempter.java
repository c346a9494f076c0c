package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubesched.binder.report.SchedulingReporter;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API writes of kube-scheduler's preemption executor ({@code framework/preemption/executor.go}): a victim
 * is marked with the {@code DisruptionTarget} condition and deleted; a pod whose nomination no longer holds
 * has it removed.
 *
 * <p>{@link #preempt}: a JSON Patch of {@code pods/status} adds (or replaces) the condition {@code
 * DisruptionTarget}, status {@code True}, reason {@code PreemptionByScheduler}, the message given,
 * lastTransitionTime now (kept if the pod had the condition with status True already), observedGeneration
 * the pod's generation; it is skipped if the pod shows that condition already (Kubernetes'
 * {@code UpdatePodCondition} rule, see {@link PodConditionUpdate}). Like the {@code PodScheduled} condition of
 * {@link SchedulingReporter}, the patch is locked to the resourceVersion seen (kube-scheduler sends a
 * strategic-merge patch, which fabric8's mock server refuses); a pod changed meanwhile (409, or 422 if the
 * patch no longer fits it) is read again and the decision made again, up to {@value #PATCH_ATTEMPTS} times. A
 * victim given without a resourceVersion or a status (only named, as the scheduling loop names its victims) is read
 * before the first patch: a patch that adds {@code /status} to a pod seen without one would replace the status the
 * pod has; one already being deleted then gets no write.
 * Then a {@code DELETE} with the default grace period and {@code preconditions.uid} set to the victim's uid:
 * kube-scheduler sends no precondition; with it, a pod created again under the victim's name is never deleted
 * (the server answers 409 Conflict).
 *
 * <p>RBAC: {@code ""} {@code pods}: delete, get (a victim given by name, and the re-read after a conflict); {@code
 * ""} {@code pods/status}: patch.
 *
 * <p>Every request first takes a token from the {@link TokenBucket} given (share it with the binder's
 * writes). Thread-safe and stateless; the methods block the calling thread for the requests (call them from
 * the preemption executor, never the scheduling thread) and never throw for an API error.
 */
public final class Preempter {

  /** The condition's type. */
  public static final String DISRUPTION_TARGET = "DisruptionTarget";

  /** The condition's reason. */
  public static final String PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";

  /** How often the condition patch is tried on a pod that changes while it is written. */
  static final int PATCH_ATTEMPTS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(Preempter.class);

  private final KubernetesClient client;
  private final TokenBucket writes;
  private final Clock clock;

  /**
   * @param client the client to write with; not closed by this preempter
   * @param writes the rate limit of the scheduler's writes: every request takes a token
   */
  public Preempter(KubernetesClient client, TokenBucket writes) {
    this(client, writes, Clock.systemUTC());
  }

  /** A preempter on a given clock (for tests): it dates the condition's lastTransitionTime. */
  Preempter(KubernetesClient client, TokenBucket writes, Clock clock) {
    this.client = client;
    this.writes = writes;
    this.clock = clock;
  }

  /**
   * kube-scheduler's message on a victim's {@code DisruptionTarget} condition.
   *
   * @param schedulerName the preemptor's {@code spec.schedulerName}
   * @return {@code <schedulerName>: preempting to accommodate a higher priority pod}
   */
  public static String conditionMessage(String schedulerName) {
    return schedulerName + ": preempting to accommodate a higher priority pod";
  }

  /**
   * Marks the victim with the {@code DisruptionTarget} condition, then deletes it (see the class comment). A
   * victim already being deleted (it has a deletionTimestamp) is left alone: no request is made, as
   * kube-scheduler sends none for it.
   *
   * @param victim the pod to preempt, as last seen by the informer; needs a namespace, a name and a uid
   * @param conditionMessage the condition's message (see {@link #conditionMessage})
   * @return {@link VictimOutcome#DELETED} if the delete was accepted; {@link VictimOutcome#GONE} if the victim
   *     was already being deleted, or either request found it gone (404) or replaced by a pod of another uid
   *     (409 on the delete; on the patch, found so by reading it again); {@link VictimOutcome.Failed} with a
   *     message naming the pod and the server's answer if a request failed otherwise (then the victim is not
   *     deleted, and the failure is not logged here)
   * @throws IllegalArgumentException if the victim has no namespace, name or uid
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public VictimOutcome preempt(Pod victim, String conditionMessage) throws InterruptedException {
    var key = keyOf(victim, true);
    if (victim.getMetadata().getDeletionTimestamp() != null) {
      PodLog.victim(LOG.atDebug(), victim, key).log("Victim {} is already being deleted: no request", key);
      return VictimOutcome.GONE;
    }
    var marked = markDisruptionTarget(victim, key, conditionMessage);
    if (marked != null) {
      return marked;
    }
    return delete(victim, key);
  }

  /**
   * Removes the pod's {@code status.nominatedNodeName} with a JSON merge patch ({@code {"status":
   * {"nominatedNodeName": null}}}, the patch kube-scheduler sends), if the pod as given has one; else makes no
   * request.
   *
   * @param pod the pod as last seen by the informer; needs a namespace and a name
   * @return true if the pod had no nomination, has none now, or is gone (404, logged at DEBUG: not retried);
   *     false if the patch failed otherwise (logged at WARN)
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public boolean clearNomination(Pod pod) throws InterruptedException {
    var key = keyOf(pod, false);
    var status = pod.getStatus();
    if (status == null || status.getNominatedNodeName() == null || status.getNominatedNodeName().isEmpty()) {
      return true;
    }
    writes.acquire();
    try {
      pods(pod)
          .resource(pod) // by name, fabric8 would GET the pod before the patch
          .subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"nominatedNodeName\":null}}");
      return true;
    } catch (KubernetesClientException e) {
      interruptedDuring("clearing the nomination of", key);
      if (e.getCode() == 404) { // deleted meanwhile: churn, not a failure (see SchedulingReporter)
        PodLog.of(LOG.atDebug(), pod).log("Not clearing the nomination of pod {}: it is gone", key);
        return true;
      }
      PodLog.of(LOG.atWarn(), pod).log("Clearing the nomination of pod {} failed: {}", key, ApiRequests.describe(e));
      return false;
    }
  }

  /** @return null if the pod shows the condition now; else how the preemption ended */
  private @Nullable VictimOutcome markDisruptionTarget(Pod victim, String key, String message)
      throws InterruptedException {
    var seen = victim;
    if (victim.getMetadata().getResourceVersion() == null || victim.getStatus() == null) {
      // Named only (the scheduling loop's victims: namespace, name, uid): its conditions are unknown, and the patch
      // for a pod without status adds /status, which would replace the whole status the pod has. Read it first.
      var fresh = reread(victim, key);
      if (fresh.pod() == null) {
        return fresh.otherwise();
      }
      if (fresh.pod().getMetadata().getDeletionTimestamp() != null) {
        PodLog.victim(LOG.atDebug(), victim, key).log("Victim {} is already being deleted, as read: no write", key);
        return VictimOutcome.GONE;
      }
      seen = fresh.pod();
    }
    for (int attempt = 1; ; attempt++) {
      var update = PodConditionUpdate.of(seen.getStatus(), condition(seen, message), now());
      if (update.isEmpty()) {
        return null;
      }
      var patch =
          client
              .getKubernetesSerialization()
              .asJson(update.get().jsonPatch(seen.getMetadata().getResourceVersion(), seen.getStatus()));
      writes.acquire();
      try {
        pods(seen).resource(seen).subresource("status").patch(PatchContext.of(PatchType.JSON), patch);
        return null;
      } catch (KubernetesClientException e) {
        interruptedDuring("patching the status of", key);
        if (e.getCode() == 404) {
          return VictimOutcome.GONE;
        }
        if (attempt < PATCH_ATTEMPTS && (e.getCode() == 409 || e.getCode() == 422)) {
          // The pod changed since it was seen: read it again and decide again.
          var fresh = reread(victim, key);
          if (fresh.pod() == null) {
            return fresh.otherwise();
          }
          seen = fresh.pod();
          continue;
        }
        return VictimOutcome.failed("patching the status of pod " + key + " failed: " + ApiRequests.describe(e));
      }
    }
  }

  /**
   * A victim read again: the pod as the server has it now, or, if there is none to patch, how the preemption
   * ended.
   */
  private record Reread(@Nullable Pod pod, VictimOutcome otherwise) {}

  /** @return the pod now; else GONE if it is gone or was replaced, FAILED if it could not be read */
  private Reread reread(Pod victim, String key) throws InterruptedException {
    writes.acquire();
    Pod fresh;
    try {
      fresh = pods(victim).withName(victim.getMetadata().getName()).get();
    } catch (KubernetesClientException e) {
      interruptedDuring("reading", key);
      return new Reread(
          null, VictimOutcome.failed("reading pod " + key + " failed: " + ApiRequests.describe(e)));
    }
    if (fresh == null || !victim.getMetadata().getUid().equals(fresh.getMetadata().getUid())) {
      return new Reread(null, VictimOutcome.GONE);
    }
    return new Reread(fresh, VictimOutcome.GONE);
  }

  private VictimOutcome delete(Pod victim, String key) throws InterruptedException {
    var meta = victim.getMetadata();
    DeleteOptions options =
        new DeleteOptionsBuilder()
            .withApiVersion("v1")
            .withKind("DeleteOptions")
            .withNewPreconditions()
            .withUid(meta.getUid())
            .endPreconditions()
            .build();
    // fabric8's delete() can lock the resourceVersion but sends no uid precondition: a raw request does.
    var path = "/api/v1/namespaces/" + meta.getNamespace() + "/pods/" + meta.getName();
    writes.acquire();
    try {
      client.raw(path, "DELETE", options);
      PodLog.victim(LOG.atDebug(), victim, key).log("Deleted victim {}", key);
      return VictimOutcome.DELETED;
    } catch (KubernetesClientException e) {
      interruptedDuring("deleting", key);
      // 409: the precondition failed, the pod of that name is another one.
      if (e.getCode() == 404 || e.getCode() == 409) {
        return VictimOutcome.GONE;
      }
      return VictimOutcome.failed("deleting pod " + key + " failed: " + ApiRequests.describe(e));
    }
  }

  private PodCondition condition(Pod pod, String message) {
    var generation = pod.getMetadata().getGeneration();
    return new PodConditionBuilder()
        .withType(DISRUPTION_TARGET)
        .withStatus("True")
        .withReason(PREEMPTION_BY_SCHEDULER)
        .withMessage(message)
        .withObservedGeneration(generation != null && generation > 0 ? generation : null)
        .build();
  }

  private String now() {
    return PodConditionUpdate.conditionTime(clock.instant());
  }

  private NonNamespaceOperation<Pod, PodList, PodResource> pods(Pod pod) {
    return client.pods().inNamespace(pod.getMetadata().getNamespace());
  }

  /** Turns the client's laundered interrupt back into an {@link InterruptedException}. */
  private static void interruptedDuring(String doing, String key) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while " + doing + " pod " + key);
    }
  }

  private static String keyOf(Pod pod, boolean needsUid) {
    var meta = pod.getMetadata();
    if (meta == null
        || isBlank(meta.getNamespace())
        || isBlank(meta.getName())
        || (needsUid && isBlank(meta.getUid()))) {
      throw new IllegalArgumentException(
          "pod to write needs a namespace"
              + (needsUid ? ", a name and a uid" : " and a name")
              + ", was "
              + (meta == null ? "without metadata" : meta.getNamespace() + "/" + meta.getName()
                  + (needsUid ? " uid " + meta.getUid() : "")));
    }
    return meta.getNamespace() + "/" + meta.getName();
  }

  private static boolean isBlank(@Nullable String s) {
    return s == null || s.isBlank();
  }
}

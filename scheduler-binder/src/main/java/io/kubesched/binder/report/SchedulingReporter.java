package io.kubesched.binder.report;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubesched.binder.ApiRequests;
import io.kubesched.binder.PodConditionUpdate;
import io.kubesched.binder.PodLog;
import io.kubesched.binder.TokenBucket;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What kube-scheduler writes about a pod besides its binding: the {@code Scheduled} and
 * {@code FailedScheduling} events ({@code events.k8s.io/v1}) and the pod's {@code PodScheduled} condition.
 *
 * <ul>
 *   <li>{@link #scheduled}: event {@code Scheduled}, type Normal, action Binding, note "Successfully
 *       assigned ns/name to node". The condition is not touched: the API server sets
 *       {@code PodScheduled=True} itself when it stores the binding.
 *   <li>{@link #unschedulable} / {@link #schedulingError}: event {@code FailedScheduling}, type Warning,
 *       action Scheduling, note the message (cut to the API's 1024 bytes); then {@code PodScheduled=False}
 *       with reason {@code Unschedulable} or {@code SchedulerError} and the whole message, written only if
 *       the pod does not show it already ({@link PodConditionUpdate}). The three-argument forms also set or
 *       remove the pod's {@code status.nominatedNodeName}, in the same status patch as the condition
 *       (kube-scheduler's {@code updatePod}): one write, and none if the pod shows both already.
 *   <li>{@link #preempted}: event {@code Preempted}, type Normal, action Preempting, about the victim of a
 *       preemption, with the preemptor as its related object.
 * </ul>
 *
 * <p>Events name the pod with its uid and resourceVersion; reportingController is the scheduler's name and
 * reportingInstance {@code <scheduler name>-<hostname>}. Repeats of an event for an unchanged pod become a
 * series instead of new events ({@link EventRecorder}); {@link #flushSeries} must be called periodically
 * to write the counts.
 *
 * <p>The condition is written with a JSON Patch of {@code pods/status} locked to the pod's resourceVersion
 * ({@link PodConditionUpdate#jsonPatch}); kube-scheduler sends a strategic-merge patch, which fabric8's
 * mock server refuses. If the pod changed since it was seen (409), it is read once more and the decision
 * made again.
 *
 * <p>RBAC: {@code events.k8s.io} {@code events}: create, patch; {@code ""} {@code pods/status}: patch;
 * {@code ""} {@code pods}: get (the re-read after a conflict; the scheduler can read pods anyway).
 *
 * <p>A pod deleted while a report about it is in flight is an expected outcome, not a failure: the status
 * patch answered 404, the pod read again after a conflict found missing or with another uid, or an event refused
 * because the pod's namespace is gone, end in {@link ReportOutcome.PodGone}, logged at DEBUG with the pod named,
 * and are never retried; a pod flood deleted at once thus leaves no warning behind. kube-scheduler 1.37
 * ({@code handleSchedulingFailure}) logs a pod missing from its informer at Info, still records the event and
 * calls {@code updatePod}, whose patch is retried on conflicts and server errors but not on a 404, and hands that
 * 404 to {@code HandleError} ("Error updating pod"), an error line per pod; client-go's events broadcaster ({@code tools/events}' {@code recordEvent}) logs a refused event
 * as an error and never retries it. The pod's deletion is its owner's decision and reaches the loop through the
 * informer anyway, so a line above DEBUG would only say what the watch says. Any other failure is logged at
 * WARN ({@link ReportOutcome.Failed}).
 *
 * <p>Every request first takes a token from the {@link TokenBucket} given. The methods block (call them
 * from the reporting executor, not the scheduling thread), are thread-safe, and never throw for an API
 * error: they return it as a {@link ReportOutcome}. The caller should pass the pod as last seen by its
 * informer, as kube-scheduler does.
 */
public final class SchedulingReporter {

  /** The condition's reason when no node fits the pod. */
  public static final String UNSCHEDULABLE = "Unschedulable";

  /** The condition's reason when scheduling failed for another cause. */
  public static final String SCHEDULER_ERROR = "SchedulerError";

  /** The API server's limit on an event's note, in bytes. */
  static final int NOTE_LIMIT = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(SchedulingReporter.class);
  private static final String NOMINATED_NODE_NAME = "/status/nominatedNodeName";
  private static final int INSTANCE_LIMIT = 128;
  private static final Pattern QUALIFIED_NAME =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
              + "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

  private final KubernetesClient client;
  private final TokenBucket limiter;
  private final Clock clock;
  private final String instance;
  private final EventRecorder events;

  private SchedulingReporter(
      KubernetesClient client, TokenBucket limiter, String schedulerName, String hostname, Clock clock) {
    this.client = client;
    this.limiter = limiter;
    this.clock = clock;
    this.instance = reportingInstance(schedulerName, hostname);
    this.events = new EventRecorder(client, limiter, schedulerName, instance, clock);
  }

  /**
   * A reporter on the real clock, naming this machine's host name as client-go does.
   *
   * @param client the client to write with
   * @param limiter every request takes a token from it first (share it with the binder's writes)
   * @param schedulerName the scheduler's name: the events' reportingController
   * @throws IllegalArgumentException if {@code schedulerName} is not a Kubernetes qualified name
   */
  public static SchedulingReporter create(
      KubernetesClient client, TokenBucket limiter, String schedulerName) {
    return new SchedulingReporter(client, limiter, schedulerName, hostname(), Clock.systemUTC());
  }

  /**
   * A reporter with a given host name and clock (for tests).
   *
   * @param hostname the host part of reportingInstance
   * @param clock the clock for event times, condition transition times and series
   * @throws IllegalArgumentException if {@code schedulerName} is not a Kubernetes qualified name
   */
  public static SchedulingReporter create(
      KubernetesClient client, TokenBucket limiter, String schedulerName, String hostname, Clock clock) {
    return new SchedulingReporter(client, limiter, schedulerName, hostname, clock);
  }

  /** @return the reportingInstance of the events: {@code <scheduler name>-<hostname>}, at most 128 characters */
  public String reportingInstance() {
    return instance;
  }

  /**
   * Reports that the pod was bound: the {@code Scheduled} event.
   *
   * @param pod the pod as last seen; needs a namespace and a name
   * @param nodeName the node it is bound to
   * @return {@link ReportOutcome#WRITTEN} if the event was written (or counted into a series); else why not
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome scheduled(Pod pod, String nodeName) throws InterruptedException {
    var ref = regarding(pod);
    return events.record(
        ref, "Normal", "Scheduled", "Binding",
        "Successfully assigned " + ref.getNamespace() + "/" + ref.getName() + " to " + nodeName);
  }

  /**
   * Reports that the pod's binding waits for its devices' binding conditions (kube's DynamicResources PreBind): the
   * {@code BindingConditionsPending} event.
   *
   * @param pod the pod as last seen; needs a namespace and a name
   * @param nodeName the node it is to be bound to
   * @return {@link ReportOutcome#WRITTEN} if the event was written (or counted into a series); else why not
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome bindingConditionsPending(Pod pod, String nodeName) throws InterruptedException {
    return events.record(
        regarding(pod), "Normal", "BindingConditionsPending", "Scheduling",
        "waiting for binding conditions for device on node " + nodeName);
  }

  /**
   * Reports that no node fits the pod: the {@code FailedScheduling} event, and
   * {@code PodScheduled=False} with reason {@link #UNSCHEDULABLE}.
   *
   * @param pod the pod as last seen; needs a namespace and a name
   * @param message why, as kube-scheduler words it ("0/3 nodes are available: 3 Insufficient cpu.")
   * @return {@link ReportOutcome#WRITTEN} if both were written (or needed no write); else why not: the first
   *     of {@link ReportOutcome.Failed}, {@link ReportOutcome.PodGone}, {@link ReportOutcome.Bound} that applies
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome unschedulable(Pod pod, String message) throws InterruptedException {
    return failed(pod, UNSCHEDULABLE, message, null);
  }

  /**
   * Reports that no node fits the pod, and what becomes of its nomination: the {@code FailedScheduling} event,
   * then {@code PodScheduled=False} with reason {@link #UNSCHEDULABLE} and {@code status.nominatedNodeName}
   * in one status patch. Nothing is written to the pod if it shows both already.
   *
   * @param pod the pod as last seen; needs a namespace and a name
   * @param message why, as kube-scheduler words it, the preemption's message included ("0/3 nodes are
   *     available: 3 Insufficient cpu. preemption: found a potential placement for pod on node node-1,
   *     preempting 1 victims")
   * @param nominatedNodeName null to leave the pod's nomination as it is; {@code ""} to remove it (if the pod
   *     has one); else the node the pod is nominated to (set unless the pod names it already)
   * @return {@link ReportOutcome#WRITTEN} if both were written (or needed no write); else why not: the first
   *     of {@link ReportOutcome.Failed}, {@link ReportOutcome.PodGone}, {@link ReportOutcome.Bound} that applies
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome unschedulable(Pod pod, String message, @Nullable String nominatedNodeName)
      throws InterruptedException {
    return failed(pod, UNSCHEDULABLE, message, nominatedNodeName);
  }

  /**
   * Reports that scheduling the pod failed for another cause than no fitting node: the
   * {@code FailedScheduling} event, and {@code PodScheduled=False} with reason {@link #SCHEDULER_ERROR}.
   *
   * @param pod the pod as last seen; needs a namespace and a name
   * @param message what went wrong
   * @return {@link ReportOutcome#WRITTEN} if both were written (or needed no write); else why not: the first
   *     of {@link ReportOutcome.Failed}, {@link ReportOutcome.PodGone}, {@link ReportOutcome.Bound} that applies
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome schedulingError(Pod pod, String message) throws InterruptedException {
    return failed(pod, SCHEDULER_ERROR, message, null);
  }

  /**
   * As {@link #schedulingError(Pod, String)}, and sets or removes the pod's {@code status.nominatedNodeName}
   * in the same status patch (kube-scheduler clears the nomination of a pod whose attempt failed with an
   * error).
   *
   * @param nominatedNodeName null to leave the pod's nomination as it is; {@code ""} to remove it (if the pod
   *     has one); else the node to nominate the pod to
   * @return {@link ReportOutcome#WRITTEN} if both were written (or needed no write); else why not: the first
   *     of {@link ReportOutcome.Failed}, {@link ReportOutcome.PodGone}, {@link ReportOutcome.Bound} that applies
   * @throws IllegalArgumentException if the pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome schedulingError(Pod pod, String message, @Nullable String nominatedNodeName)
      throws InterruptedException {
    return failed(pod, SCHEDULER_ERROR, message, nominatedNodeName);
  }

  /**
   * Reports that a pod was preempted: the {@code Preempted} event about the victim, type Normal, action
   * Preempting, related object the preemptor, note {@code Preempted by pod <preemptor uid> on node <node>}
   * (kube-scheduler's executor), followed by {@code " (in kube-scheduler memory)."} when the victim was
   * stopped in memory rather than deleted. The caller reports a victim it deleted, or stopped in memory;
   * not one that was gone already.
   *
   * @param victim the pod preempted, as last seen; needs a namespace and a name
   * @param preemptor the pod the room is made for, as last seen; needs a namespace and a name
   * @param nodeName the node the preemptor is nominated to
   * @param inMemory whether the victim was stopped in the scheduler's memory (it was still being bound)
   * @return {@link ReportOutcome#WRITTEN} if the event was written (or counted into a series); else why not
   * @throws IllegalArgumentException if a pod has no namespace or name
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public ReportOutcome preempted(Pod victim, Pod preemptor, String nodeName, boolean inMemory)
      throws InterruptedException {
    var about = regarding(victim);
    var related = regarding(preemptor);
    var note = preemptedNote(preemptor.getMetadata().getUid(), nodeName, inMemory);
    return events.record(about, related, "Normal", "Preempted", "Preempting", truncateNote(note));
  }

  /** kube-scheduler's note on a victim: {@code Preempted by pod <uid> on node <node>}, and where it happened. */
  static String preemptedNote(@Nullable String preemptorUid, String nodeName, boolean inMemory) {
    var note = "Preempted by pod " + (preemptorUid == null ? "" : preemptorUid) + " on node " + nodeName;
    return inMemory ? note + " (in kube-scheduler memory)." : note;
  }

  /**
   * Writes the counts of event series (see {@link EventRecorder#flushSeries}). Call it every minute or so
   * from the reporting executor; without it, repeats beyond the second are counted but not written.
   *
   * @return the number of series written
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public int flushSeries() throws InterruptedException {
    return events.flushSeries();
  }

  /** @return how many events the series bookkeeping remembers; for tests */
  int rememberedEvents() {
    return events.remembered();
  }

  private ReportOutcome failed(Pod pod, String reason, String message, @Nullable String nominatedNodeName)
      throws InterruptedException {
    var ref = regarding(pod);
    var event = events.record(ref, "Warning", "FailedScheduling", "Scheduling", truncateNote(message));
    if (event instanceof ReportOutcome.PodGone) {
      return event; // its namespace is gone, and the pod with it: a status patch could only answer 404
    }
    var status = writeStatus(pod, reason, message, nominatedNodeName);
    return event instanceof ReportOutcome.Failed ? event : status;
  }

  /** Writes the condition and the nomination in one status patch, if the pod does not show them. */
  private ReportOutcome writeStatus(Pod pod, String reason, String message, @Nullable String nominatedNodeName)
      throws InterruptedException {
    var generation = pod.getMetadata().getGeneration();
    PodCondition wanted =
        new PodConditionBuilder()
            .withType("PodScheduled")
            .withStatus("False")
            .withReason(reason)
            .withMessage(message)
            .withObservedGeneration(generation != null && generation > 0 ? generation : null)
            .build();
    var now = PodConditionUpdate.conditionTime(clock.instant());
    var ns = pod.getMetadata().getNamespace();
    var name = pod.getMetadata().getName();
    var seen = pod;
    for (int attempt = 1; ; attempt++) {
      var ops = statusPatch(seen, wanted, now, nominatedNodeName);
      if (ops.isEmpty()) {
        return ReportOutcome.WRITTEN;
      }
      var patch = client.getKubernetesSerialization().asJson(ops);
      limiter.acquire();
      try {
        // Through resource(seen): by name, fabric8 would GET the pod before every patch.
        client
            .pods()
            .inNamespace(ns)
            .resource(seen)
            .subresource("status")
            .patch(PatchContext.of(PatchType.JSON), patch);
        return ReportOutcome.WRITTEN;
      } catch (KubernetesClientException e) {
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while patching the status of pod " + ns + "/" + name);
        }
        if (e.getCode() == 404) { // deleted while the report was in flight: see the class comment
          PodLog.of(LOG.atDebug(), seen).log("Not setting PodScheduled=False ({}) on pod {}/{}: it is gone", reason, ns,
              name);
          return new ReportOutcome.PodGone("pod " + ns + "/" + name + " not found (404)");
        }
        // The pod changed since it was seen (409; 422 if the patch no longer fits it): read it once
        // more and decide again, as kube-scheduler retries a conflicting patch.
        if (attempt == 1 && (e.getCode() == 409 || e.getCode() == 422)) {
          var fresh = reread(pod);
          var found = fresh.pod();
          if (found == null) {
            return fresh.otherwise();
          }
          var node = found.getSpec() == null ? null : found.getSpec().getNodeName();
          if (node != null && !node.isEmpty()) { // placed meanwhile (a later attempt): nothing to report
            PodLog.of(LOG.atDebug(), found, node)
                .log("Not setting PodScheduled=False on pod {}/{}: it is bound to {} by now", ns, name, node);
            return new ReportOutcome.Bound(node);
          }
          seen = found;
          continue;
        }
        var detail = "setting PodScheduled=False (" + reason + ") on pod " + ns + "/" + name + " failed: "
            + ApiRequests.describe(e);
        PodLog.of(LOG.atWarn(), seen).log("{}", detail);
        return new ReportOutcome.Failed(detail);
      }
    }
  }

  /**
   * The JSON Patch that gives {@code pod} the condition and the nomination, locked to its resourceVersion; or
   * an empty list if it shows both already.
   *
   * @param nominatedNodeName null: leave it; {@code ""}: remove it if set; else set it if different
   */
  static List<Map<String, Object>> statusPatch(
      Pod pod, PodCondition condition, String now, @Nullable String nominatedNodeName) {
    var status = pod.getStatus();
    var update = PodConditionUpdate.of(status, condition, now);
    var nomination = nominationOp(status, nominatedNodeName);
    if (update.isEmpty() && nomination == null) {
      return List.of();
    }
    var ops = new ArrayList<Map<String, Object>>();
    var rv = pod.getMetadata().getResourceVersion();
    if (update.isPresent()) {
      // Adds /status itself if the pod has none, so the nomination below has somewhere to go.
      ops.addAll(update.get().jsonPatch(rv, status));
    } else if (rv != null) {
      ops.add(Map.of("op", "add", "path", "/metadata/resourceVersion", "value", rv));
    }
    if (nomination != null) {
      ops.add(nomination);
    }
    return List.copyOf(ops);
  }

  /** The operation that makes the pod's nomination {@code wanted}, or null if it needs none. */
  private static @Nullable Map<String, Object> nominationOp(@Nullable PodStatus status, @Nullable String wanted) {
    if (wanted == null) {
      return null;
    }
    var current = status == null || status.getNominatedNodeName() == null ? "" : status.getNominatedNodeName();
    if (current.equals(wanted)) {
      return null;
    }
    if (wanted.isEmpty()) {
      return Map.of("op", "remove", "path", NOMINATED_NODE_NAME);
    }
    // "add" on an object member replaces it if present (RFC 6902, 4.1).
    return Map.of("op", "add", "path", NOMINATED_NODE_NAME, "value", wanted);
  }

  /** A pod read again: as the server has it now, or, if there is none to patch, how the report ends. */
  private record Reread(@Nullable Pod pod, ReportOutcome otherwise) {}

  /**
   * @return the pod as the server has it now; else {@link ReportOutcome.PodGone} if it is gone or was created
   *     again (logged at DEBUG), {@link ReportOutcome.Failed} if it cannot be read (logged at WARN)
   */
  private Reread reread(Pod pod) throws InterruptedException {
    var meta = pod.getMetadata();
    var key = meta.getNamespace() + "/" + meta.getName();
    limiter.acquire();
    Pod fresh;
    try {
      fresh = client.pods().inNamespace(meta.getNamespace()).withName(meta.getName()).get();
    } catch (KubernetesClientException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while reading pod " + key);
      }
      var detail = "reading pod " + key + " again failed: " + ApiRequests.describe(e);
      PodLog.of(LOG.atWarn(), pod).log("{}", detail);
      return new Reread(null, new ReportOutcome.Failed(detail));
    }
    if (fresh == null) {
      PodLog.of(LOG.atDebug(), pod).log("Pod {} is gone: its PodScheduled condition is not written", key);
      return new Reread(null, new ReportOutcome.PodGone("pod " + key + " not found (404)"));
    }
    if (meta.getUid() != null && !meta.getUid().equals(fresh.getMetadata().getUid())) {
      PodLog.of(LOG.atDebug(), pod).log("Pod {} was created again: its PodScheduled condition is not written", key);
      return new Reread(null, new ReportOutcome.PodGone(
          "pod " + key + " was created again (uid " + fresh.getMetadata().getUid() + ")"));
    }
    return new Reread(fresh, ReportOutcome.WRITTEN);
  }

  /** The reference client-go builds for an object: kind, apiVersion, namespace, name, uid, resourceVersion. */
  static ObjectReference regarding(Pod pod) {
    var meta = pod.getMetadata();
    if (meta == null || isBlank(meta.getNamespace()) || isBlank(meta.getName())) {
      throw new IllegalArgumentException(
          "pod to report on needs a namespace and a name, was "
              + (meta == null ? "without metadata" : meta.getNamespace() + "/" + meta.getName()));
    }
    return new ObjectReferenceBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withNamespace(meta.getNamespace())
        .withName(meta.getName())
        .withUid(meta.getUid())
        .withResourceVersion(meta.getResourceVersion())
        .build();
  }

  /**
   * kube-scheduler's {@code truncateMessage}: a note over the API's limit is cut and ends in " ...". Cut
   * between characters, not inside one (kube cuts bytes, which can split a UTF-8 sequence).
   */
  static String truncateNote(String message) {
    var bytes = message.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= NOTE_LIMIT) {
      return message;
    }
    var suffix = " ...";
    int budget = NOTE_LIMIT - suffix.length();
    int end = 0;
    int used = 0;
    while (end < message.length()) {
      int cp = message.codePointAt(end);
      int size = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (used + size > budget) {
        break;
      }
      used += size;
      end += Character.charCount(cp);
    }
    return message.substring(0, end) + suffix;
  }

  /**
   * @return the events' reportingInstance: {@code <scheduler name>-<hostname>}, cut to the API's 128
   *     characters (kube-scheduler would lose every event; we cut it)
   * @throws IllegalArgumentException if {@code schedulerName} is not a qualified name (the API refuses
   *     events from others)
   */
  static String reportingInstance(String schedulerName, String hostname) {
    if (!isQualifiedName(schedulerName)) {
      throw new IllegalArgumentException(
          "schedulerName must be a qualified name (the API refuses events from others), was '"
              + schedulerName + "'");
    }
    var full = schedulerName + "-" + hostname;
    return full.length() <= INSTANCE_LIMIT ? full : full.substring(0, INSTANCE_LIMIT);
  }

  static boolean isQualifiedName(String name) {
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      return false;
    }
    int slash = name.indexOf('/');
    return slash < 0 ? name.length() <= 63 : slash <= 253 && name.length() - slash - 1 <= 63;
  }

  /** The host name as Go's {@code os.Hostname} reads it on Linux; else Java's idea of it; else empty. */
  static String hostname() {
    try {
      var name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
      if (!name.isEmpty()) {
        return name;
      }
    } catch (IOException | SecurityException e) {
      // Not Linux, or not readable: ask the JDK.
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "";
    }
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}

package io.kubesched.binder.report;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubesched.binder.ApiRequests;
import io.kubesched.binder.PodConditionUpdate;
import io.kubesched.binder.TokenBucket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the scheduler writes about a pod group object ({@code PodGroup} of {@code scheduling.k8s.io/v1beta1}
 * or of scheduler-plugins' {@code scheduling.x-k8s.io/v1alpha1}): its {@value #CONDITION} condition, the
 * coscheduling status fields, and events regarding it. It speaks API versions and names only.
 *
 * <ul>
 *   <li>{@link #condition}: the {@value #CONDITION} condition of {@code status.conditions}, as kube-scheduler
 *       1.37 writes it ({@code updatePodGroupCondition}): status {@code True} with reason {@value #SCHEDULED},
 *       or {@code False} with {@value #UNSCHEDULABLE}, {@value #SCHEDULER_ERROR} or {@value #TIMEOUT};
 *       {@code observedGeneration} the group's generation; {@code lastTransitionTime} kept while the status
 *       stays. A condition that is {@code True} is never set back to {@code False}; a condition that shows the
 *       same status, reason, message and observed generation already is not written. Written as a JSON Patch
 *       of the {@code status} subresource that replaces or adds this one condition (the others kept), locked
 *       to the resourceVersion read; on a conflict the object is read once more and the decision made again.
 *   <li>{@link #coschedulingStatus}: {@code status.phase}, {@code status.scheduled} and {@code
 *       status.scheduleStartTime} (never replaced once set) of a coscheduling group, as one merge patch of
 *       its {@code status} subresource; nothing if the group shows them already. The other fields ({@code
 *       running}, {@code succeeded}, {@code failed}, {@code occupiedBy}) are scheduler-plugins' controller's.
 *   <li>{@link #event}: an {@code events.k8s.io/v1} event regarding the group object (kind {@code PodGroup},
 *       its apiVersion, namespace, name and uid), note cut to the API's 1024 bytes; repeats become a series
 *       as for pods ({@link EventRecorder}), whose counts {@link #flushSeries} writes.
 * </ul>
 *
 * <p>The status methods read the object ({@code podgroups}: get) before they decide, since the condition's
 * rule depends on what the object shows. To spare a read per attempt of a group that keeps failing for the
 * same reason, the last outcome per group object (uid and generation) is remembered: a call that asks for
 * exactly what the group was last seen or made to show, or for {@code False} where it was last seen {@code
 * True}, makes no request at all. A change made by someone else to a field this class writes is therefore
 * not undone until the call asks for something else.
 *
 * <p>RBAC: {@code podgroups}: get; {@code podgroups/status}: patch; {@code events.k8s.io} {@code events}:
 * create, patch. Every request first takes a token from the {@link TokenBucket} given.
 *
 * <p>The methods block (call them from the reporting executor, not the scheduling thread), are thread-safe,
 * and never throw for an API error: they log it at WARN and return false. A group object that is gone, or
 * was created again with another uid, is not written to (false, logged at DEBUG).
 */
public final class PodGroupReporter {

  /** The condition type kube-scheduler writes on a Workload API PodGroup. */
  public static final String CONDITION = "PodGroupInitiallyScheduled";

  /** The condition's reason when at least the minimum of members was placed. */
  public static final String SCHEDULED = "Scheduled";

  /** The condition's reason when the members could not be placed together. */
  public static final String UNSCHEDULABLE = "Unschedulable";

  /** The condition's reason when the attempt failed for another cause (kube's validation, for one). */
  public static final String SCHEDULER_ERROR = "SchedulerError";

  /** The condition's reason when the group waited longer than its timeout; ours, kube has no timeout. */
  public static final String TIMEOUT = "Timeout";

  /** The API group whose PodGroups carry the coscheduling status fields. */
  static final String COSCHEDULING_GROUP = "scheduling.x-k8s.io";

  /** The API's limit on a condition's message ({@code metav1.Condition}), in bytes. */
  static final int CONDITION_MESSAGE_LIMIT = 32768;

  /** How many group objects the last outcomes are remembered for. */
  static final int REMEMBERED = 4096;

  private static final Logger LOG = LoggerFactory.getLogger(PodGroupReporter.class);
  private static final String KIND = "PodGroup";
  private static final String PLURAL = "podgroups";

  /**
   * One group object: what the reporter needs to find it and to name it.
   *
   * @param apiVersion its {@code apiVersion}, {@code group/version}
   * @param namespace its namespace
   * @param name its name
   * @param uid its uid; the object found must have it (empty: any)
   * @param generation its {@code metadata.generation}: the condition's {@code observedGeneration} (0: none)
   */
  public record GroupObject(String apiVersion, String namespace, String name, String uid, long generation) {

    /** @throws IllegalArgumentException if apiVersion is not {@code group/version} or a name is blank */
    public GroupObject {
      int slash = apiVersion.indexOf('/');
      if (slash <= 0 || slash == apiVersion.length() - 1) {
        throw new IllegalArgumentException("apiVersion must be group/version, was '" + apiVersion + "'");
      }
      if (namespace.isBlank() || name.isBlank()) {
        throw new IllegalArgumentException(
            "a pod group object needs a namespace and a name, was '" + namespace + "/" + name + "'");
      }
    }

    @Override
    public String toString() {
      return apiVersion + " PodGroup " + namespace + "/" + name;
    }

    private String key() {
      return apiVersion + "/" + namespace + "/" + name;
    }
  }

  /** What a group object was last seen or made to show, as far as this reporter writes it. */
  private record Shown(
      String uid,
      long generation,
      @Nullable Condition condition,
      @Nullable String phase,
      @Nullable Integer scheduled,
      boolean started) {

    Shown withCondition(@Nullable Condition condition) {
      return new Shown(uid, generation, condition, phase, scheduled, started);
    }

    Shown withStatus(@Nullable String phase, @Nullable Integer scheduled, boolean started) {
      return new Shown(uid, generation, condition, phase, scheduled, started);
    }
  }

  /** The fields of the condition this class compares. */
  private record Condition(String status, String reason, String message, long observedGeneration) {}

  private final KubernetesClient client;
  private final TokenBucket limiter;
  private final Clock clock;
  private final EventRecorder events;

  // Guarded by itself; access order, so the least recently used group is forgotten first.
  private final Map<String, Shown> shown =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Shown> eldest) {
          return size() > REMEMBERED;
        }
      };

  /**
   * A reporter on the real clock, naming this machine's host name in its events' reportingInstance.
   *
   * @param client the client to write with
   * @param writes every request takes a token from it first (share it with the binder's writes)
   * @param schedulerName the scheduler's name: the events' reportingController
   * @throws IllegalArgumentException if {@code schedulerName} is not a Kubernetes qualified name
   */
  public PodGroupReporter(KubernetesClient client, TokenBucket writes, String schedulerName) {
    this(client, writes, schedulerName, SchedulingReporter.hostname(), Clock.systemUTC());
  }

  /**
   * A reporter with a given host name and clock (for tests).
   *
   * @param hostname the host part of reportingInstance
   * @param clock the clock for event times, transition times and series
   * @throws IllegalArgumentException if {@code schedulerName} is not a Kubernetes qualified name
   */
  public PodGroupReporter(
      KubernetesClient client, TokenBucket writes, String schedulerName, String hostname, Clock clock) {
    this.client = client;
    this.limiter = writes;
    this.clock = clock;
    this.events =
        new EventRecorder(
            client, writes, schedulerName, SchedulingReporter.reportingInstance(schedulerName, hostname), clock);
  }

  /**
   * Sets the group's {@value #CONDITION} condition.
   *
   * @param group the group object
   * @param scheduled {@code true} for status {@code True}, {@code false} for {@code False}
   * @param reason {@value #SCHEDULED} with {@code scheduled}; else {@value #UNSCHEDULABLE}, {@value
   *     #SCHEDULER_ERROR} or {@value #TIMEOUT}
   * @param message the group's message (cut to the API's 32768 bytes), e.g. {@code minCount (6) cannot be
   *     satisfied: 4 scheduled, 0 remaining}
   * @return true if written, or not needed (the same condition shown, or {@code True} shown where {@code
   *     False} was asked); false if the group is gone or a request failed
   * @throws IllegalArgumentException if the reason is blank
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public boolean condition(GroupObject group, boolean scheduled, String reason, String message)
      throws InterruptedException {
    if (reason.isBlank()) {
      throw new IllegalArgumentException("a condition needs a reason");
    }
    var wanted =
        new Condition(
            scheduled ? "True" : "False",
            reason,
            truncate(message, CONDITION_MESSAGE_LIMIT),
            Math.max(0, group.generation()));
    var known = remembered(group);
    if (known != null && known.condition() != null && !needsWrite(known.condition(), wanted)) {
      return true;
    }
    for (int attempt = 1; ; attempt++) {
      var object = read(group);
      if (object == null) {
        return false;
      }
      var conditions = conditions(object);
      int index = indexOf(conditions, CONDITION);
      var existing = index < 0 ? null : (Map<?, ?>) conditions.get(index);
      var current = existing == null ? null : condition(existing);
      var seen = seen(group, object);
      if (current != null && !needsWrite(current, wanted)) {
        remember(group, seen.withCondition(current));
        return true;
      }
      var entry = new LinkedHashMap<String, Object>();
      entry.put("type", CONDITION);
      entry.put("status", wanted.status());
      if (wanted.observedGeneration() > 0) {
        entry.put("observedGeneration", wanted.observedGeneration());
      }
      var keptTime =
          current != null && current.status().equals(wanted.status()) ? existing.get("lastTransitionTime") : null;
      entry.put("lastTransitionTime", keptTime != null ? keptTime : PodConditionUpdate.conditionTime(clock.instant()));
      entry.put("reason", wanted.reason());
      entry.put("message", wanted.message());
      var ops = conditionPatch(object, index, entry);
      var outcome =
          patchStatus(group, object, PatchType.JSON, ops, "setting " + CONDITION + "=" + wanted.status() + " on");
      if (outcome == 0) {
        remember(group, seen.withCondition(wanted));
        return true;
      }
      if (outcome != 409 || attempt > 1) {
        return false;
      }
      // Changed since it was read: read it again and decide again, as kube's status patch would.
    }
  }

  /**
   * Sets a coscheduling group's {@code status.phase}, {@code status.scheduled} and, unless already set,
   * {@code status.scheduleStartTime}.
   *
   * @param group a {@code scheduling.x-k8s.io} group object
   * @param phase {@code Pending}, {@code Scheduling} or {@code Scheduled}
   * @param scheduled the members assumed or bound
   * @param scheduleStartTime when the group's scheduling began, written if the group shows none; null to leave
   *     it unset
   * @return true if written or not needed; false if the group is gone or a request failed
   * @throws IllegalArgumentException if the group is not of {@value #COSCHEDULING_GROUP}, the phase is blank
   *     or {@code scheduled} is negative
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public boolean coschedulingStatus(
      GroupObject group, String phase, int scheduled, @Nullable Instant scheduleStartTime)
      throws InterruptedException {
    if (!group.apiVersion().startsWith(COSCHEDULING_GROUP + "/")) {
      throw new IllegalArgumentException("only a coscheduling group has a phase, not a " + group);
    }
    if (phase.isBlank() || scheduled < 0) {
      throw new IllegalArgumentException("phase '" + phase + "' and scheduled " + scheduled + " for " + group);
    }
    var known = remembered(group);
    if (known != null
        && phase.equals(known.phase())
        && Integer.valueOf(scheduled).equals(known.scheduled())
        && (scheduleStartTime == null || known.started())) {
      return true;
    }
    var object = read(group);
    if (object == null) {
      return false;
    }
    var status = status(object);
    var currentPhase = status.get("phase") instanceof String s ? s : null;
    var currentScheduled = status.get("scheduled") instanceof Number n ? Integer.valueOf(n.intValue()) : null;
    var started = status.get("scheduleStartTime") != null;
    var seen = seen(group, object);
    var fields = new LinkedHashMap<String, Object>();
    if (!phase.equals(currentPhase)) {
      fields.put("phase", phase);
    }
    if (!Integer.valueOf(scheduled).equals(currentScheduled)) {
      fields.put("scheduled", scheduled);
    }
    if (scheduleStartTime != null && !started) {
      fields.put("scheduleStartTime", PodConditionUpdate.conditionTime(scheduleStartTime));
    }
    if (fields.isEmpty()) {
      remember(group, seen.withStatus(currentPhase, currentScheduled, started));
      return true;
    }
    var outcome =
        patchStatus(group, object, PatchType.JSON_MERGE, Map.of("status", fields), "setting the phase " + phase + " of");
    if (outcome != 0) {
      return false;
    }
    remember(group, seen.withStatus(phase, scheduled, started || scheduleStartTime != null));
    return true;
  }

  /**
   * Records an event regarding the group object.
   *
   * @param group the group object
   * @param type {@code Normal} or {@code Warning}
   * @param reason e.g. {@code FailedScheduling}, {@code Scheduled}
   * @param action e.g. {@code Scheduling}, {@code Binding}
   * @param message the note, cut to the API's 1024 bytes
   * @return true if written, or counted into a series; false if a request failed
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public boolean event(GroupObject group, String type, String reason, String action, String message)
      throws InterruptedException {
    // The group object's resourceVersion is not known here (our own status writes change it between events):
    // a new message is a new event, a repeated one counts into its series.
    var outcome =
        events.recordByNote(regarding(group), type, reason, action, SchedulingReporter.truncateNote(message));
    return outcome == ReportOutcome.WRITTEN;
  }

  /**
   * Writes the counts of event series (see {@link EventRecorder#flushSeries}). Call it every minute or so
   * from the reporting executor, as {@link SchedulingReporter#flushSeries}.
   *
   * @return the number of series written
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  public int flushSeries() throws InterruptedException {
    return events.flushSeries();
  }

  /** The reference client-go builds for the object: kind, apiVersion, namespace, name, uid. */
  static ObjectReference regarding(GroupObject group) {
    return new ObjectReferenceBuilder()
        .withApiVersion(group.apiVersion())
        .withKind(KIND)
        .withNamespace(group.namespace())
        .withName(group.name())
        .withUid(group.uid().isEmpty() ? null : group.uid())
        .build();
  }

  /** Whether {@code current} must be replaced by {@code wanted}: it differs, and is not True given False. */
  private static boolean needsWrite(Condition current, Condition wanted) {
    if ("True".equals(current.status()) && !"True".equals(wanted.status())) {
      return false; // kube: once scheduled, a later cycle for extra pods does not regress it
    }
    return !current.equals(wanted);
  }

  private @Nullable Shown remembered(GroupObject group) {
    synchronized (shown) {
      var known = shown.get(group.key());
      if (known == null
          || known.generation() != group.generation()
          || !group.uid().isEmpty() && !group.uid().equals(known.uid())) {
        return null;
      }
      return known;
    }
  }

  /** What {@code object} shows, with what was remembered of it kept where it still applies. */
  private Shown seen(GroupObject group, GenericKubernetesResource object) {
    var uid = Objects.requireNonNullElse(object.getMetadata().getUid(), "");
    var known = remembered(group);
    if (known != null && known.uid().equals(uid)) {
      return new Shown(uid, group.generation(), known.condition(), known.phase(), known.scheduled(), known.started());
    }
    return new Shown(uid, group.generation(), null, null, null, false);
  }

  private void remember(GroupObject group, Shown what) {
    synchronized (shown) {
      shown.put(group.key(), what);
    }
  }

  /** @return the object as the server has it now; null (logged) if it is gone, replaced or unreadable */
  private @Nullable GenericKubernetesResource read(GroupObject group) throws InterruptedException {
    limiter.acquire();
    GenericKubernetesResource object;
    try {
      object = resources(group).inNamespace(group.namespace()).withName(group.name()).get();
    } catch (KubernetesClientException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while reading " + group);
      }
      LOG.warn("Reading {} failed: {}", group, ApiRequests.describe(e));
      return null;
    }
    if (object == null || object.getMetadata() == null) {
      LOG.debug("{} is gone: its status is not written", group);
      return null;
    }
    if (!group.uid().isEmpty() && !group.uid().equals(object.getMetadata().getUid())) {
      LOG.debug("{} was created again (uid {}): its status is not written", group, object.getMetadata().getUid());
      return null;
    }
    return object;
  }

  /**
   * @return 0 if patched, else the status code (-1: no answer); a 404 (the group deleted since it was read) is
   *     logged at DEBUG, a failure other than 409 at WARN
   */
  private int patchStatus(
      GroupObject group, GenericKubernetesResource object, PatchType type, Object patch, String doing)
      throws InterruptedException {
    var json = client.getKubernetesSerialization().asJson(patch);
    limiter.acquire();
    try {
      // Through resource(object): by name, fabric8 would GET the object before the patch.
      resources(group)
          .inNamespace(group.namespace())
          .resource(object)
          .subresource("status")
          .patch(PatchContext.of(type), json);
      return 0;
    } catch (KubernetesClientException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while " + doing + " " + group);
      }
      if (e.getCode() == 404) {
        LOG.debug("{} is gone: not {} it", group, doing);
      } else if (e.getCode() != 409) {
        LOG.warn("{} {} failed: {}", capitalized(doing), group, ApiRequests.describe(e));
      }
      return e.getCode() > 0 ? e.getCode() : -1;
    }
  }

  private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      resources(GroupObject group) {
    var apiVersion = group.apiVersion();
    int slash = apiVersion.indexOf('/');
    var context =
        new ResourceDefinitionContext.Builder()
            .withGroup(apiVersion.substring(0, slash))
            .withVersion(apiVersion.substring(slash + 1))
            .withKind(KIND)
            .withPlural(PLURAL)
            .withNamespaced(true)
            .build();
    return client.genericKubernetesResources(context);
  }

  /**
   * The JSON Patch (RFC 6902) that puts {@code condition} at {@code index} of the object's conditions (-1:
   * appended), first setting the object's resourceVersion to the one read: the API server then applies it
   * only to the object as read and answers 409 otherwise, so the index is right and no other condition
   * written meanwhile is lost. A JSON merge patch would have to carry the whole list, and fabric8's mock
   * server appends lists in merge patches instead of replacing them.
   */
  private static List<Map<String, Object>> conditionPatch(
      GenericKubernetesResource object, int index, Map<String, Object> condition) {
    var ops = new ArrayList<Map<String, Object>>();
    var rv = object.getMetadata().getResourceVersion();
    if (rv != null) {
      ops.add(Map.of("op", "add", "path", "/metadata/resourceVersion", "value", rv));
    }
    var status = object.getAdditionalProperties() == null ? null : object.getAdditionalProperties().get("status");
    if (index >= 0) {
      ops.add(Map.of("op", "replace", "path", "/status/conditions/" + index, "value", condition));
    } else if (!(status instanceof Map<?, ?>)) {
      ops.add(Map.of("op", "add", "path", "/status", "value", Map.of("conditions", List.of(condition))));
    } else if (conditions(object).isEmpty()) {
      ops.add(Map.of("op", "add", "path", "/status/conditions", "value", List.of(condition)));
    } else {
      ops.add(Map.of("op", "add", "path", "/status/conditions/-", "value", condition));
    }
    return ops;
  }

  private static Map<?, ?> status(GenericKubernetesResource object) {
    var status = object.getAdditionalProperties() == null ? null : object.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map ? map : Map.of();
  }

  private static List<?> conditions(GenericKubernetesResource object) {
    return status(object).get("conditions") instanceof List<?> list ? list : List.of();
  }

  /** @return the index of the first condition of {@code type}, or -1 */
  private static int indexOf(List<?> conditions, String type) {
    for (int i = 0; i < conditions.size(); i++) {
      if (conditions.get(i) instanceof Map<?, ?> map && type.equals(map.get("type"))) {
        return i;
      }
    }
    return -1;
  }

  private static Condition condition(Map<?, ?> entry) {
    return new Condition(
        String.valueOf(entry.get("status")),
        entry.get("reason") instanceof String s ? s : "",
        entry.get("message") instanceof String s ? s : "",
        entry.get("observedGeneration") instanceof Number n ? n.longValue() : 0);
  }

  /** {@code text} cut between characters to at most {@code limit} UTF-8 bytes. */
  static String truncate(String text, int limit) {
    if (text.length() * 3 <= limit || text.getBytes(StandardCharsets.UTF_8).length <= limit) {
      return text;
    }
    int end = 0;
    int used = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (used + size > limit) {
        break;
      }
      used += size;
      end += Character.charCount(cp);
    }
    return text.substring(0, end);
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}

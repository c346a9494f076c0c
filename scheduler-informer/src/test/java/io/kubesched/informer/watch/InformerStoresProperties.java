package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreemptionPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The rule the stores must keep: nothing the scheduler computes from a pod or node can tell the stored form
 * from the object the API server sent. Checked by running the scheduler's own readers ({@link PodAdapter},
 * {@link NodeAdapter}, {@link PodFilters}, {@link NodeChanges}) on both, over objects drawn from small
 * alphabets that mix every kept field (valid and malformed values) with fields that are dropped.
 */
class InformerStoresProperties {

  private static final String OURS = "my-scheduler";

  // ---- pods

  @Property
  void the_scheduler_reads_a_stored_pod_as_the_pod_received(@ForAll("pods") PodModel model) {
    var pod = model.toPod();
    var kept = InformerStoresTest.stored(pod);
    Object outcome = outcome(() -> PodAdapter.toPodInfo(pod));
    assertEquals(outcome, outcome(() -> PodAdapter.toPodInfo(kept)));
    assertEquals(PodFilters.needsScheduling(pod, OURS), PodFilters.needsScheduling(kept, OURS));
    assertEquals(PodFilters.occupiesNode(pod), PodFilters.occupiesNode(kept));
    assertEquals(PodFilters.isDeleting(pod), PodFilters.isDeleting(kept));
    assertEquals(PodFilters.isTerminal(pod), PodFilters.isTerminal(kept));
    assertEquals(PodFilters.nodeName(pod), PodFilters.nodeName(kept));
    assertEquals(pod.getMetadata().getResourceVersion(), kept.getMetadata().getResourceVersion());

    Statistics.label("outcome").collect(outcome instanceof String ? "malformed" : "read");
    Statistics.label("needs scheduling").collect(PodFilters.needsScheduling(pod, OURS));
    Statistics.label("occupies a node").collect(PodFilters.occupiesNode(pod));
    boolean conflictingVolume = outcome instanceof PodInfo info && !info.volumes().isEmpty();
    boolean hostPort = outcome instanceof PodInfo info && !info.hostPorts().isEmpty();
    boolean nodeAffinity = outcome instanceof PodInfo info && !info.affinity().required().isEmpty();
    boolean podAffinity =
        outcome instanceof PodInfo info && !(info.podAffinity().isEmpty() && info.podAntiAffinity().isEmpty());
    boolean spread = outcome instanceof PodInfo info && !info.topologySpreadConstraints().isEmpty();
    // Each on its own: the three together are rare enough that 1 000 random tries sometimes hold none.
    boolean gated = outcome instanceof PodInfo info && !info.schedulingGates().isEmpty();
    boolean volumeClaims = outcome instanceof PodInfo info && !info.persistentVolumeClaims().isEmpty();
    boolean resourceClaims = outcome instanceof PodInfo info && !info.resourceClaims().isEmpty();
    boolean resized =
        outcome instanceof PodInfo info
            && outcome(() -> PodAdapter.toPodInfo(new PodBuilder(pod).withStatus(null).build())) instanceof PodInfo spec
            && !info.requests().equals(spec.requests());
    boolean preempted = outcome instanceof PodInfo info && info.preemptedByScheduler();
    boolean started = outcome instanceof PodInfo info && info.startTime() != null;
    boolean never = outcome instanceof PodInfo info && info.preemptionPolicy() == PreemptionPolicy.NEVER;
    boolean nominated = outcome instanceof PodInfo info && !info.nominatedNodeName().isEmpty();
    Statistics.label("read as preempted by a scheduler").collect(preempted);
    Statistics.label("read as preempted by a scheduler").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a start time").collect(started);
    Statistics.label("read with a start time").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read as never preempting").collect(never);
    Statistics.label("read as never preempting").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a nominated node").collect(nominated);
    Statistics.label("read with a nominated node").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with pod affinity").collect(podAffinity);
    Statistics.label("read with a spread constraint").collect(spread);
    Statistics.label("read with scheduling gates").collect(gated);
    Statistics.label("read with volume claims").collect(volumeClaims);
    Statistics.label("read with resource claims").collect(resourceClaims);
    Statistics.label("read with a status that changes the requests").collect(resized);
    Statistics.label("read with pod affinity").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a spread constraint").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with scheduling gates").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with volume claims").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with resource claims").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a status that changes the requests").coverage(c -> c.check(true).count(n -> n > 0));
    boolean grouped = outcome instanceof PodInfo info && info.podGroup().isPresent();
    Statistics.label("read in a pod group").collect(grouped);
    Statistics.label("read in a pod group").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a conflicting volume").collect(conflictingVolume);
    Statistics.label("read with a host port").collect(hostPort);
    Statistics.label("read with required node affinity").collect(nodeAffinity);
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("read").count(n -> n > 0);
              c.check("malformed").count(n -> n > 0);
            });
    Statistics.label("needs scheduling").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("occupies a node").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a conflicting volume").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with a host port").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("read with required node affinity").coverage(c -> c.check(true).count(n -> n > 0));
  }

  /**
   * One store shares equal kept parts between the pods it holds; that must not change what the scheduler
   * reads of any of them, however their parts are spelled (quantities compare by amount).
   */
  @Property
  void sharing_parts_between_the_pods_of_a_store_changes_nothing_the_scheduler_reads(
      @ForAll("podLists") List<PodModel> models) {
    var store = InformerStores.pods();
    var pods = new ArrayList<Pod>();
    for (int i = 0; i < models.size(); i++) {
      var pod = models.get(i).toPod();
      pod.getMetadata().setName("pod-" + i);
      pods.add(pod);
      store.put(store.getKey(pod), pod);
    }
    boolean shared = false;
    for (var pod : pods) {
      var kept = store.get(store.getKey(pod));
      assertEquals(outcome(() -> PodAdapter.toPodInfo(pod)), outcome(() -> PodAdapter.toPodInfo(kept)));
      assertEquals(PodFilters.needsScheduling(pod, OURS), PodFilters.needsScheduling(kept, OURS));
      assertEquals(PodFilters.occupiesNode(pod), PodFilters.occupiesNode(kept));
      for (var other : pods) {
        var otherKept = store.get(store.getKey(other));
        shared |=
            other != pod
                && !kept.getSpec().getContainers().isEmpty()
                && kept.getSpec().getContainers().get(0) == otherKept.getSpec().getContainers().get(0)
                && pod.getSpec().getContainers().get(0) != other.getSpec().getContainers().get(0);
      }
    }
    Statistics.label("a container is shared between pods").collect(shared);
    Statistics.label("a container is shared between pods").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Provide
  Arbitrary<List<PodModel>> podLists() {
    return pods().list().ofMinSize(2).ofMaxSize(5);
  }

  /** {@code usual} nine times in ten, else {@code malformed}: most objects read, every error path is hit. */
  private static <T> Arbitrary<T> rarely(T malformed, Arbitrary<T> usual) {
    return Arbitraries.frequencyOf(Tuple.of(9, usual), Tuple.of(1, Arbitraries.just(malformed)));
  }

  /**
   * {@code usual} 29 times in 30, else {@code malformed}: for the fields a pod has many of, so that most pods
   * still read.
   */
  private static <T> Arbitrary<T> seldom(T malformed, Arbitrary<T> usual) {
    return Arbitraries.frequencyOf(Tuple.of(29, usual), Tuple.of(1, Arbitraries.just(malformed)));
  }

  /** A {@code PodInfo}/{@code NodeInfo}, or the text of the error that reading it raised. */
  private static Object outcome(Supplier<?> read) {
    try {
      return read.get();
    } catch (MalformedObjectException e) {
      return "malformed: " + e.getMessage();
    }
  }

  @Provide
  Arbitrary<PodModel> pods() {
    var meta =
        Combinators.combine(
            Arbitraries.of("a", "b"),
            labels(),
            owners(),
            Arbitraries.of("2026-01-01T00:00:00Z").injectNull(0.8),
            Arbitraries.of("1", "2"));
    var spec =
        Combinators.combine(
            Arbitraries.of("", "node-1").injectNull(0.3),
            Arbitraries.of("", OURS, OURS, "other").injectNull(0.2),
            Arbitraries.of(0, 100).injectNull(0.5),
            labels(),
            affinities(),
            tolerations().list().ofMaxSize(2),
            containers().list().ofMinSize(1).ofMaxSize(2),
            containers().list().ofMaxSize(2));
    var rest =
        Combinators.combine(
            quantityTexts(QUANTITIES),
            quantityTexts(QUANTITIES).injectNull(0.6),
            quantityTexts(QUANTITIES),
            volumes().list().ofMaxSize(3),
            Arbitraries.of("Pending", "Running", "Succeeded", "Failed").injectNull(0.2));
    var placement =
        Combinators.combine(
            podAffinities(),
            podAffinities(),
            spreadConstraints().list().ofMaxSize(2),
            Arbitraries.of("example.com/quota", "example.com/gang").list().ofMaxSize(2),
            Arbitraries.of("gpu", "nic").list().ofMaxSize(2),
            seldom("Sometimes", Arbitraries.of("Never", "PreemptLowerPriority").injectNull(0.5)),
            Arbitraries.of("gang-a", "").injectNull(0.6));
    var status =
        Combinators.combine(
            Arbitraries.of(
                    "PodResizePending/Infeasible",
                    "PodResizePending/Deferred",
                    "PodResizeInProgress/",
                    "Ready/",
                    "DisruptionTarget/PreemptionByScheduler",
                    "DisruptionTarget/PreemptionByScheduler/False",
                    "DisruptionTarget/EvictionByEvictionAPI")
                .list()
                .ofMaxSize(2),
            containerStatuses().list().ofMaxSize(2),
            containerStatuses().list().ofMaxSize(1),
            quantityTexts(STATUS_QUANTITIES).injectNull(0.5),
            quantityTexts(STATUS_QUANTITIES).injectNull(0.5),
            seldom("yesterday", Arbitraries.of("2026-01-01T00:00:00Z", "2026-01-01T01:00:00.5+01:00").injectNull(0.4)),
            Arbitraries.of("node-1", "node-2").injectNull(0.6));
    return Combinators.combine(
            meta.as(Meta::new),
            spec.as(Spec::new),
            rest.as(Rest::new),
            placement.as(Placement::new),
            status.as(StatusModel::new))
        .as(PodModel::new);
  }

  /** Pod affinity terms (one operator in ten unknown), or none. */
  private static Arbitrary<@Nullable PodAffinityModel> podAffinities() {
    var term =
        Combinators.combine(
            selectors(),
            Arbitraries.of(List.<String>of(), List.of("other")),
            selectors(),
            Arbitraries.of("zone", "kubernetes.io/hostname"),
            Arbitraries.of(List.<String>of(), List.of("app")),
            Arbitraries.of(List.<String>of(), List.of("zone")))
            .as(
                (selector, namespaces, namespaceSelector, topologyKey, matchKeys, mismatchKeys) ->
                    new PodAffinityTermBuilder()
                        .withLabelSelector(selector)
                        .withNamespaces(namespaces)
                        .withNamespaceSelector(namespaceSelector)
                        .withTopologyKey(topologyKey)
                        .withMatchLabelKeys(matchKeys)
                        .withMismatchLabelKeys(mismatchKeys)
                        .build());
    var weighted =
        Combinators.combine(Arbitraries.of(1, 100), term).as((w, t) -> new WeightedPodAffinityTerm(t, w));
    return Combinators.combine(term.list().ofMaxSize(2), weighted.list().ofMaxSize(1))
        .as(PodAffinityModel::new)
        .injectNull(0.4);
  }

  /** Required and preferred pod affinity terms, for either pod affinity or anti-affinity. */
  private record PodAffinityModel(List<PodAffinityTerm> required, List<WeightedPodAffinityTerm> preferred) {}

  /** A label selector (one operator in ten unknown, the values fitting the operator), or none. */
  private static Arbitrary<@Nullable LabelSelector> selectors() {
    var requirement =
        Combinators.combine(
                Arbitraries.of("app", "zone"),
                seldom("Near", Arbitraries.of("In", "NotIn", "Exists", "DoesNotExist")))
            .as(
                (key, operator) ->
                    new LabelSelectorRequirement(
                        key, operator, operator.endsWith("In") ? List.of("a") : List.of()));
    return Combinators.combine(labels(), requirement.list().ofMaxSize(2))
        .as((matchLabels, expressions) -> new LabelSelector(expressions, matchLabels))
        .injectNull(0.2);
  }

  /** Topology spread constraints (one in ten with an unknown whenUnsatisfiable, inclusion policies too). */
  private static Arbitrary<TopologySpreadConstraint> spreadConstraints() {
    return Combinators.combine(
            Arbitraries.of(1, 2).injectNull(0.1),
            Arbitraries.of("zone", "kubernetes.io/hostname"),
            seldom("Sometimes", Arbitraries.of("DoNotSchedule", "ScheduleAnyway")),
            selectors(),
            Arbitraries.of(1, 3).injectNull(0.5),
            seldom("Maybe", Arbitraries.of("Honor", "Ignore").injectNull(0.5)),
            seldom("Perhaps", Arbitraries.of("Honor", "Ignore").injectNull(0.5)),
            Arbitraries.of(List.<String>of(), List.of("app")))
        .as(
            (maxSkew, key, when, selector, minDomains, affinityPolicy, taintsPolicy, matchKeys) ->
                new TopologySpreadConstraintBuilder()
                    .withMaxSkew(maxSkew)
                    .withTopologyKey(key)
                    .withWhenUnsatisfiable(when)
                    .withLabelSelector(selector)
                    .withMinDomains(minDomains)
                    .withNodeAffinityPolicy(affinityPolicy)
                    .withNodeTaintsPolicy(taintsPolicy)
                    .withMatchLabelKeys(matchKeys)
                    .build());
  }

  /** A container status as the kubelet writes it during a resize, its quantities as text. */
  private record ContainerStatusModel(
      String name, Map<String, String> allocated, @Nullable Map<String, String> actuated) {

    ContainerStatus toStatus() {
      var status =
          new ContainerStatusBuilder()
              .withName(name)
              .withAllocatedResources(quantities(allocated))
              .withImage("img:1")
              .withRestartCount(2)
              .withNewState()
              .withNewRunning()
              .withStartedAt("2026-01-01T00:00:00Z")
              .endRunning()
              .endState();
      if (actuated != null) {
        status.withNewResources().withRequests(quantities(actuated)).addToLimits("cpu", new Quantity("9")).endResources();
      }
      return status.build();
    }
  }

  private static Arbitrary<ContainerStatusModel> containerStatuses() {
    return Combinators.combine(
            Arbitraries.of("app", "side", "gone"),
            quantityTexts(STATUS_QUANTITIES),
            quantityTexts(STATUS_QUANTITIES).injectNull(0.3))
        .as(ContainerStatusModel::new);
  }

  /**
   * A pod as generated. Quantities stay text until {@link #toPod()}: jqwik hashes what it generates, and
   * fabric8's Quantity.hashCode throws on a malformed amount.
   */
  record PodModel(Meta meta, Spec spec, Rest rest, Placement placement, StatusModel status) {
    Pod toPod() {
      return pod(meta, spec, rest, placement, status);
    }
  }

  private record Placement(
      @Nullable PodAffinityModel podAffinity,
      @Nullable PodAffinityModel podAntiAffinity,
      List<TopologySpreadConstraint> spread,
      List<String> gates,
      List<String> claims,
      @Nullable String preemptionPolicy,
      @Nullable String podGroupName) {}

  /**
   * The status fields an in-place resize is counted from: conditions as {@code type/reason} or {@code
   * type/reason/status} (status {@code True} if not given), container and init container statuses, and the
   * pod-level allocated and actuated requests ({@code null}: unset); and those preemption reads: the start time
   * and the nominated node.
   */
  private record StatusModel(
      List<String> conditions,
      List<ContainerStatusModel> containers,
      List<ContainerStatusModel> initContainers,
      @Nullable Map<String, String> allocated,
      @Nullable Map<String, String> actuated,
      @Nullable String startTime,
      @Nullable String nominatedNodeName) {}

  private record Meta(
      String name,
      Map<String, String> labels,
      List<OwnerReference> owners,
      @Nullable String deletionTimestamp,
      String resourceVersion) {}

  private record Spec(
      @Nullable String nodeName,
      @Nullable String schedulerName,
      @Nullable Integer priority,
      Map<String, String> nodeSelector,
      @Nullable Affinity affinity,
      List<Toleration> tolerations,
      List<ContainerModel> containers,
      List<ContainerModel> initContainers) {}

  private record Rest(
      Map<String, String> overhead,
      @Nullable Map<String, String> podLimits,
      Map<String, String> podRequests,
      List<Volume> volumes,
      @Nullable String phase) {}

  private static @Nullable Affinity affinity(@Nullable Affinity nodeAffinity, Placement placement) {
    if (nodeAffinity == null && placement.podAffinity() == null && placement.podAntiAffinity() == null) {
      return null;
    }
    var builder = nodeAffinity == null ? new AffinityBuilder() : new AffinityBuilder(nodeAffinity);
    var affinity = placement.podAffinity();
    if (affinity != null) {
      builder
          .withNewPodAffinity()
          .withRequiredDuringSchedulingIgnoredDuringExecution(affinity.required())
          .withPreferredDuringSchedulingIgnoredDuringExecution(affinity.preferred())
          .endPodAffinity();
    }
    var anti = placement.podAntiAffinity();
    if (anti != null) {
      builder
          .withNewPodAntiAffinity()
          .withRequiredDuringSchedulingIgnoredDuringExecution(anti.required())
          .withPreferredDuringSchedulingIgnoredDuringExecution(anti.preferred())
          .endPodAntiAffinity();
    }
    return builder.build();
  }

  private static PodStatus status(@Nullable String phase, StatusModel model) {
    var status =
        new PodStatusBuilder()
            .withPhase(phase)
            .withPodIP("10.0.0.9")
            .withContainerStatuses(model.containers().stream().map(ContainerStatusModel::toStatus).toList())
            .withInitContainerStatuses(
                model.initContainers().stream().map(ContainerStatusModel::toStatus).toList())
            .withStartTime(model.startTime())
            .withNominatedNodeName(model.nominatedNodeName());
    for (var condition : model.conditions()) {
      var parts = condition.split("/", -1);
      status
          .addNewCondition()
          .withType(parts[0])
          .withStatus(parts.length > 2 ? parts[2] : "True")
          .withReason(parts[1])
          .endCondition();
    }
    return status.build();
  }

  /**
   * The pod-level status's {@code allocatedResources} and {@code resources.requests}, as decoded JSON: fabric8 7's
   * model has no such fields and keeps them as additional properties, where the store must keep them too.
   */
  private static Map<String, Object> statusFields(StatusModel model) {
    var fields = new LinkedHashMap<String, Object>();
    if (model.allocated() != null) {
      fields.put("allocatedResources", model.allocated());
    }
    if (model.actuated() != null) {
      fields.put("resources", Map.of("requests", model.actuated()));
    }
    return fields;
  }

  private static Pod pod(Meta meta, Spec spec, Rest rest, Placement placement, StatusModel statusModel) {
    var pod = built(meta, spec, rest, placement, statusModel);
    if (placement.podGroupName() != null) {
      pod = LineFields.with(pod, "spec", Map.of("schedulingGroup", Map.of("podGroupName", placement.podGroupName())));
    }
    var statusFields = statusFields(statusModel);
    return statusFields.isEmpty() ? pod : LineFields.with(pod, "status", statusFields);
  }

  private static Pod built(Meta meta, Spec spec, Rest rest, Placement placement, StatusModel statusModel) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName(meta.name())
        .withUid("uid-" + meta.name())
        .withLabels(meta.labels())
        .withOwnerReferences(meta.owners())
        .withDeletionTimestamp(meta.deletionTimestamp())
        .withResourceVersion(meta.resourceVersion())
        .withAnnotations(Map.of("checksum/config", "abc"))
        .withGenerateName("a-")
        .addNewManagedField()
        .withManager("kubelet")
        .withOperation("Update")
        .endManagedField()
        .endMetadata()
        .withNewSpec()
        .withNodeName(spec.nodeName())
        .withSchedulerName(spec.schedulerName())
        .withPriority(spec.priority())
        .withPreemptionPolicy(placement.preemptionPolicy())
        .withNodeSelector(spec.nodeSelector())
        .withAffinity(affinity(spec.affinity(), placement))
        .withTolerations(spec.tolerations())
        .withContainers(spec.containers().stream().map(ContainerModel::toContainer).toList())
        .withInitContainers(spec.initContainers().stream().map(ContainerModel::toContainer).toList())
        .withOverhead(quantities(rest.overhead()))
        .withResources(
            rest.podLimits() == null
                ? null
                : new ResourceRequirements(
                    List.of(), quantities(rest.podLimits()), quantities(rest.podRequests())))
        .withVolumes(rest.volumes())
        .withServiceAccountName("default")
        .withTopologySpreadConstraints(placement.spread())
        .withSchedulingGates(placement.gates().stream().map(PodSchedulingGate::new).toList())
        .withResourceClaims(
            placement.claims().stream().map(c -> new PodResourceClaim(c, null, c + "-template")).toList())
        .withHostname("dropped")
        .endSpec()
        .withStatus(status(rest.phase(), statusModel))
        .build();
  }

  private static Arbitrary<Map<String, String>> labels() {
    return Arbitraries.maps(Arbitraries.of("app", "zone"), Arbitraries.of("a", "b")).ofMaxSize(2);
  }

  private static Arbitrary<List<OwnerReference>> owners() {
    return Combinators.combine(
            Arbitraries.of("ReplicaSet", "ConfigMap"), Arbitraries.of(true, false).injectNull(0.3))
        .as(
            (kind, controller) ->
                new OwnerReferenceBuilder()
                    .withKind(kind)
                    .withName("owner")
                    .withUid("owner-uid")
                    .withController(controller)
                    .build())
        .list()
        .ofMaxSize(2);
  }

  /** Node affinity (an operator in ten unknown, a required selector in ten without terms), or none. */
  private static Arbitrary<@Nullable Affinity> affinities() {
    Arbitrary<NodeSelectorRequirement> requirement =
        Combinators.combine(
                Arbitraries.of("zone", "gpu"),
                rarely("Near", Arbitraries.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")),
                Arbitraries.of("a", "3").list().ofMaxSize(2))
            .as(NodeSelectorRequirement::new);
    Arbitrary<NodeSelectorTerm> term =
        requirement.list().ofMaxSize(2).map(r -> new NodeSelectorTerm(r, List.of()));
    var required = rarely(List.of(), term.list().ofMinSize(1).ofMaxSize(2)).injectNull(0.3);
    var preferred =
        Combinators.combine(Arbitraries.of(1, 50), term)
            .as((weight, t) -> new PreferredSchedulingTerm(t, weight))
            .list()
            .ofMaxSize(1);
    return Combinators.combine(required, preferred)
        .as(InformerStoresProperties::affinity)
        .injectNull(0.3);
  }

  private static Affinity affinity(
      @Nullable List<NodeSelectorTerm> required, List<PreferredSchedulingTerm> preferred) {
    var nodeAffinity = new AffinityBuilder().withNewNodeAffinity();
    if (required != null) {
      nodeAffinity =
          nodeAffinity
              .withNewRequiredDuringSchedulingIgnoredDuringExecution()
              .withNodeSelectorTerms(required)
              .endRequiredDuringSchedulingIgnoredDuringExecution();
    }
    return nodeAffinity.withPreferredDuringSchedulingIgnoredDuringExecution(preferred).endNodeAffinity().build();
  }

  private static Arbitrary<Toleration> tolerations() {
    return Combinators.combine(
            Arbitraries.of("", "dedicated").injectNull(0.2),
            rarely("Matches", Arbitraries.of("Equal", "Exists").injectNull(0.2)),
            rarely("Sometimes", Arbitraries.of("NoSchedule", "NoExecute").injectNull(0.3)))
        .as((key, op, effect) -> new Toleration(effect, key, op, null, "x"));
  }

  /** A container as generated, its quantities as text. */
  private record ContainerModel(
      String name,
      @Nullable String image,
      @Nullable Map<String, String> limits,
      @Nullable Map<String, String> requests,
      List<ContainerPort> ports,
      @Nullable String restartPolicy) {

    Container toContainer() {
      return new ContainerBuilder()
          .withName(name)
          .withImage(image)
          .withResources(
              limits == null || requests == null
                  ? null
                  : new ResourceRequirements(List.of(), quantities(limits), quantities(requests)))
          .withPorts(ports)
          .withRestartPolicy(restartPolicy)
          .addNewEnv()
          .withName("MODE")
          .withValue("production")
          .endEnv()
          .withNewLivenessProbe()
          .withNewHttpGet()
          .withPath("/health")
          .endHttpGet()
          .endLivenessProbe()
          .addNewVolumeMount()
          .withName("config")
          .withMountPath("/etc/app")
          .endVolumeMount()
          .build();
    }
  }

  private static Arbitrary<ContainerModel> containers() {
    Arbitrary<ContainerPort> port =
        Combinators.combine(
                rarely(70000, Arbitraries.of(0, 80, 9100).injectNull(0.3)),
                Arbitraries.of("UDP", "TCP").injectNull(0.5),
                Arbitraries.of("10.0.0.1").injectNull(0.5))
            .as(
                (hostPort, protocol, hostIp) ->
                    new ContainerPortBuilder()
                        .withContainerPort(8080)
                        .withHostPort(hostPort)
                        .withProtocol(protocol)
                        .withHostIP(hostIp)
                        .build());
    return Combinators.combine(
            Arbitraries.of("app", "side"),
            Arbitraries.of("img:1", "img:2").injectNull(0.1),
            quantityTexts(QUANTITIES).injectNull(0.3),
            quantityTexts(QUANTITIES),
            port.list().ofMaxSize(2),
            Arbitraries.of("Always").injectNull(0.5))
        .as(ContainerModel::new);
  }

  /** Quantities of which one in eight is malformed; two spell the same amount. */
  private static final Arbitrary<String> QUANTITIES =
      Arbitraries.frequencyOf(
          Tuple.of(7, Arbitraries.of("100m", "1", "1000m", "1Gi")), Tuple.of(1, Arbitraries.just("lots")));

  /** Quantities of a status, of which one in 30 is malformed. */
  private static final Arbitrary<String> STATUS_QUANTITIES =
      Arbitraries.frequencyOf(
          Tuple.of(29, Arbitraries.of("100m", "1", "2", "1Gi")), Tuple.of(1, Arbitraries.just("lots")));

  private static Arbitrary<Map<String, String>> quantityTexts(Arbitrary<String> amounts) {
    return Arbitraries.maps(Arbitraries.of("cpu", "memory", "nvidia.com/gpu"), amounts).ofMaxSize(2);
  }

  private static Map<String, Quantity> quantities(Map<String, String> texts) {
    var list = new LinkedHashMap<String, Quantity>();
    texts.forEach((resource, text) -> list.put(resource, new Quantity(text)));
    return list;
  }

  /**
   * Volumes of the four kinds whose conflicts are checked (one in ten malformed: no disk name, no monitor, a
   * lun past 255, or two kinds at once), and volumes of kinds the store drops.
   */
  private static Arbitrary<Volume> volumes() {
    var gce =
        rarely("", Arbitraries.just("disk"))
            .map(
                disk ->
                    new VolumeBuilder()
                        .withName("gce")
                        .withNewGcePersistentDisk()
                        .withPdName(disk)
                        .endGcePersistentDisk()
                        .build());
    var ebs =
        Arbitraries.of(true, false)
            .map(
                readOnly ->
                    new VolumeBuilder()
                        .withName("ebs")
                        .withNewAwsElasticBlockStore()
                        .withVolumeID("vol-1")
                        .withReadOnly(readOnly)
                        .endAwsElasticBlockStore()
                        .build());
    var rbd =
        rarely(List.<String>of(), Arbitraries.just(List.of("mon:6789")))
            .map(
                monitors ->
                    new VolumeBuilder()
                        .withName("rbd")
                        .withNewRbd()
                        .withMonitors(monitors)
                        .withImage("img")
                        .endRbd()
                        .build());
    var iscsi =
        rarely(300, Arbitraries.of(0, 3))
            .map(
                lun ->
                    new VolumeBuilder()
                        .withName("iscsi")
                        .withNewIscsi()
                        .withTargetPortal("portal:3260")
                        .withIqn("iqn.x")
                        .withLun(lun)
                        .endIscsi()
                        .build());
    var twoKinds =
        Arbitraries.just(
            new VolumeBuilder()
                .withName("both")
                .withNewGcePersistentDisk()
                .withPdName("disk")
                .endGcePersistentDisk()
                .withNewAwsElasticBlockStore()
                .withVolumeID("vol-1")
                .endAwsElasticBlockStore()
                .build());
    var claims =
        Arbitraries.of(
            new VolumeBuilder()
                .withName("data")
                .withNewPersistentVolumeClaim()
                .withClaimName("pvc")
                .endPersistentVolumeClaim()
                .build(),
            new VolumeBuilder()
                .withName("scratch")
                .withNewEphemeral()
                .withNewVolumeClaimTemplate()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .endSpec()
                .endVolumeClaimTemplate()
                .endEphemeral()
                .build());
    var dropped =
        Arbitraries.of(
            new VolumeBuilder().withName("config").withNewConfigMap().withName("cm").endConfigMap().build(),
            new VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build());
    return Arbitraries.frequencyOf(
        Tuple.of(3, gce),
        Tuple.of(3, ebs),
        Tuple.of(3, rbd),
        Tuple.of(3, iscsi),
        Tuple.of(1, twoKinds),
        Tuple.of(4, claims),
        Tuple.of(4, dropped));
  }

  // ---- nodes

  @Property
  void the_scheduler_reads_a_stored_node_as_the_node_received(@ForAll("nodes") NodeModel model) {
    var node = model.toNode();
    var pods = List.<PodInfo>of();
    Object outcome = outcome(() -> NodeAdapter.toNodeInfo(node, pods));
    assertEquals(outcome, outcome(() -> NodeAdapter.toNodeInfo(InformerStoresTest.stored(node), pods)));
    Statistics.label("outcome").collect(outcome instanceof String ? "malformed" : "read");
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("read").count(n -> n > 0);
              c.check("malformed").count(n -> n > 0);
            });
  }

  /** What fabric8 calls {@code onUpdate} with: the stored form of the node before, the full node after. */
  @Property
  void a_node_update_wakes_pods_against_the_stored_node_as_against_the_node_received(
      @ForAll("wellFormedNodes") NodeModel model, @ForAll("nodeChanges") NodeChange change) {
    var before = model.toNode();
    var after = change.apply(before);
    var changes = NodeChanges.changes(before, after);
    boolean wakes = !changes.isEmpty();
    assertEquals(changes, NodeChanges.changes(InformerStoresTest.stored(before), after));
    Statistics.label("change").collect(change.name());
    Statistics.label("wakes").collect(wakes);
    Statistics.label("wakes")
        .coverage(
            c -> {
              c.check(true).count(n -> n > 0);
              c.check(false).count(n -> n > 0);
            });
  }

  @Provide
  Arbitrary<NodeModel> nodes() {
    return nodes(QUANTITIES);
  }

  /**
   * Nodes whose quantities all parse, as the API server guarantees: fabric8's Quantity.equals, which
   * NodeChanges relies on, throws on a malformed amount.
   */
  @Provide
  Arbitrary<NodeModel> wellFormedNodes() {
    return nodes(Arbitraries.of("100m", "1", "1Gi"));
  }

  private static Arbitrary<NodeModel> nodes(Arbitrary<String> amounts) {
    Arbitrary<Taint> taint =
        Combinators.combine(
                rarely("", Arbitraries.of("dedicated", "spot")),
                rarely("Never", Arbitraries.of("NoSchedule", "PreferNoSchedule")))
            .as((key, effect) -> new Taint(effect, key, null, "batch"));
    Arbitrary<ContainerImage> image =
        rarely(-1L, Arbitraries.of(1_000L, 5L).injectNull(0.1))
            .map(size -> new ContainerImage(List.of("img:1", "img@sha256:1"), size));
    return Combinators.combine(
            labels(),
            taint.list().ofMaxSize(2),
            Arbitraries.of(true, false).injectNull(0.3),
            quantityTexts(amounts),
            image.list().ofMaxSize(2))
        .as(NodeModel::new);
  }

  /** A node as generated, its allocatable quantities as text. */
  record NodeModel(
      Map<String, String> labels,
      List<Taint> taints,
      @Nullable Boolean unschedulable,
      Map<String, String> allocatable,
      List<ContainerImage> images) {

    Node toNode() {
      return new NodeBuilder()
          .withNewMetadata()
          .withName("node-1")
          .withUid("node-uid")
          .withResourceVersion("1")
          .withLabels(labels)
          .withAnnotations(Map.of("node.alpha.kubernetes.io/ttl", "0"))
          .addNewManagedField()
          .withManager("kubelet")
          .endManagedField()
          .endMetadata()
          .withNewSpec()
          .withTaints(taints)
          .withUnschedulable(unschedulable)
          .withPodCIDR("10.0.0.0/24")
          .endSpec()
          .withNewStatus()
          .withAllocatable(quantities(allocatable))
          .withCapacity(quantities(allocatable))
          .withImages(images)
          .addNewCondition()
          .withType("Ready")
          .withStatus("True")
          .withLastHeartbeatTime("2026-01-01T00:00:00Z")
          .endCondition()
          .addNewAddress()
          .withType("InternalIP")
          .withAddress("10.0.0.1")
          .endAddress()
          .endStatus()
          .build();
    }
  }

  /** An update a node can go through, named for the statistics. */
  record NodeChange(String name, UnaryOperator<Node> change) {
    Node apply(Node node) {
      return change.apply(new NodeBuilder(node).build());
    }
  }

  @Provide
  Arbitrary<NodeChange> nodeChanges() {
    return Arbitraries.of(
        new NodeChange(
            "heartbeat",
            n ->
                edit(
                    n,
                    () -> n.getStatus().getConditions().get(0).setLastHeartbeatTime("2026-01-01T00:00:10Z"))),
        new NodeChange("annotation", n -> edit(n, () -> n.getMetadata().setAnnotations(Map.of("note", "x")))),
        new NodeChange("address", n -> edit(n, () -> n.getStatus().setAddresses(List.of()))),
        new NodeChange(
            "capacity", n -> edit(n, () -> n.getStatus().setCapacity(Map.of("cpu", new Quantity("64"))))),
        new NodeChange("label", n -> edit(n, () -> n.getMetadata().setLabels(Map.of("zone", "c")))),
        new NodeChange(
            "taint",
            n -> edit(n, () -> n.getSpec().setTaints(List.of(new Taint("NoExecute", "k", null, "v"))))),
        new NodeChange("cordon", n -> edit(n, () -> n.getSpec().setUnschedulable(true))),
        new NodeChange(
            "allocatable",
            n -> edit(n, () -> n.getStatus().setAllocatable(Map.of("cpu", new Quantity("2"))))),
        new NodeChange("images", n -> edit(n, () -> n.getStatus().setImages(List.of()))),
        new NodeChange("nothing", n -> n));
  }

  private static Node edit(Node node, Runnable edit) {
    edit.run();
    node.getMetadata().setResourceVersion("2");
    return node;
  }
}

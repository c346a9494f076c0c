package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.jspecify.annotations.Nullable;

/**
 * A plain model of a pod's resources for the properties: the generator, the rendering into a fabric8
 * {@link Pod}, and the reference computation of its effective requests, written apart from {@link
 * PodAdapter} after Kubernetes' documentation of init containers, sidecars, pod-level resources (KEP 2837)
 * and overhead; and the pod kube-scheduler's scores see, with the default requests filled in.
 */
final class PodModels {

  static final String CPU = "cpu";
  static final String MEMORY = "memory";
  static final String GPU = "nvidia.com/gpu";
  static final List<String> RESOURCES = List.of(CPU, MEMORY, GPU);
  /** What kube-scheduler's scores count for a container that names no CPU (millicores) or memory (bytes). */
  static final Map<String, Long> SCORING_DEFAULTS = Map.of(CPU, 100L, MEMORY, 200L << 20);

  private PodModels() {}

  /** What a container says of one resource: a request, a limit, both or neither ({@code null}). */
  record Amount(@Nullable Long request, @Nullable Long limit) {

    /** The request, or the limit the API server would copy into it, or nothing. */
    long effective() {
      if (request != null) {
        return request;
      }
      return limit == null ? 0 : limit;
    }
  }

  record ContainerModel(String name, Map<String, Amount> amounts, boolean restartable) {

    long effective(String resource) {
      var amount = amounts.get(resource);
      return amount == null ? 0 : amount.effective();
    }

    /** Whether the container writes down a request or limit for {@code resource}, zero included. */
    boolean names(String resource) {
      return amounts.containsKey(resource);
    }

    /** @return this container asking {@code request} of {@code resource} if it names none */
    ContainerModel defaulting(String resource, long request) {
      if (names(resource)) {
        return this;
      }
      var more = new LinkedHashMap<>(amounts);
      more.put(resource, new Amount(request, null));
      return new ContainerModel(name, more, restartable);
    }
  }

  /**
   * @param podLevel pod-level requests and limits ({@code spec.resources}) of CPU and memory; empty if unset
   */
  record PodModel(
      String namespace,
      String name,
      List<ContainerModel> containers,
      List<ContainerModel> initContainers,
      Map<String, Amount> podLevel,
      Map<String, Long> overhead) {

    boolean hasSidecar() {
      return initContainers.stream().anyMatch(ContainerModel::restartable);
    }

    /** Whether some container or init container names {@code resource}. */
    boolean anyContainerNames(String resource) {
      return Stream.concat(containers.stream(), initContainers.stream()).anyMatch(c -> c.names(resource));
    }

    /** Whether every container and init container names both CPU and memory. */
    boolean everyContainerNamesCpuAndMemory() {
      return Stream.concat(containers.stream(), initContainers.stream())
          .allMatch(c -> c.names(CPU) && c.names(MEMORY));
    }

    PodModel withInitContainers(List<ContainerModel> inits) {
      return new PodModel(namespace, name, containers, inits, podLevel, overhead);
    }
  }

  /** One quantity of the pod: a container's or init container's request, a pod-level request or an overhead entry. */
  record Slot(String list, @Nullable String container, String resource) {

    /** The field path a {@code MalformedObjectException} should name. */
    String field() {
      return container == null
          ? list + "[" + resource + "]"
          : list + "[" + container + "].resources.requests[" + resource + "]";
    }
  }

  // ---- The reference model

  /**
   * Kubernetes' rule, per resource: the containers and every sidecar run together for the pod's life; an
   * ordinary init container runs alone except for the sidecars started before it; a sidecar, while it
   * starts, runs with the sidecars before it. The pod needs the largest of these, plus its overhead.
   */
  static Resources expectedRequests(PodModel pod) {
    long[] totals = new long[RESOURCES.size()];
    for (int r = 0; r < RESOURCES.size(); r++) {
      var resource = RESOURCES.get(r);
      totals[r] =
          podLevelOr(pod, resource, Math.max(longRunning(pod, resource), initPeak(pod, resource)))
              + pod.overhead().getOrDefault(resource, 0L);
    }
    return new Resources(totals[0], totals[1], 0, 1, Map.of(GPU, totals[2]));
  }

  /**
   * A pod-level request stands for what the containers need. Where the pod sets pod-level resources but no
   * request for one of them, the API server fills the request in: the containers' need if they name the
   * resource, else the pod-level limit. A resource with neither stays the containers' need.
   */
  private static long podLevelOr(PodModel pod, String resource, long containersNeed) {
    var amount = pod.podLevel().get(resource);
    if (amount == null) {
      return containersNeed;
    }
    if (amount.request() != null) {
      return amount.request();
    }
    return pod.anyContainerNames(resource) ? containersNeed : amount.limit();
  }

  /**
   * The pod as kube-scheduler's scores see it: every container and init container that names no CPU or no
   * memory asks {@link #SCORING_DEFAULTS}. A pod with pod-level resources gets a default only for a resource
   * it names nowhere, neither in a container, at pod level nor in its overhead.
   */
  static PodModel withScoringDefaults(PodModel pod) {
    var defaulted = pod;
    for (var entry : SCORING_DEFAULTS.entrySet()) {
      var resource = entry.getKey();
      boolean namedSomewhere =
          pod.anyContainerNames(resource)
              || pod.podLevel().containsKey(resource)
              || pod.overhead().containsKey(resource);
      if (!pod.podLevel().isEmpty() && namedSomewhere) {
        continue;
      }
      var d = defaulted;
      defaulted =
          new PodModel(
              d.namespace(),
              d.name(),
              d.containers().stream().map(c -> c.defaulting(resource, entry.getValue())).toList(),
              d.initContainers().stream().map(c -> c.defaulting(resource, entry.getValue())).toList(),
              d.podLevel(),
              d.overhead());
    }
    return defaulted;
  }

  /** What the containers and all sidecars take together once the pod runs. */
  static long longRunning(PodModel pod, String resource) {
    long sum = 0;
    for (var c : pod.containers()) {
      sum += c.effective(resource);
    }
    for (var c : pod.initContainers()) {
      if (c.restartable()) {
        sum += c.effective(resource);
      }
    }
    return sum;
  }

  /** The most the pod takes while one of its init containers starts, with the sidecars started before. */
  static long initPeak(PodModel pod, String resource) {
    long peak = 0;
    var inits = pod.initContainers();
    for (int i = 0; i < inits.size(); i++) {
      long sidecarsBefore = 0;
      for (int j = 0; j < i; j++) {
        if (inits.get(j).restartable()) {
          sidecarsBefore += inits.get(j).effective(resource);
        }
      }
      peak = Math.max(peak, sidecarsBefore + inits.get(i).effective(resource));
    }
    return peak;
  }

  /** Whether, for some resource, an init container's start needs more than the running pod. */
  static boolean initContainerDominates(PodModel pod) {
    return RESOURCES.stream().anyMatch(r -> initPeak(pod, r) > longRunning(pod, r));
  }

  // ---- Rendering

  static Pod render(PodModel pod) {
    return render(pod, slot -> null);
  }

  /**
   * @param replace the text to put in place of a slot's quantity, {@code null} to keep it
   */
  static Pod render(PodModel pod, Function<Slot, @Nullable String> replace) {
    var fixture = Fixtures.pod(pod.namespace(), pod.name());
    for (var c : pod.containers()) {
      fixture.container(container(c, "spec.containers", replace));
    }
    for (var c : pod.initContainers()) {
      fixture.initContainer(container(c, "spec.initContainers", replace));
    }
    if (!pod.podLevel().isEmpty()) {
      var requests = new LinkedHashMap<String, Quantity>();
      var limits = new LinkedHashMap<String, Quantity>();
      pod.podLevel()
          .forEach(
              (resource, amount) -> {
                if (amount.request() != null) {
                  var replacement = replace.apply(new Slot("spec.resources.requests", null, resource));
                  requests.put(
                      resource,
                      Fixtures.quantity(replacement != null ? replacement : format(resource, amount.request())));
                }
                if (amount.limit() != null) {
                  limits.put(resource, Fixtures.quantity(format(resource, amount.limit())));
                }
              });
      fixture.podResources(requests, limits);
    }
    var built = fixture.build();
    if (!pod.overhead().isEmpty()) {
      var overhead = new LinkedHashMap<String, Quantity>();
      pod.overhead()
          .forEach(
              (resource, amount) -> {
                var replacement = replace.apply(new Slot("spec.overhead", null, resource));
                overhead.put(
                    resource, Fixtures.quantity(replacement != null ? replacement : format(resource, amount)));
              });
      built.getSpec().setOverhead(overhead);
    }
    return built;
  }

  private static Container container(
      ContainerModel c, String list, Function<Slot, @Nullable String> replace) {
    var requests = new LinkedHashMap<String, Quantity>();
    var limits = new LinkedHashMap<String, Quantity>();
    c.amounts()
        .forEach(
            (resource, amount) -> {
              if (amount.request() != null) {
                var replacement = replace.apply(new Slot(list, c.name(), resource));
                requests.put(
                    resource,
                    Fixtures.quantity(replacement != null ? replacement : format(resource, amount.request())));
              }
              if (amount.limit() != null) {
                limits.put(resource, Fixtures.quantity(format(resource, amount.limit())));
              }
            });
    var container = Fixtures.container(c.name(), requests, limits);
    if (c.restartable()) {
      container.setRestartPolicy("Always");
    }
    return container;
  }

  /** Amounts written as people write them: millicores or cores, bytes or Ki/Mi, plain counts. */
  static String format(String resource, long amount) {
    switch (resource) {
      case CPU:
        return amount % 1000 == 0 && amount % 3000 != 0 ? amount / 1000 + "" : amount + "m";
      case MEMORY:
        if (amount % (1 << 20) == 0 && amount != 0) {
          return amount / (1 << 20) + "Mi";
        }
        return amount % 1024 == 0 && amount % 3 != 0 ? amount / 1024 + "Ki" : Long.toString(amount);
      default:
        return Long.toString(amount);
    }
  }

  /** Every quantity that is a request of some container, a pod-level request or an overhead entry. */
  static List<Slot> requestSlots(PodModel pod) {
    var slots = new ArrayList<Slot>();
    for (var c : pod.containers()) {
      c.amounts().forEach((r, a) -> {
        if (a.request() != null) {
          slots.add(new Slot("spec.containers", c.name(), r));
        }
      });
    }
    for (var c : pod.initContainers()) {
      c.amounts().forEach((r, a) -> {
        if (a.request() != null) {
          slots.add(new Slot("spec.initContainers", c.name(), r));
        }
      });
    }
    pod.podLevel().forEach((r, a) -> {
      if (a.request() != null) {
        slots.add(new Slot("spec.resources.requests", null, r));
      }
    });
    pod.overhead().keySet().forEach(r -> slots.add(new Slot("spec.overhead", null, r)));
    return slots;
  }

  // ---- Generators

  static Arbitrary<PodModel> pods() {
    // Edge cases come from the lists and the amounts' choices; more would outnumber the tries.
    var names = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8).withoutEdgeCases();
    var overhead =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(Map.<String, Long>of())),
            Tuple.of(1, Arbitraries.maps(Arbitraries.of(CPU, MEMORY), Arbitraries.longs().between(0, 500))
                .ofMinSize(1)
                .ofMaxSize(2)));
    return Combinators.combine(
            names,
            names,
            containers(false).list().ofMaxSize(4),
            containers(true).list().ofMaxSize(3),
            podLevel(),
            overhead)
        .as(
            (namespace, name, containers, inits, podLevel, o) ->
                new PodModel(namespace, name, named("c", containers), named("init", inits), podLevel, o));
  }

  /** Mostly none; else CPU, memory or both, each as a request, a limit or both. */
  private static Arbitrary<Map<String, Amount>> podLevel() {
    var cpu = amount(zeroOr(Arbitraries.longs().between(1, 16_000)));
    var memory = amount(zeroOr(Arbitraries.longs().between(1, 1L << 35)));
    var some =
        Combinators.combine(cpu, memory)
            .as(
                (c, m) -> {
                  Map<String, Amount> amounts = new LinkedHashMap<>();
                  c.ifPresent(a -> amounts.put(CPU, a));
                  m.ifPresent(a -> amounts.put(MEMORY, a));
                  return amounts;
                })
            .filter(amounts -> !amounts.isEmpty());
    return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(Map.<String, Amount>of())), Tuple.of(1, some));
  }

  /** Containers get unique names from their place, as the API server requires. */
  private static List<ContainerModel> named(String prefix, List<ContainerModel> containers) {
    var result = new ArrayList<ContainerModel>();
    for (int i = 0; i < containers.size(); i++) {
      var c = containers.get(i);
      result.add(new ContainerModel(prefix + i, c.amounts(), c.restartable()));
    }
    return result;
  }

  private static Arbitrary<ContainerModel> containers(boolean init) {
    var restartable = init ? Arbitraries.of(true, false, false) : Arbitraries.just(false);
    return Combinators.combine(
            amount(zeroOr(Arbitraries.longs().between(1, 8_000))),
            amount(zeroOr(Arbitraries.longs().between(1, 1L << 34))),
            amount(zeroOr(Arbitraries.longs().between(1, 4))),
            restartable)
        .as(
            (cpu, memory, gpu, always) -> {
              var amounts = new LinkedHashMap<String, Amount>();
              cpu.ifPresent(a -> amounts.put(CPU, a));
              memory.ifPresent(a -> amounts.put(MEMORY, a));
              gpu.ifPresent(a -> amounts.put(GPU, a));
              return new ContainerModel("", amounts, always);
            });
  }

  /** Zero now and then, as people do write {@code cpu: 0}; drawn on purpose rather than as edge cases. */
  private static Arbitrary<Long> zeroOr(Arbitrary<Long> positive) {
    return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0L)), Tuple.of(9, positive)).withoutEdgeCases();
  }

  /** Nothing, a request, a limit, or both with the limit no less than the request. */
  private static Arbitrary<Optional<Amount>> amount(Arbitrary<Long> values) {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(Optional.<Amount>empty())),
        Tuple.of(4, values.map(v -> Optional.of(new Amount(v, null)))),
        Tuple.of(1, values.map(v -> Optional.of(new Amount(null, v)))),
        Tuple.of(
            2,
            Combinators.combine(values, values)
                .as((a, b) -> Optional.of(new Amount(Math.min(a, b), Math.max(a, b))))));
  }
}

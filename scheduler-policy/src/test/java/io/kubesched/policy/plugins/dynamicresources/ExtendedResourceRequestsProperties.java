package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.ContainerRequests;
import io.kubesched.api.DeviceRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link ExtendedResourceRequests} over drawn pods: every container gets at least what it asks for from the requests
 * its mappings name, each request is of its resource's class, names are unique and sorted, and nothing is asked for
 * beyond what the containers running at once need.
 */
class ExtendedResourceRequestsProperties {

  private static final List<String> RESOURCES = List.of("example.com/a", "example.com/b", "cpu");
  private static final Map<String, String> CLASSES = Map.of("example.com/a", "class-a", "example.com/b", "class-b");

  @Provide
  Arbitrary<List<ContainerRequests>> pods() {
    var amounts = Arbitraries.maps(Arbitraries.of(RESOURCES), Arbitraries.longs().between(0, 4)).ofMaxSize(3);
    var container = Combinators.combine(Arbitraries.integers().between(0, 2), amounts).as(Shape::new);
    return container.list().ofMinSize(1).ofMaxSize(5).map(ExtendedResourceRequestsProperties::containers);
  }

  /** @param kind 0 an init container, 1 a sidecar, 2 a container (init containers are put first) */
  private record Shape(int kind, Map<String, Long> amounts) {}

  private static List<ContainerRequests> containers(List<Shape> shapes) {
    var ordered = new ArrayList<Shape>();
    shapes.stream().filter(s -> s.kind() < 2).forEach(ordered::add);
    shapes.stream().filter(s -> s.kind() == 2).forEach(ordered::add);
    var containers = new ArrayList<ContainerRequests>();
    for (int i = 0; i < ordered.size(); i++) {
      var shape = ordered.get(i);
      var scalar = new HashMap<String, Long>();
      shape.amounts().forEach((name, amount) -> {
        if (amount > 0 && name.contains("/")) {
          scalar.put(name, amount);
        }
      });
      containers.add(new ContainerRequests(i, "c" + i, shape.kind() < 2, shape.kind() == 1,
          List.copyOf(new TreeSet<>(shape.amounts().keySet())), scalar));
    }
    return containers;
  }

  private static int indexOf(List<ContainerRequests> containers, String name) {
    return containers.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().index();
  }

  private static long count(DeviceRequest request) {
    return Objects.requireNonNull(request.exactly()).count();
  }

  @Property
  void every_container_gets_what_it_asks_for_from_the_requests_it_is_mapped_to(
      @ForAll("pods") List<ContainerRequests> containers) {
    var built = ExtendedResourceRequests.build(containers, CLASSES);
    var byName = new HashMap<String, DeviceRequest>();
    built.requests().forEach(r -> byName.put(r.name(), r));
    boolean initAsks = containers.stream().anyMatch(c -> !c.longLived() && !c.scalar().isEmpty());
    boolean reused = built.mappings().stream()
        .anyMatch(m -> !m.requestName().startsWith("container-" + indexOf(containers, m.containerName()) + "-"));
    Statistics.label("init").collect(initAsks);
    Statistics.label("reuses another container's request").collect(reused);
    Statistics.label("init").coverage(c -> c.check(true).percentage(p -> p > 10));
    Statistics.label("reuses another container's request").coverage(c -> c.check(true).percentage(p -> p > 5));
    for (var container : containers) {
      for (var wanted : container.scalar().entrySet()) {
        long got = 0;
        for (var mapping : built.mappings()) {
          if (mapping.containerName().equals(container.name()) && mapping.resourceName().equals(wanted.getKey())) {
            var request = byName.get(mapping.requestName());
            if (request == null) {
              throw new AssertionError("mapping to a request not in the claim: " + mapping);
            }
            got += count(request);
          }
        }
        if (got < wanted.getValue()) {
          throw new AssertionError(container.name() + " asks " + wanted + " but its requests give " + got);
        }
      }
    }
  }

  @Property
  void requests_are_of_their_resource_s_class_unique_sorted_and_no_larger_than_needed(
      @ForAll("pods") List<ContainerRequests> containers) {
    var built = ExtendedResourceRequests.build(containers, CLASSES);
    var names = built.requests().stream().map(DeviceRequest::name).toList();
    if (!names.equals(List.copyOf(new TreeSet<>(names))) || new HashSet<>(names).size() != names.size()) {
      throw new AssertionError("names not unique and sorted: " + names);
    }
    for (var resource : CLASSES.keySet()) {
      long longLived = 0;
      long largestInit = 0;
      for (var container : containers) {
        long amount = container.scalar().getOrDefault(resource, 0L);
        if (container.longLived()) {
          longLived += amount;
        } else {
          largestInit = Math.max(largestInit, amount);
        }
      }
      long asked = 0;
      for (var mapping : built.mappings()) {
        if (!mapping.resourceName().equals(resource)) {
          continue;
        }
        var request = built.requests().stream().filter(r -> r.name().equals(mapping.requestName())).findFirst()
            .orElseThrow();
        if (!Objects.requireNonNull(request.exactly()).deviceClassName().equals(CLASSES.get(resource))) {
          throw new AssertionError("request " + request.name() + " is not of " + CLASSES.get(resource));
        }
      }
      for (var request : built.requests()) {
        if (Objects.requireNonNull(request.exactly()).deviceClassName().equals(CLASSES.get(resource))) {
          asked += count(request);
        }
      }
      if (asked > longLived + largestInit) {
        throw new AssertionError(resource + ": asks " + asked + ", the containers need at most " + longLived + " + "
            + largestInit);
      }
    }
  }
}

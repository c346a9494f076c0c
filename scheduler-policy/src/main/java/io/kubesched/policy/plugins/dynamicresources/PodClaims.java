package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A pod's ResourceClaims as kube's DynamicResources PreEnqueue and PreFilter resolve them over one snapshot's
 * {@link DynamicResources}: each claim found, or why the pod cannot be scheduled now. Pure and immutable.
 *
 * @param claims the pod's claims, in the pod's order, entries whose generated claim the controller decided not to
 *     make left out (kube skips them)
 * @param rejection kube's message when the pod is turned away (code UnschedulableAndUnresolvable); {@code null}
 *     otherwise
 * @param error kube's message when the plugin cannot decide (code Error); {@code null} otherwise
 * @param draExtendedResources the extended resources the pod requests that a DeviceClass backs, by name, with
 *     the class
 */
record PodClaims(
    List<ResourceClaim> claims,
    @Nullable String rejection,
    @Nullable String error,
    Map<String, DeviceClass> draExtendedResources) {

  /** Kube's prefix of the extended resource name every DeviceClass backs implicitly. */
  static final String IMPLICIT_EXTENDED_RESOURCE_PREFIX = "deviceclass.resource.kubernetes.io/";

  PodClaims {
    claims = List.copyOf(claims);
    draExtendedResources = Map.copyOf(draExtendedResources);
  }

  private static PodClaims rejected(String message) {
    return new PodClaims(List.of(), message, null, Map.of());
  }

  private static PodClaims failed(String message) {
    return new PodClaims(List.of(), null, message, Map.of());
  }

  /**
   * Resolves {@code pod}'s claims in kube's order of checks: PreEnqueue's (the claim's name, that it exists, is not
   * being deleted and, for a template's claim, is controlled by the pod), then PreFilter's for each claim not
   * allocated yet (every request names an existing class).
   */
  static PodClaims resolve(PodInfo pod, DynamicResources resources) {
    var claims = new ArrayList<ResourceClaim>(pod.resourceClaims().size());
    for (var entry : pod.resourceClaims()) {
      if (entry.resourceClaimName() == null && entry.resourceClaimTemplateName() == null) {
        return rejected("pod \"" + pod.namespace() + "/" + pod.name() + "\", spec.resourceClaim \"" + entry.name()
            + "\": none of the supported fields are set");
      }
      if (entry.notNeeded()) {
        continue; // the resource claim controller reported that no claim is needed for this entry: kube skips it
      }
      var claimName = entry.claimName();
      if (claimName == null) {
        return rejected("pod \"" + pod.namespace() + "/" + pod.name() + "\": ResourceClaim not created yet");
      }
      var found = resources.claim(pod.namespace(), claimName);
      if (found.isEmpty()) {
        return rejected("could not find ResourceClaim \"" + pod.namespace() + "/" + claimName + "\"");
      }
      var claim = found.get();
      if (claim.deleting()) {
        return rejected("resourceclaim \"" + claim.name() + "\" is being deleted");
      }
      if (entry.resourceClaimName() == null) {
        var controller = claim.controller();
        if (controller == null || !controller.uid().equals(pod.uid())) {
          return rejected("ResourceClaim " + claim.key() + " was not created for Pod " + pod.namespace() + "/"
              + pod.name() + " (Pod is not owner)");
        }
      }
      // Two entries naming one claim share it: it is allocated and reserved once.
      if (claims.stream().noneMatch(c -> c.key().equals(claim.key()))) {
        claims.add(claim);
      }
    }
    var extended = draExtendedResources(pod, resources);
    for (var claim : claims) {
      if (claim.allocation() != null) {
        continue;
      }
      for (var request : claim.requests()) {
        var exactly = request.exactly();
        if (exactly != null) {
          var problem = classProblem(resources, exactly, request.name());
          if (problem != null) {
            return problem;
          }
        } else if (!request.firstAvailable().isEmpty()) {
          for (var sub : request.firstAvailable()) {
            var problem = classProblem(resources, sub.requirements(), request.name() + "/" + sub.name());
            if (problem != null) {
              return problem;
            }
          }
        } else {
          return rejected("resource claim " + claim.key() + ", request " + request.name() + ": unknown request type");
        }
      }
    }
    return new PodClaims(claims, null, null, extended);
  }

  private static @Nullable PodClaims classProblem(
      DynamicResources resources, DeviceRequirements requirements, String requestName) {
    var className = requirements.deviceClassName();
    if (className.isEmpty()) {
      return failed("request " + requestName + ": unsupported request type");
    }
    if (resources.deviceClass(className).isEmpty()) {
      return rejected("request " + requestName + ": device class " + className + " does not exist");
    }
    return null;
  }

  /** The extended resources {@code pod} requests that a class backs (explicitly, or implicitly by its name). */
  private static Map<String, DeviceClass> draExtendedResources(PodInfo pod, DynamicResources resources) {
    var requested = pod.requests().extended();
    if (requested.isEmpty() || resources.deviceClasses().isEmpty()) {
      return Map.of();
    }
    var backed = new TreeMap<String, DeviceClass>();
    requested.forEach((name, amount) -> {
      if (amount > 0) {
        deviceClassFor(name, resources).ifPresent(c -> backed.put(name, c));
      }
    });
    return backed;
  }

  /**
   * kube's DeviceClass resolver for an extended resource: the class naming it as its {@code extendedResourceName}
   * (of several, the first by name), else the class {@code X} for {@code deviceclass.resource.kubernetes.io/X}.
   */
  static Optional<DeviceClass> deviceClassFor(String resource, DynamicResources resources) {
    DeviceClass explicit = null;
    for (var c : resources.deviceClasses()) {
      if (resource.equals(c.extendedResourceName()) && (explicit == null || c.name().compareTo(explicit.name()) < 0)) {
        explicit = c;
      }
    }
    if (explicit != null) {
      return Optional.of(explicit);
    }
    if (resource.startsWith(IMPLICIT_EXTENDED_RESOURCE_PREFIX)) {
      return resources.deviceClass(resource.substring(IMPLICIT_EXTENDED_RESOURCE_PREFIX.length()));
    }
    return Optional.empty();
  }

  /** @return whether the pod has no claim and requests no extended resource a class backs (kube's Skip) */
  boolean nothingToDo() {
    return claims.isEmpty() && draExtendedResources.isEmpty();
  }

  /** @return the claims not allocated yet, in the pod's order */
  List<ResourceClaim> toAllocate() {
    var pending = new ArrayList<ResourceClaim>();
    for (var claim : claims) {
      if (claim.allocation() == null) {
        pending.add(claim);
      }
    }
    return pending;
  }

  /**
   * @return the allocated claims whose devices cannot be used by a pod being bound on any node: a binding failure
   *     condition is {@code True}, or the binding conditions are not met {@code timeout} after the allocation (kube's
   *     {@code isClaimReadyForBinding} and {@code isClaimTimeout} in Filter), in the pod's order
   */
  List<ResourceClaim> bindingUnavailable(Instant now, Duration timeout) {
    List<ResourceClaim> unavailable = List.of();
    for (var claim : claims) {
      if (!claim.hasBindingConditions()) {
        continue;
      }
      var state = claim.bindingState();
      if (state instanceof ResourceClaim.BindingState.Failed
          || (state instanceof ResourceClaim.BindingState.Pending && claim.bindingTimedOut(now, timeout))) {
        if (unavailable.isEmpty()) {
          unavailable = new ArrayList<>(claims.size());
        }
        unavailable.add(claim);
      }
    }
    return unavailable;
  }

  /**
   * @return the allocated claims whose node selector does not admit {@code node} (a null selector admits all), in
   *     the pod's order: kube's unavailable claims
   */
  List<ResourceClaim> allocatedClaimsNotReaching(NodeInfo node) {
    List<ResourceClaim> unavailable = List.of();
    for (var claim : claims) {
      var allocation = claim.allocation();
      if (allocation != null) {
        List<NodeSelectorTerm> terms = allocation.nodeSelector();
        if (terms != null && !NodeSelectors.matchesAny(terms, node)) {
          if (unavailable.isEmpty()) {
            unavailable = new ArrayList<>(claims.size());
          }
          unavailable.add(claim);
        }
      }
    }
    return unavailable;
  }

  /**
   * @return the first extended resource (by name) a class backs that {@code node} does not offer through a device
   *     plugin, so kube would allocate it through DRA there; {@code null} if none
   */
  @Nullable String extendedResourceNeedingDra(NodeInfo node) {
    for (var name : new TreeMap<>(draExtendedResources).keySet()) {
      if (node.allocatable().extended(name) == 0) {
        return name;
      }
    }
    return null;
  }
}

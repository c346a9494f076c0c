package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.Owner;
import io.kubesched.policy.plugins.helper.ExtendedResources;
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
 * @param extendedClaim the claim created for the pod's extended resources in an earlier attempt (annotated {@value
 *     ExtendedResourceClaim#ANNOTATION} and controlled by the pod), found only for a pod with {@code
 *     draExtendedResources}; {@code null} if none
 */
record PodClaims(
    List<ResourceClaim> claims,
    @Nullable String rejection,
    @Nullable String error,
    Map<String, DeviceClass> draExtendedResources,
    @Nullable ResourceClaim extendedClaim) {

  /** Kube's prefix of the extended resource name every DeviceClass backs implicitly. */
  static final String IMPLICIT_EXTENDED_RESOURCE_PREFIX = ExtendedResources.IMPLICIT_PREFIX;

  /** kube's Filter message on every node for a pod whose claim for extended resources exists from an earlier try. */
  static final String STALE_EXTENDED_CLAIM = "cannot schedule extended resource claim";

  /** kube's Filter message for a node lacking an extended resource that no class backs. */
  static final String CANNOT_FIT_RESOURCE = "cannot fit resource";

  PodClaims {
    claims = List.copyOf(claims);
    draExtendedResources = Map.copyOf(draExtendedResources);
  }

  private static PodClaims rejected(String message) {
    return new PodClaims(List.of(), message, null, Map.of(), null);
  }

  private static PodClaims failed(String message) {
    return new PodClaims(List.of(), null, message, Map.of(), null);
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
    return new PodClaims(claims, null, null, extended, extended.isEmpty() ? null : extendedClaim(pod, resources));
  }

  /** kube's {@code findExtendedResourceClaim}: the claim the scheduler created for the pod's extended resources. */
  private static @Nullable ResourceClaim extendedClaim(PodInfo pod, DynamicResources resources) {
    for (var claim : resources.claims()) {
      var controller = claim.controller();
      if ("true".equals(claim.annotations().get(ExtendedResourceClaim.ANNOTATION))
          && !claim.name().equals(ExtendedResourceClaim.NAME_BEFORE_CREATION) // one the loop holds, being created
          && controller != null && controller.uid().equals(pod.uid()) && controller.name().equals(pod.name())) {
        return claim;
      }
    }
    return null;
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

  /** kube's DeviceClass resolver for an extended resource, see {@link ExtendedResources#deviceClassFor}. */
  static Optional<DeviceClass> deviceClassFor(String resource, DynamicResources resources) {
    return ExtendedResources.deviceClassFor(resource, resources);
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
   * kube's {@code filterExtendedResources}: what the pod's extended resources backed by DRA need on {@code node}.
   * A resource a class backs that the node does not offer (allocatable 0) is allocated through the claim the
   * scheduler creates, its requests built for this node; a node lacking a requested extended resource that no class
   * backs is {@value #CANNOT_FIT_RESOURCE}; a pod whose claim exists from an earlier try (with requests) is {@value
   * #STALE_EXTENDED_CLAIM} everywhere, as kube leaves it to PostFilter to delete it.
   */
  OnNode extendedClaimOn(PodInfo pod, NodeInfo node) {
    if (draExtendedResources.isEmpty()) {
      return OnNode.NONE;
    }
    var existing = extendedClaim;
    if (existing != null && !existing.requests().isEmpty()) {
      return new OnNode.Rejected(STALE_EXTENDED_CLAIM);
    }
    var classes = new TreeMap<String, String>();
    for (var requested : pod.requests().extended().entrySet()) {
      var name = requested.getKey();
      if (requested.getValue() == 0 || !ExtendedResources.isDraExtendedResourceName(name)) {
        continue;
      }
      var backing = draExtendedResources.get(name);
      boolean offered = node.allocatable().extended(name) > 0;
      if (backing != null && !offered) {
        classes.put(name, backing.name());
      } else if (!offered) {
        return new OnNode.Rejected(CANNOT_FIT_RESOURCE);
      }
    }
    if (classes.isEmpty() || existing != null) {
      return OnNode.NONE;
    }
    var built = ExtendedResourceRequests.build(pod.containerRequests(), classes);
    if (built.requests().isEmpty()) {
      return OnNode.NONE;
    }
    var claim = new ResourceClaim(
        pod.namespace(), ExtendedResourceClaim.NAME_BEFORE_CREATION, placeholderUid(pod), "",
        new Owner("Pod", pod.name(), pod.uid()), Map.of(ExtendedResourceClaim.ANNOTATION, "true"),
        built.requests(), List.of(), List.of(), null, List.of(), false);
    return new OnNode.Claim(claim, built);
  }

  /** The uid the claim for {@code pod}'s extended resources has until it is created (kube makes a random one). */
  static String placeholderUid(PodInfo pod) {
    return "extended-resources-" + pod.uid();
  }

  /** What a pod's extended resources backed by DRA need on one node. */
  sealed interface OnNode {
    /** Nothing through DRA on this node (none backed, or the node offers them through a device plugin). */
    OnNode NONE = new Nothing();

    /** See {@link #NONE}. */
    record Nothing() implements OnNode {}

    /** The node is not suitable, with kube's message. */
    record Rejected(String message) implements OnNode {}

    /** The claim to allocate on this node with the pod's other claims, and its requests' mappings. */
    record Claim(ResourceClaim claim, ExtendedResourceRequests requests) implements OnNode {}
  }
}

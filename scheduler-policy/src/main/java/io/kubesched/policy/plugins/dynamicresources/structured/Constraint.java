package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A claim's constraint while one search runs: kube's {@code matchAttributeConstraint} and {@code
 * distinctAttributeConstraint}. Mutable; owned by one search on one thread. Constraints are monotonic: once a
 * device is refused, adding more devices never helps.
 */
abstract sealed class Constraint {

  private final Set<String> requestNames;
  final String attributeName;

  private Constraint(Set<String> requestNames, String attributeName) {
    this.requestNames = requestNames;
    this.attributeName = attributeName;
  }

  static Constraint matchAttribute(List<String> requests, String attribute) {
    return new Match(Set.copyOf(requests), attribute);
  }

  static Constraint distinctAttribute(List<String> requests, String attribute) {
    return new Distinct(Set.copyOf(requests), attribute);
  }

  /**
   * Called when {@code device} is about to be allocated for the request (and sub-request, empty if none).
   *
   * @return whether the constraint still holds with the device; when true, the device is counted in
   */
  final boolean add(String request, String subRequest, Device device, DeviceId id) {
    if (!appliesTo(request, subRequest)) {
      return true;
    }
    var attribute = lookupAttribute(device, id, attributeName);
    if (attribute == null) {
      return false;
    }
    return accept(attribute);
  }

  /** Undoes the matching successful {@link #add}. */
  final void remove(String request, String subRequest) {
    if (appliesTo(request, subRequest)) {
      removeLast();
    }
  }

  abstract boolean accept(DeviceAttribute attribute);

  abstract void removeLast();

  private boolean appliesTo(String request, String subRequest) {
    if (requestNames.isEmpty()) {
      return true;
    }
    return requestNames.contains(request)
        || (!subRequest.isEmpty() && requestNames.contains(request + "/" + subRequest));
  }

  /**
   * kube's {@code lookupAttribute}: the attribute by its fully qualified name, or by its short name when the
   * domain is the device's driver.
   */
  static @Nullable DeviceAttribute lookupAttribute(Device device, DeviceId id, String qualifiedName) {
    var direct = device.attributes().get(qualifiedName);
    if (direct != null) {
      return direct;
    }
    int slash = qualifiedName.indexOf('/');
    if (slash < 0 || !qualifiedName.substring(0, slash).equals(id.driver())) {
      return null;
    }
    return device.attributes().get(qualifiedName.substring(slash + 1));
  }

  private static final class Match extends Constraint {
    private @Nullable DeviceAttribute first;
    private int count;

    Match(Set<String> requestNames, String attributeName) {
      super(requestNames, attributeName);
    }

    @Override
    boolean accept(DeviceAttribute attribute) {
      if (count == 0) {
        first = attribute;
        count = 1;
        return true;
      }
      // Values of different types never match; semantic versions are minimal, so text equality is theirs.
      if (!attribute.equals(first)) {
        return false;
      }
      count++;
      return true;
    }

    @Override
    void removeLast() {
      count--;
    }
  }

  private static final class Distinct extends Constraint {
    private final List<DeviceAttribute> seen = new ArrayList<>();

    Distinct(Set<String> requestNames, String attributeName) {
      super(requestNames, attributeName);
    }

    @Override
    boolean accept(DeviceAttribute attribute) {
      if (seen.contains(attribute)) {
        return false;
      }
      seen.add(attribute);
      return true;
    }

    @Override
    void removeLast() {
      seen.remove(seen.size() - 1);
    }
  }
}

package io.kubesched.policy.plugins.args;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.LabelSyntax;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The arguments of kube-scheduler's {@code PodTopologySpread} plugin ({@code PodTopologySpreadArgs}): the
 * constraints given to pods that have none of their own.
 *
 * <p>With {@link DefaultingType#SYSTEM} (kube's default), {@code defaultConstraints} must be empty and the plugin
 * uses {@link #SYSTEM_DEFAULT_CONSTRAINTS}; with {@link DefaultingType#LIST} it uses {@code defaultConstraints},
 * which may be empty (no default spreading). A default constraint has no selector of its own: for each pod, it
 * selects the pods that the pod's Services and controlling ReplicationController, ReplicaSet or StatefulSet
 * select.
 *
 * <p>Validated as kube's {@code ValidatePodTopologySpreadArgs}; the message of the {@link
 * IllegalArgumentException} has kube's wording, each error naming the field and its value (several errors
 * are listed in brackets, comma-separated).
 *
 * @param defaultConstraints the default constraints for {@link DefaultingType#LIST}; empty for {@link
 *     DefaultingType#SYSTEM}
 * @param defaultingType where the default constraints come from
 */
@API(status = MAINTAINED, since = "0.1.0")
public record PodTopologySpreadArgs(List<TopologySpreadConstraint> defaultConstraints, DefaultingType defaultingType) {

  /** Where the default constraints come from ({@code defaultingType}). */
  public enum DefaultingType {
    /** Kube's built-in constraints, {@link #SYSTEM_DEFAULT_CONSTRAINTS} ({@code System}). */
    SYSTEM("System"),
    /** The constraints listed in {@code defaultConstraints} ({@code List}). */
    LIST("List");

    private final String apiName;

    DefaultingType(String apiName) {
      this.apiName = apiName;
    }

    /** @return the value as kube's configuration writes it: {@code System} or {@code List} */
    public String apiName() {
      return apiName;
    }
  }

  /** The node label naming the node's host, {@value}. */
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  /** The node label naming the node's zone, {@value}. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  /**
   * Kube's system default constraints: spread over hosts with {@code maxSkew} 3 and over zones with {@code
   * maxSkew} 5, both {@code ScheduleAnyway}.
   */
  public static final List<TopologySpreadConstraint> SYSTEM_DEFAULT_CONSTRAINTS =
      List.of(
          TopologySpreadConstraint.of(3, HOSTNAME_LABEL, WhenUnsatisfiable.SCHEDULE_ANYWAY, null),
          TopologySpreadConstraint.of(5, ZONE_LABEL, WhenUnsatisfiable.SCHEDULE_ANYWAY, null));

  /** Kube's defaulted arguments: system defaulting, no listed constraints. */
  public static final PodTopologySpreadArgs SYSTEM = new PodTopologySpreadArgs(List.of(), DefaultingType.SYSTEM);

  /**
   * @throws IllegalArgumentException if a constraint has a label selector, a {@code maxSkew} below 1, an empty
   *     or malformed topology key or no {@code whenUnsatisfiable}, if two constraints share a topology key and
   *     {@code whenUnsatisfiable}, or if {@code defaultingType} is {@link DefaultingType#SYSTEM} with constraints
   *     listed
   */
  public PodTopologySpreadArgs {
    defaultConstraints = List.copyOf(defaultConstraints);
    var errors = validate(defaultConstraints, defaultingType);
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(
          errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }
  }

  /**
   * @param defaultConstraints the constraints for pods without their own, none of them with a selector
   * @return {@link DefaultingType#LIST} arguments with these constraints
   * @throws IllegalArgumentException as the canonical constructor
   */
  public static PodTopologySpreadArgs list(List<TopologySpreadConstraint> defaultConstraints) {
    return new PodTopologySpreadArgs(defaultConstraints, DefaultingType.LIST);
  }

  /** @return the default constraints in use: the system's or the listed ones */
  public List<TopologySpreadConstraint> effectiveConstraints() {
    return defaultingType == DefaultingType.SYSTEM ? SYSTEM_DEFAULT_CONSTRAINTS : defaultConstraints;
  }

  /** @return whether the system default constraints are in use */
  public boolean systemDefaulted() {
    return defaultingType == DefaultingType.SYSTEM;
  }

  // The null checks stand for kube's empty values: a caller outside null-checked code may pass them.
  private static List<String> validate(List<TopologySpreadConstraint> constraints, DefaultingType type) {
    var errors = new ArrayList<String>();
    if (type == null) {
      errors.add("defaultingType: Unsupported value: null: supported values: \"List\", \"System\"");
    } else if (type == DefaultingType.SYSTEM && !constraints.isEmpty()) {
      errors.add("defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty");
    }
    for (int i = 0; i < constraints.size(); i++) {
      var c = constraints.get(i);
      var path = "defaultConstraints[" + i + "]";
      if (c.maxSkew() <= 0) {
        errors.add(path + ".maxSkew: Invalid value: " + c.maxSkew() + ": not in valid range (0, inf)");
      }
      if (c.topologyKey() == null || c.topologyKey().isEmpty()) {
        errors.add(path + ".topologyKey: Required value: can not be empty");
      } else if (!LabelSyntax.isQualifiedName(c.topologyKey())) {
        errors.add(path + ".topologyKey: Invalid value: \"" + c.topologyKey()
            + "\": must be a qualified name (an optional DNS subdomain prefix and '/', then a name of at most 63"
            + " alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character)");
      }
      if (c.whenUnsatisfiable() == null) {
        errors.add(path + ".whenUnsatisfiable: Required value: can not be empty");
      }
      if (c.labelSelector() != null) {
        errors.add(path + ".labelSelector: Forbidden: constraint must not define a selector, as they deduced for"
            + " each pod");
      }
      for (int j = 0; j < i; j++) {
        var other = constraints.get(j);
        if (c.topologyKey() != null
            && c.topologyKey().equals(other.topologyKey())
            && c.whenUnsatisfiable() == other.whenUnsatisfiable()) {
          errors.add("defaultConstraints[" + i + "]: Duplicate value: \"{" + c.topologyKey() + ", "
              + apiName(c.whenUnsatisfiable()) + "}\"");
          break;
        }
      }
    }
    return errors;
  }

  /** @return kube's name of {@code action}: {@code DoNotSchedule} or {@code ScheduleAnyway} */
  static String apiName(WhenUnsatisfiable action) {
    if (action == null) {
      return "";
    }
    return action == WhenUnsatisfiable.DO_NOT_SCHEDULE ? "DoNotSchedule" : "ScheduleAnyway";
  }
}

package io.kubesched.samples.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Keeps new pods off nodes the platform is draining: a node whose label {@link DrainingArgs#label()} has one of
 * {@link DrainingArgs#values()} is refused, so that pods created while a node is emptied (for an upgrade, a
 * retirement) do not land on it only to be evicted again. Cordoning does the same for every scheduler, but drain
 * tooling often labels a node well before it cordons it.
 *
 * <p>The refusal is unresolvable: evicting pods from the node would not help, so preemption does not try there. A
 * pod every node refuses stays Pending with {@code node(s) were being drained} in its FailedScheduling event.
 * Pure and thread-safe.
 */
public final class AvoidDrainingNodes implements Filter {

  /** The name the configuration enables it by. */
  public static final String NAME = "AvoidDrainingNodes";

  /**
   * Why a node was refused, as data.
   *
   * @param label the drain label
   * @param value its value on the node
   */
  public record NodeDraining(String label, String value) implements Reason {
    @Override
    public String message() {
      return "node(s) were being drained";
    }
  }

  private final DrainingArgs args;

  /** @param args which label and values mean "being drained" */
  public AvoidDrainingNodes(DrainingArgs args) {
    this.args = Objects.requireNonNull(args, "args");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return draining(node.labels())
        .<FilterResult>map(reason -> FilterResult.unresolvable(reason))
        .orElse(FilterResult.fit());
  }

  /**
   * The rule itself, a function of the node's labels only.
   *
   * @return why a node with {@code labels} is being drained; empty if it is not
   */
  public Optional<NodeDraining> draining(Map<String, String> labels) {
    var value = labels.get(args.label());
    return value != null && args.values().contains(value)
        ? Optional.of(new NodeDraining(args.label(), value))
        : Optional.empty();
  }

  @Override
  public String toString() {
    return NAME + args;
  }
}

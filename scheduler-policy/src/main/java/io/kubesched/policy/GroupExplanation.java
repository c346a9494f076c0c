package io.kubesched.policy;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.Decision;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * Why {@link GroupPlacement#place} decides what it does for a pod group now: each pending member in the order
 * tried, with the node it would go to or why it does not fit (its {@link Explanation} on the snapshot holding
 * the members that fit before it), the counts, the {@code minResources} check, and the verdict with its
 * message. Made by {@link Policy#explainGroup}; immutable.
 *
 * @param group the group
 * @param placed how many of its members were already assumed or bound
 * @param nodeCount how many nodes the snapshot has (what the members' messages count)
 * @param members each pending member, in the order given, the ones never tried included
 * @param minResources coscheduling's {@code minResources} check; empty if the group has no {@code
 *     minResources} or the member count already ruled the group out
 * @param decision what {@link GroupPlacement#place} decides with the same policy on the same snapshot
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record GroupExplanation(
    PodGroup group,
    int placed,
    int nodeCount,
    List<Member> members,
    Optional<ResourceCheck> minResources,
    GroupDecision decision) {

  public GroupExplanation {
    members = List.copyOf(members);
  }

  /** How a member came out of the trial. */
  public enum Outcome {
    /** It fits: it would be bound to its node, and the members after it see it there. */
    FITS("fits"),
    /** No node fits it (its own decision says why). */
    DOES_NOT_FIT("does not fit"),
    /** A node fits it only with volumes bound first, which group members do not do yet. */
    NEEDS_VOLUMES("needs volumes"),
    /** The trial ended before it: the group could no longer reach its minimum, or lacked {@code minResources}. */
    NOT_TRIED("not tried");

    private final String text;

    Outcome(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /**
   * One pending member.
   *
   * @param pod the member
   * @param outcome how it came out
   * @param decision its decision: a {@link Decision.Bind} when it fits; otherwise the {@link
   *     Decision.Unschedulable} it would be requeued with (for a member never tried, one stating the group's
   *     message)
   * @param explanation the policy's explanation of its decision, on the snapshot holding the members that fit
   *     before it; empty for a member never tried
   */
  public record Member(PodInfo pod, Outcome outcome, Decision decision, Optional<Explanation> explanation) {

    /** @return the node it would be bound to; empty unless it fits */
    public Optional<String> node() {
      return decision instanceof Decision.Bind bind && outcome == Outcome.FITS
          ? Optional.of(bind.nodeName())
          : Optional.empty();
    }
  }

  /**
   * coscheduling's {@code minResources} check: the resources the group needs free in the cluster against
   * those the nodes have free, summed over all nodes.
   *
   * @param required the group's {@code minResources}, with {@code pods} set to its {@code minMember}
   * @param free the free resources summed over the nodes, the group's own placed members counted as free
   * @param gap what {@code free} lacks of {@code required}, per resource; {@link Resources#ZERO} if nothing
   */
  public record ResourceCheck(Resources required, Resources free, Resources gap) {

    /** @return whether the cluster has the group's {@code minResources} free */
    public boolean satisfied() {
      return gap.equals(Resources.ZERO);
    }

    /**
     * @return the group's message when the check fails, in coscheduling's words: {@code resource gap: } and
     *     each missing resource with its amount, for example {@code resource gap: cpu 1500m, memory 2Gi, pods 1}
     */
    public String message() {
      return "resource gap: " + describe(gap);
    }
  }

  /** @return the group's minimum */
  public int minMember() {
    return group.minMember();
  }

  /** @return whether the group is placed ({@link GroupDecision.Placed}) */
  public boolean isPlaced() {
    return decision instanceof GroupDecision.Placed;
  }

  /** @return how many pending members fit */
  public int fitted() {
    return count(Outcome.FITS);
  }

  /** @return how many pending members were tried */
  public int tried() {
    return members.size() - count(Outcome.NOT_TRIED);
  }

  /** @return how many pending members were never tried */
  public int notTried() {
    return count(Outcome.NOT_TRIED);
  }

  /**
   * @return the group's message when it is not placed, the one {@link GroupDecision.Unschedulable#message()}
   *     gives (for example {@code minCount (6) cannot be satisfied: 4 scheduled, 0 remaining}); empty when it is
   *     placed
   */
  public String message() {
    return decision instanceof GroupDecision.Unschedulable unschedulable ? unschedulable.message() : "";
  }

  /** @return the member of this uid, if it is pending */
  public Optional<Member> member(String uid) {
    return members.stream().filter(m -> m.pod().uid().equals(uid)).findFirst();
  }

  private int count(Outcome outcome) {
    int count = 0;
    for (var member : members) {
      if (member.outcome() == outcome) {
        count++;
      }
    }
    return count;
  }

  /**
   * Renders the verdict, the counts, the {@code minResources} check and one row per member: its outcome and
   * node, or the message it would be requeued with. {@link #toTable()} adds each tried member's own
   * explanation.
   */
  @Override
  public String toString() {
    var text = new StringBuilder();
    text.append("pod group ").append(group.key()).append(": ");
    if (isPlaced()) {
      text.append("placed: ")
          .append(placed + fitted())
          .append(" of minCount ")
          .append(minMember())
          .append(" (")
          .append(placed)
          .append(" placed before, ")
          .append(fitted())
          .append(" fit now)");
    } else {
      text.append("unschedulable: ").append(message());
    }
    text.append('\n');
    text.append("members: ")
        .append(members.size())
        .append(" pending, ")
        .append(tried())
        .append(" tried, ")
        .append(fitted())
        .append(" fit, ")
        .append(placed)
        .append(" placed before, minCount ")
        .append(minMember())
        .append('\n');
    minResources.ifPresent(check -> text.append("minResources: required ")
        .append(describe(check.required()))
        .append("; free ")
        .append(describe(check.free()))
        .append(check.satisfied() ? "; satisfied" : "; " + check.message())
        .append('\n'));
    var rows = new ArrayList<List<String>>();
    rows.add(List.of("#", "MEMBER", "OUTCOME", "NODE OR REASON"));
    for (int i = 0; i < members.size(); i++) {
      var member = members.get(i);
      var detail =
          member.decision() instanceof Decision.Unschedulable unschedulable
              ? unschedulable.message(nodeCount)
              : ((Decision.Bind) member.decision()).nodeName();
      rows.add(List.of(String.valueOf(i + 1), member.pod().key(), member.outcome().toString(), detail));
    }
    text.append(Texts.table(rows));
    return text.toString();
  }

  /** Renders {@link #toString()} followed by each tried member's {@link Explanation#toTable()}. */
  public String toTable() {
    var text = new StringBuilder(toString());
    for (var member : members) {
      member.explanation().ifPresent(explanation -> text.append('\n').append(explanation.toTable()));
    }
    return text.toString();
  }

  /**
   * Each non-zero resource with its amount, as kube writes quantities: {@code cpu 1500m, memory 2Gi,
   * ephemeral-storage 10Gi, pods 3, nvidia.com/gpu 2}; {@code nothing} if all are zero.
   */
  static String describe(Resources resources) {
    var parts = new ArrayList<String>();
    if (resources.milliCpu() != 0) {
      parts.add("cpu " + Texts.cpu(resources.milliCpu()));
    }
    if (resources.memory() != 0) {
      parts.add("memory " + Texts.bytes(resources.memory()));
    }
    if (resources.ephemeralStorage() != 0) {
      parts.add("ephemeral-storage " + Texts.bytes(resources.ephemeralStorage()));
    }
    if (resources.pods() != 0) {
      parts.add("pods " + resources.pods());
    }
    for (Map.Entry<String, Long> entry : new TreeMap<>(resources.extended()).entrySet()) {
      var amount = entry.getKey().startsWith("hugepages-") ? Texts.bytes(entry.getValue()) : entry.getValue().toString();
      parts.add(entry.getKey() + " " + amount);
    }
    return parts.isEmpty() ? "nothing" : String.join(", ", parts);
  }
}

package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What a {@link Filter} says of one pod on one node: a closed set of outcomes, with kube-scheduler's codes.
 */
@API(status = STABLE, since = "0.1.0")
public sealed interface FilterResult {

  /** kube-scheduler's status codes for a filter, and what the {@link io.kubesched.policy.Policy} does after each. */
  enum Code {
    /** The pod may run on the node: the next filter is asked. */
    SUCCESS,
    /** The pod does not fit the node now, but could if other pods left it (preemption could help). */
    UNSCHEDULABLE,
    /** The pod does not fit the node, and removing pods from the node would not change that. */
    UNSCHEDULABLE_AND_UNRESOLVABLE,
    /**
     * The filter could not decide: the pod is not placed in this attempt and is retried with backoff.
     * Never used for an expected rejection.
     */
    ERROR
  }

  /** @return the outcome's code */
  Code code();

  /** @return whether the pod fits the node */
  default boolean fits() {
    return code() == Code.SUCCESS;
  }

  /** @return the outcome that the pod fits */
  static Fit fit() {
    return Fit.INSTANCE;
  }

  /**
   * @return a rejection that other pods leaving the node could resolve
   * @throws IllegalArgumentException if {@code reasons} is empty
   */
  static Rejected unschedulable(Reason... reasons) {
    return new Rejected(Code.UNSCHEDULABLE, List.of(reasons));
  }

  /**
   * @return a rejection that no change to the node's pods resolves
   * @throws IllegalArgumentException if {@code reasons} is empty
   */
  static Rejected unresolvable(Reason... reasons) {
    return new Rejected(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(reasons));
  }

  /** @return the outcome that the filter could not decide, with why */
  static Failed error(String message) {
    return new Failed(message);
  }

  /** The pod fits the node. */
  record Fit() implements FilterResult {
    private static final Fit INSTANCE = new Fit();

    @Override
    public Code code() {
      return Code.SUCCESS;
    }
  }

  /**
   * The pod does not fit the node.
   *
   * @param code {@link Code#UNSCHEDULABLE} or {@link Code#UNSCHEDULABLE_AND_UNRESOLVABLE}
   * @param reasons why, at least one
   */
  record Rejected(Code code, List<Reason> reasons) implements FilterResult {

    /** @throws IllegalArgumentException if the code is not a rejection's or there is no reason */
    public Rejected {
      if (code != Code.UNSCHEDULABLE && code != Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        throw new IllegalArgumentException("a rejection's code must be UNSCHEDULABLE or "
            + "UNSCHEDULABLE_AND_UNRESOLVABLE, was " + code);
      }
      if (reasons.isEmpty()) {
        throw new IllegalArgumentException("a rejection needs at least one reason");
      }
      reasons = List.copyOf(reasons);
    }
  }

  /**
   * The filter could not decide.
   *
   * @param message why, naming the pod or node and the value it could not handle
   */
  record Failed(String message) implements FilterResult {
    @Override
    public Code code() {
      return Code.ERROR;
    }
  }
}

package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;

/**
 * The run-time cost limit of one evaluation, kube's {@code resourceapi.CELSelectorExpressionMaxCost} (1,000,000).
 * cel-java has no cost tracking, so the cost is approximated as cel-go's is at its base: one unit per evaluated
 * expression node, comprehension steps included, plus one per 10 characters of a string or element of a list a
 * step yields (cel-go charges string and list functions by size). It stops a runaway expression with cel-go's
 * message where cel-go would, within that approximation; it does not reproduce cel-go's exact count. One per
 * evaluation, on the evaluating thread.
 */
final class CostTracker implements CelEvaluationListener {

  /** kube's {@code resourceapi.CELSelectorExpressionMaxCost}. */
  static final long MAX_COST = 1_000_000;

  /** cel-go's message when the limit is reached. */
  static final String LIMIT_EXCEEDED = "operation cancelled: actual cost limit exceeded";

  private long cost;

  @Override
  public void callback(CelExpr expr, Object result) {
    cost += 1;
    if (result instanceof String text) {
      cost += text.length() / 10;
    } else if (result instanceof java.util.Collection<?> values) {
      cost += values.size() / 10;
    }
    if (cost > MAX_COST) {
      throw new LimitExceeded();
    }
  }

  /** @return whether {@code error} was caused by the limit (cel-java may wrap what the listener throws) */
  static boolean exceeded(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof LimitExceeded) {
        return true;
      }
    }
    return false;
  }

  /** Thrown from the listener to stop the evaluation. */
  static final class LimitExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimitExceeded() {
      super(LIMIT_EXCEEDED, null, false, false);
    }
  }
}

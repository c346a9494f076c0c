package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A pod's toleration of taints, with Kubernetes' matching rules.
 *
 * @param key the taint key it matches; empty matches every key (only with {@link Operator#EXISTS})
 * @param operator how the value is compared
 * @param value the value for {@link Operator#EQUAL}; empty for {@link Operator#EXISTS}
 * @param effect the effect it matches; {@code null} matches every effect
 */
@API(status = STABLE, since = "0.1.0")
public record Toleration(String key, Operator operator, String value, @Nullable TaintEffect effect) {

  /** How a toleration compares a taint's value. */
  public enum Operator {
    /** The taint's value must equal the toleration's. */
    EQUAL,
    /** Any value matches. */
    EXISTS
  }

  /** @return the effect this toleration is limited to; empty when it matches every effect */
  public Optional<TaintEffect> effectFilter() {
    return Optional.ofNullable(effect);
  }

  /**
   * Whether this toleration tolerates {@code taint}, as Kubernetes' {@code ToleratesTaint}: the effect
   * matches (or is unset), the key matches (or is empty), and the operator accepts the value.
   */
  public boolean tolerates(Taint taint) {
    if (effect != null && effect != taint.effect()) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return operator == Operator.EXISTS || value.equals(taint.value());
  }
}

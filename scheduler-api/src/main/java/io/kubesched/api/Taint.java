package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A node taint.
 *
 * @param key the taint key, never empty
 * @param value the taint value, empty if none
 * @param effect what the taint does
 */
@API(status = STABLE, since = "0.1.0")
public record Taint(String key, String value, TaintEffect effect) {

  /** @throws IllegalArgumentException if {@code key} is empty */
  public Taint {
    if (key.isEmpty()) {
      throw new IllegalArgumentException("taint key must not be empty");
    }
  }

  @Override
  public String toString() {
    return "{" + key + (value.isEmpty() ? "" : ": " + value) + "}";
  }
}

package io.kubesched.api;

/**
 * A node taint.
 *
 * @param key the taint key, never empty
 * @param value the taint value, empty if none
 * @param effect what the taint does
 */
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

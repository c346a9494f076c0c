package io.kubesched.informer;

import io.kubesched.binder.BindMode;
import java.time.Duration;

/**
 * How a {@link PodController} runs.
 *
 * @param schedulerName the {@code spec.schedulerName} of the pods to place
 * @param bindMode how bindings are written (the fake cluster needs {@link BindMode#SET_NODE_NAME})
 * @param bindTimeout how long one binding request may take
 * @param initialBackoff how long a pod waits after its first failed attempt
 * @param maxBackoff the longest a pod waits between attempts
 * @param syncTimeout how long {@link PodController#start()} waits for the first full list of nodes and pods
 */
public record ControllerSettings(
    String schedulerName,
    BindMode bindMode,
    Duration bindTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration syncTimeout) {

  /** @throws IllegalArgumentException if the name is blank or a duration is not positive */
  public ControllerSettings {
    if (schedulerName.isBlank()) {
      throw new IllegalArgumentException("schedulerName must not be blank");
    }
    requirePositive("bindTimeout", bindTimeout);
    requirePositive("initialBackoff", initialBackoff);
    requirePositive("maxBackoff", maxBackoff);
    requirePositive("syncTimeout", syncTimeout);
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxBackoff " + maxBackoff + " must not be shorter than initialBackoff " + initialBackoff);
    }
  }

  private static void requirePositive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}

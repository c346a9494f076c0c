package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Micrometer is optional: the facade, and everything it pulls in, runs without it. This module's tests run
 * whole controllers with metrics (see {@code SchedulingLoopTest}) on a class path that this test proves has
 * no Micrometer on it; {@code scheduler-micrometer} is the one module that brings it.
 */
class WithoutMicrometerTest {

  @Test
  void micrometer_is_not_on_the_facades_class_path() {
    assertThrows(
        ClassNotFoundException.class,
        () -> Class.forName("io.micrometer.core.instrument.MeterRegistry"),
        "a dependency of the facade brings Micrometer with it");
  }
}

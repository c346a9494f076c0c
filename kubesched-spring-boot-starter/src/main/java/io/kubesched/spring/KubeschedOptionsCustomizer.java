package io.kubesched.spring;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.facade.Options;
import org.apiguardian.api.API;

/**
 * Changes the {@link Options} the auto-configured {@code Client} is made with, after the {@code kubesched.*}
 * properties are applied: for a setting the properties do not cover (a fake cluster in tests, write limits,
 * pod group sources, ...). Every customizer bean is applied, in {@code @Order}; called once, on the thread
 * that creates the application context.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@FunctionalInterface
public interface KubeschedOptionsCustomizer {

  /** Changes {@code builder}; the last setting made wins. */
  void customize(Options.Builder builder);
}

package io.kubesched.server;

import io.kubesched.policy.config.SchedulerConfiguration;
import java.util.Objects;

/**
 * {@code /configz}, as kube-scheduler answers it: a JSON object whose one member, {@code componentconfig}, is the
 * effective KubeSchedulerConfiguration ({@code kubescheduler.config.k8s.io/v1}, as {@link
 * SchedulerConfiguration#toJson()} writes it). Immutable; the body is written once.
 */
final class ConfigzRoute implements Route {

  /** The path kube-scheduler serves it on. */
  static final String PATH = "/configz";

  private final String body;

  /** @param configuration the configuration the server runs with, flags applied */
  ConfigzRoute(SchedulerConfiguration configuration) {
    Objects.requireNonNull(configuration, "configuration");
    this.body = "{\"componentconfig\":" + configuration.toJson() + "}";
  }

  @Override
  public Response get(Request request) {
    return new Response(200, "application/json", body);
  }
}

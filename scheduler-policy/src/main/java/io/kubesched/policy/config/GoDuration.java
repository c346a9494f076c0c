package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Durations as Kubernetes writes them ({@code 15s}, {@code 1m30s}, {@code 300ms}): Go's {@code time.ParseDuration}
 * and {@code Duration.String}, which configuration files and kube's command-line flags use. Our own, as no Java
 * library reads Go's format. Pure.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class GoDuration {

  private GoDuration() {}

  /**
   * @param text a sign, then numbers with units ({@code ns}, {@code us}, {@code ms}, {@code s}, {@code m}, {@code
   *     h}), or {@code 0} alone
   * @return the duration; empty if {@code text} is not one Go reads, or is larger than Go's (about 292 years)
   */
  public static Optional<Duration> parse(String text) {
    return Optional.ofNullable(ConfigReader.goDuration(text));
  }

  /** @return {@code duration} as Go writes it: {@code 0s}, {@code 15s}, {@code 1m30s}, {@code 1h0m0.5s} */
  public static String format(Duration duration) {
    return ConfigReader.goString(duration);
  }
}

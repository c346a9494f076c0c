package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Properties;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Which build of this library is running: its version and the git commit it was built from, as the build
 * wrote them into {@code build-info.properties} beside this class. Every module of one release carries the
 * same version ({@code kubesched-bom} keeps them together), so this one stands for all of them. The start log
 * line, the {@code kubesched_build_info} metric and the server's {@code --version} show it.
 *
 * <p>Immutable; {@link #current()} is read once and never throws.
 *
 * @param version the project version, such as {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}; {@value #UNKNOWN}
 *     if the build wrote none
 * @param revision the abbreviated git commit the build was made from; {@value #UNKNOWN} when built without
 *     git or outside a repository (from a source archive, unless the build was given {@code
 *     -Dkubesched.revision})
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record BuildInfo(String version, String revision) {

  /** What a part the build did not write reads as. */
  public static final String UNKNOWN = "unknown";

  private static final BuildInfo CURRENT = load();

  /** @throws IllegalArgumentException if {@code version} or {@code revision} is blank */
  public BuildInfo {
    requireNonBlank("version", version);
    requireNonBlank("revision", revision);
  }

  /** @return this library's build, read from its resource when this class was initialized */
  public static BuildInfo current() {
    return CURRENT;
  }

  private static BuildInfo load() {
    try (var in = BuildInfo.class.getResourceAsStream("build-info.properties")) {
      return read(in);
    } catch (IOException | IllegalArgumentException e) {
      // A malformed resource must not stop a scheduler from starting: it only says less about itself.
      return new BuildInfo(UNKNOWN, UNKNOWN);
    }
  }

  /**
   * Reads what the build wrote; a key that is missing, blank or left unfiltered ({@code ${…}}, a build that
   * skipped the filtering) reads as {@value #UNKNOWN}.
   *
   * @param in the resource, or {@code null} if there is none
   * @throws IOException if {@code in} cannot be read
   */
  static BuildInfo read(@Nullable InputStream in) throws IOException {
    var properties = new Properties();
    if (in != null) {
      properties.load(in);
    }
    return new BuildInfo(value(properties, "version"), value(properties, "revision"));
  }

  private static String value(Properties properties, String key) {
    var value = properties.getProperty(key, "").strip();
    return value.isEmpty() || value.contains("${") ? UNKNOWN : value;
  }

  private static void requireNonBlank(String name, String value) {
    if (Objects.requireNonNull(value, name).isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank: '" + value + "'");
    }
  }
}

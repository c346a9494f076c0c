package io.kubesched.fabric8;

import io.kubesched.api.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The fabric8 line this build was made for, and a check that the class path holds it. Maven mixes lines
 * without a word (a consumer's BOM on fabric8 7 beside this library's 8 gave {@code kubernetes-client} 7.5.2
 * with {@code kubernetes-client-api} 8.0.0), and the program then dies at its first request with a {@code
 * NoSuchMethodError}; checked when a client is created, the mistake is named instead.
 */
public final class Fabric8Line {

  /** The fabric8 modules the library runs on: every one must be of the line built for, all of one version. */
  static final List<String> MODULES =
      List.of("kubernetes-client-api", "kubernetes-client", "kubernetes-httpclient-jdk", "kubernetes-model-core");

  /**
   * The oldest minor version of each line the library runs on: 7.4 (the line-7 seam is built against 7.5 and reads
   * what 7.4 and 7.5 lack from additional properties; the library's unit tests pass on 7.4.0); 7.3 and older were
   * never tried.
   */
  static final Map<String, Integer> OLDEST_MINOR = Map.of("7", 4, "8", 0);

  private static final Map<String, String> JACKSON = Map.of("7", "Jackson 2", "8", "Jackson 3");

  private static final Map<String, String> JACKSON_PACKAGE =
      Map.of("7", "com.fasterxml.jackson.databind", "8", "tools.jackson.databind");

  private Fabric8Line() {}

  /**
   * @throws ConfigurationException naming what was found, what is needed and the BOM to import, if the class
   *     path mixes fabric8 versions or holds another line than this build's, or lacks its Jackson
   */
  public static void require() {
    var loader = Fabric8Line.class.getClassLoader();
    var compat = Fabric8Compat.get();
    problem(compat.builtFor(), found(loader), present(compat.jacksonMapperClass(), loader)).ifPresent(message -> {
      throw new ConfigurationException(message);
    });
  }

  /**
   * @param builtFor the fabric8 version this build was compiled against
   * @param found each fabric8 module's version on the class path (a module without {@code pom.properties},
   *     such as one shaded away, is left out)
   * @param jackson whether the Jackson this line's fabric8 uses is on it
   * @return what is wrong, as one message for the user; empty if nothing is
   */
  static Optional<String> problem(String builtFor, Map<String, String> found, boolean jackson) {
    var line = major(builtFor);
    var versions = found.values().stream().distinct().sorted().toList();
    boolean mixed = versions.size() > 1;
    boolean otherLine = found.values().stream().anyMatch(v -> !major(v).equals(line));
    boolean tooOld = found.values().stream().anyMatch(v -> major(v).equals(line) && minor(v) < oldestMinor(line));
    if (!mixed && !otherLine && !tooOld && jackson) {
      return Optional.empty();
    }
    var what = found.isEmpty()
        ? "no fabric8 module versions"
        : found.entrySet().stream().map(e -> "io.fabric8:" + e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", "));
    var jacksonName = JACKSON.getOrDefault(line, "its Jackson");
    return Optional.of(
        "this kubesched was built for fabric8 kubernetes-client " + builtFor + " (the " + line + ".x line, "
            + line + "." + oldestMinor(line) + " or newer, " + jacksonName + "), but the class path has " + what
            + (jackson ? "" : " and no " + jacksonName + " (" + JACKSON_PACKAGE.getOrDefault(line, "?") + ")")
            + (mixed ? ": fabric8's modules must all be of one version" : "")
            + ". Import io.fabric8:kubernetes-client-bom:" + builtFor
            + " in <dependencyManagement> before any other BOM that manages fabric8 (a platform's or an operator"
            + " SDK's), or use the kubesched artifacts built for the fabric8 line your application is on: import"
            + " io.kubesched:kubesched-bom-fabric8-7 for fabric8 7 (it imports fabric8's BOM too), io.kubesched:"
            + "kubesched-bom for fabric8 8");
  }

  /** The fabric8 version this build was compiled against, as the build wrote it. */
  static String builtFor() {
    try (InputStream in = Fabric8Line.class.getResourceAsStream("fabric8-line.properties")) {
      var properties = new Properties();
      if (in != null) {
        properties.load(in);
      }
      var version = properties.getProperty("fabric8.version", "");
      if (version.isBlank() || version.contains("${")) {
        throw new IllegalStateException("fabric8-line.properties was not filtered by the build: '" + version + "'");
      }
      return version;
    } catch (IOException e) {
      throw new UncheckedIOException("reading fabric8-line.properties", e);
    }
  }

  /** Each fabric8 module's version that {@code loader} sees, from the {@code pom.properties} Maven puts in its jar. */
  static Map<String, String> found(ClassLoader loader) {
    var found = new TreeMap<String, String>();
    for (var module : MODULES) {
      try (InputStream in = loader.getResourceAsStream("META-INF/maven/io.fabric8/" + module + "/pom.properties")) {
        if (in != null) {
          var properties = new Properties();
          properties.load(in);
          var version = properties.getProperty("version");
          if (version != null && !version.isBlank()) {
            found.put(module, version.strip());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading the version of io.fabric8:" + module, e);
      }
    }
    return found;
  }

  static boolean present(String className, ClassLoader loader) {
    try {
      Class.forName(className, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static int oldestMinor(String line) {
    return OLDEST_MINOR.getOrDefault(line, 0);
  }

  private static String major(String version) {
    int dot = version.indexOf('.');
    return dot < 0 ? version : version.substring(0, dot);
  }

  /** The minor version, or a large number where it cannot be read (no complaint about what is not understood). */
  private static int minor(String version) {
    var parts = version.split("[.-]");
    try {
      return parts.length < 2 ? Integer.MAX_VALUE : Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }
}

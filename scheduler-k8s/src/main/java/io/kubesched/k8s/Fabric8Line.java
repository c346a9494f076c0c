package io.kubesched.k8s;

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

  private Fabric8Line() {}

  /**
   * @throws ConfigurationException naming what was found, what is needed and the BOM to import, if the class
   *     path mixes fabric8 versions or holds another line than this build's, or lacks its Jackson
   */
  public static void require() {
    var loader = Fabric8Line.class.getClassLoader();
    problem(builtFor(), found(loader), jacksonPresent(loader)).ifPresent(message -> {
      throw new ConfigurationException(message);
    });
  }

  /**
   * @param builtFor the fabric8 version this build was compiled against
   * @param found each fabric8 module's version on the class path (a module without {@code pom.properties},
   *     such as one shaded away, is left out)
   * @param jackson3 whether Jackson 3 ({@code tools.jackson.databind}), which fabric8 8 uses, is on it
   * @return what is wrong, as one message for the user; empty if nothing is
   */
  static Optional<String> problem(String builtFor, Map<String, String> found, boolean jackson3) {
    var line = major(builtFor);
    var versions = found.values().stream().distinct().sorted().toList();
    boolean mixed = versions.size() > 1;
    boolean otherLine = found.values().stream().anyMatch(v -> !major(v).equals(line));
    boolean noJackson = line.equals("8") && !jackson3;
    if (!mixed && !otherLine && !noJackson) {
      return Optional.empty();
    }
    var what = found.isEmpty()
        ? "no fabric8 module versions"
        : found.entrySet().stream().map(e -> "io.fabric8:" + e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", "));
    return Optional.of(
        "this kubesched was built for fabric8 kubernetes-client " + builtFor + " (the " + line + ".x line"
            + (line.equals("8") ? ", Jackson 3" : ", Jackson 2") + "), but the class path has " + what
            + (noJackson ? " and no Jackson 3 (tools.jackson.databind)" : "")
            + (mixed ? ": fabric8's modules must all be of one version" : "")
            + ". Import io.fabric8:kubernetes-client-bom:" + builtFor
            + " in <dependencyManagement> before any other BOM that manages fabric8 (a platform's or an operator"
            + " SDK's; kubesched-bom manages kubesched's own artifacts only), or use the kubesched artifacts built"
            + " for the fabric8 line your application is on");
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

  private static boolean jacksonPresent(ClassLoader loader) {
    try {
      Class.forName("tools.jackson.databind.ObjectMapper", false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static String major(String version) {
    int dot = version.indexOf('.');
    return dot < 0 ? version : version.substring(0, dot);
  }
}

package io.kubesched.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.zip.ZipFile;

/** Which fabric8 line a sample's runnable jar was packed with, so that each sample's test says which it ran. */
final class FabricLines {

  private FabricLines() {}

  /** The {@code fabric8.version} of the properties file {@code entry} in the (shaded) {@code jar}. */
  static String builtFor(Path jar, String entry) throws IOException {
    try (var zip = new ZipFile(jar.toFile())) {
      var found = zip.getEntry(entry);
      if (found == null) {
        throw new AssertionError(jar + " has no " + entry);
      }
      var properties = new Properties();
      try (var in = zip.getInputStream(found)) {
        properties.load(in);
      }
      return properties.getProperty("fabric8.version", "");
    }
  }

  /** The names of the jars nested in a Spring Boot jar ({@code BOOT-INF/lib/…}). */
  static List<String> nestedJars(Path jar) throws IOException {
    try (var zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(e -> e.getName()).filter(name -> name.startsWith("BOOT-INF/lib/")).toList();
    }
  }
}

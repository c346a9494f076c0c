package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The class-data-sharing archive the library's scheduler starts with, as in the server's image: the classes the
 * image's list names ({@code scheduler-server/src/image/classes.lst}, which {@code app-cds.sh} archives there),
 * archived by this benchmark's Java for its own jar, with the scheduler's JVM flags. Made once per invocation,
 * before the first run, in the work directory.
 */
final class ClassDataSharing {

  /** The image's class list, relative to the project. */
  static final Path CLASS_LIST = Path.of("scheduler-server", "src", "image", "classes.lst");

  private ClassDataSharing() {}

  /**
   * Archives the class list's classes for {@code jar}.
   *
   * @param jvmFlags the scheduler's JVM flags (the archive records the collector and compressed pointers)
   * @return the flag that maps the archive, or null (said on {@code log}) when the project has no class list or the
   *     JVM could not make the archive: the scheduler then starts without one
   */
  static @Nullable String archive(Path project, Path jar, List<String> jvmFlags, Path work, PrintStream log)
      throws IOException, InterruptedException {
    var list = project.resolve(CLASS_LIST);
    if (!Files.isRegularFile(list)) {
      log.printf("no class list at %s: kubesched starts without a class-data-sharing archive%n", list);
      return null;
    }
    Files.createDirectories(work); // --work may name one not made yet: the archive's log is its first file
    var archive = work.resolve("kubesched.jsa").toAbsolutePath();
    var output = work.resolve("kubesched-cds.log");
    var command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
    command.addAll(jvmFlags);
    command.addAll(List.of(
        "-Xshare:dump",
        "-XX:SharedClassListFile=" + list.toAbsolutePath(),
        "-XX:SharedArchiveFile=" + archive,
        "-cp",
        jar.toString()));
    int status = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start().waitFor();
    if (status != 0) {
      var lines = Files.readAllLines(output, StandardCharsets.UTF_8);
      log.printf("the class-data-sharing archive failed (exit %d): %s; kubesched starts without one%n", status,
          String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size())));
      return null;
    }
    log.printf("class-data-sharing archive %s (%d MiB) of %s%n", archive, Files.size(archive) >> 20, list);
    return "-XX:SharedArchiveFile=" + archive;
  }
}

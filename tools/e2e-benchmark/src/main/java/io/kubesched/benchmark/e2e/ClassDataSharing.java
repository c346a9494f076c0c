package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The class-data-sharing archive the library's scheduler starts with: the classes it loaded in a training run, as
 * the image's archive holds the classes its server loaded ({@code scheduler-server/src/image/app-cds.sh}) and as an
 * application embedding the library makes one ({@code docs/operations.md}). The training is one unmeasured run of
 * the {@link Workload#SMOKE smoke} workload with the scheduler's JVM flags and {@code -XX:DumpLoadedClassList}; the
 * archive is then made from that list by this benchmark's Java for its own jar, with the same flags. Made once per
 * invocation, before the first run, in the work directory. Classes that only other workloads load (preemption's,
 * gangs', claims') come from their jars.
 *
 * <p>Not the image's list: that one names every class any of {@code ServerIT}'s servers loaded, about 1 300 of which
 * this process never loads (fabric8 kinds it does not read, the JMX beans of the server's metrics), and JDK 17
 * relocates the whole archive at start, so every archived class is resident, loaded or not: about 10 MiB more peak
 * RSS at 500 nodes (151–155 against 141–145 MiB, five runs each, alternating, 2026-12-04).
 */
final class ClassDataSharing {

  /** The archive's file name in the work directory. */
  static final String ARCHIVE = "kubesched-trained.jsa";

  /** Warm-up pods of the training run, at most: the same code paths as the measured ones, a few seconds. */
  private static final int TRAINING_WARMUP = 20;

  private ClassDataSharing() {}

  /**
   * Trains and archives ({@link #train}, then {@link #archive}).
   *
   * @return the flag that maps the archive, or null (said on {@code log}) when either step failed: the scheduler
   *     then starts without one
   */
  static @Nullable String trainAndArchive(BenchmarkRun.Settings settings, PrintStream log)
      throws IOException, InterruptedException {
    var list = train(settings, log);
    return list == null ? null : archive(list, settings.jar(), settings.kubeschedJvmFlags(), settings.workDir(), log);
  }

  /**
   * Runs the smoke workload once, unmeasured, with the scheduler writing the classes it loads.
   *
   * @return the class list, or null (said on {@code log}) when the run failed
   */
  static @Nullable Path train(BenchmarkRun.Settings settings, PrintStream log) throws IOException, InterruptedException {
    var dir = settings.workDir().resolve("cds-training");
    Files.createDirectories(dir);
    var list = dir.resolve("kubesched.classlist").toAbsolutePath();
    var training =
        settings.unmeasured(dir, TRAINING_WARMUP).withKubeschedJvmFlag("-XX:DumpLoadedClassList=" + list);
    log.printf(
        "class-data-sharing training: the %s workload once, unmeasured, kubesched's loaded classes into %s%n",
        Workload.SMOKE.name(), list);
    try {
      new BenchmarkRun(training, Workload.SMOKE, Contestant.KUBESCHED, 1, 0, log).run();
    } catch (IOException | ExecutionException | RuntimeException e) {
      log.printf("the class-data-sharing training run failed (%s): kubesched starts without an archive%n", e);
      return null;
    }
    return list;
  }

  /**
   * Archives the classes {@code list} names for {@code jar}.
   *
   * @param list a class list as {@code -XX:DumpLoadedClassList} writes it
   * @param jvmFlags the scheduler's JVM flags (the archive records the collector and compressed pointers)
   * @return the flag that maps the archive, or null (said on {@code log}) when there is no list or the JVM could not
   *     make the archive: the scheduler then starts without one
   */
  static @Nullable String archive(Path list, Path jar, List<String> jvmFlags, Path work, PrintStream log)
      throws IOException, InterruptedException {
    if (!Files.isRegularFile(list)) {
      log.printf("no class list at %s: kubesched starts without a class-data-sharing archive%n", list);
      return null;
    }
    Files.createDirectories(work); // --work may name one not made yet: the archive's log is its first file
    var archive = work.resolve(ARCHIVE).toAbsolutePath();
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

package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataSharingTest {

  @TempDir Path lists;
  @TempDir Path work;
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(printed, true, StandardCharsets.UTF_8);

  /** A jar of the class path (JSpecify's), as the benchmark's own jar: CDS archives classes of jars only. */
  private static Path jar() throws Exception {
    return Path.of(Nullable.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** A class list as -XX:DumpLoadedClassList writes it: one binary name a line. */
  private Path classList(String... classes) throws Exception {
    return Files.write(lists.resolve("kubesched.classlist"), List.of(classes));
  }

  @Test
  void the_listed_classes_are_archived_for_the_jar_and_the_flag_maps_the_archive() throws Exception {
    var list = classList("java/lang/Object", "org/jspecify/annotations/Nullable");
    var flag = ClassDataSharing.archive(list, jar(), SchedulerProcess.KUBESCHED_JVM_FLAGS, work, log);
    var archive = work.resolve(ClassDataSharing.ARCHIVE).toAbsolutePath();
    assertEquals("-XX:SharedArchiveFile=" + archive, flag, printed.toString());
    assertTrue(Files.size(archive) > 0);
  }

  @Test
  void a_work_directory_not_made_yet_is_made() throws Exception {
    var list = classList("java/lang/Object");
    var notYet = work.resolve("not/yet");
    var flag = ClassDataSharing.archive(list, jar(), SchedulerProcess.KUBESCHED_JVM_FLAGS, notYet, log);
    assertEquals(
        "-XX:SharedArchiveFile=" + notYet.resolve(ClassDataSharing.ARCHIVE).toAbsolutePath(), flag, printed.toString());
  }

  @Test
  void without_a_class_list_the_scheduler_starts_without_an_archive_and_says_so() throws Exception {
    var none = lists.resolve("none.classlist");
    assertNull(ClassDataSharing.archive(none, jar(), SchedulerProcess.KUBESCHED_JVM_FLAGS, work, log));
    assertTrue(printed.toString().contains("no class list at "), printed.toString());
  }

  @Test
  void a_jvm_that_cannot_make_the_archive_is_reported_with_its_last_lines() throws Exception {
    var list = classList("java/lang/Object");
    assertNull(ClassDataSharing.archive(list, jar(), List.of("-XX:+NoSuchOption"), work, log));
    var text = printed.toString();
    assertTrue(text.contains("the class-data-sharing archive failed (exit 1)"), text);
    assertTrue(text.contains("NoSuchOption"), text);
  }
}

package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BuildInfoTest {

  @Test
  void the_build_writes_the_project_version() {
    var expected = System.getProperty("kubesched.test.projectVersion");
    assertTrue(expected != null && !expected.isBlank(), "surefire sets kubesched.test.projectVersion: " + expected);

    assertEquals(expected, BuildInfo.current().version());
  }

  @Test
  void the_build_writes_the_commit_it_was_made_from_or_unknown_without_git() {
    var written = System.getProperty("kubesched.test.revision", "");
    var revision = BuildInfo.current().revision();

    // Unset only when the plugin was skipped (-Dmaven.buildNumber.skip): then no commit was written.
    assertEquals(written.isEmpty() || written.startsWith("${") ? BuildInfo.UNKNOWN : written, revision);
    assertTrue(revision.matches("[0-9a-f]{7,40}") || revision.equals(BuildInfo.UNKNOWN), revision);
  }

  @Test
  void what_the_build_wrote_is_read_as_it_stands() throws IOException {
    assertEquals(new BuildInfo("1.2.3", "abc1234"), read("version=1.2.3\nrevision=abc1234\n"));
  }

  @Test
  void a_missing_resource_reads_as_unknown() throws IOException {
    assertEquals(new BuildInfo(BuildInfo.UNKNOWN, BuildInfo.UNKNOWN), BuildInfo.read(null));
  }

  @Test
  void a_key_missing_blank_or_left_unfiltered_reads_as_unknown() throws IOException {
    assertEquals(
        new BuildInfo(BuildInfo.UNKNOWN, BuildInfo.UNKNOWN), read("version=${project.version}\nrevision= \n"));
    assertEquals(new BuildInfo("1.2.3", BuildInfo.UNKNOWN), read("version=1.2.3\n"));
  }

  @Test
  void a_blank_part_is_refused() {
    var e = assertThrows(IllegalArgumentException.class, () -> new BuildInfo("1.2.3", " "));
    assertEquals("revision must not be blank: ' '", e.getMessage());
  }

  private static BuildInfo read(String text) throws IOException {
    return BuildInfo.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)));
  }
}

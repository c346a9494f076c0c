package io.kubesched.binder.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The pure parts of event writing: names, times, the note limit, the reporting controller's name. */
class EventRecorderTest {

  @Test
  void an_event_is_named_after_its_object_and_the_time_in_hex_nanoseconds() {
    assertEquals("a".repeat(251) + ".1", EventRecorder.eventName("a".repeat(251), 1L), "253 characters");
    assertEquals("web-0.18998b018cfa8315", EventRecorder.eventName("web-0", 0x18998b018cfa8315L));
  }

  @Test
  void a_name_that_would_be_too_long_or_invalid_becomes_a_uuid_as_in_client_go() {
    for (var objectName : new String[] {"a".repeat(252), "Upper"}) {
      var name = EventRecorder.eventName(objectName, 1L);
      assertEquals(name, UUID.fromString(name).toString(), objectName);
    }
  }

  @Test
  void event_times_have_microseconds_and_a_zulu_offset() {
    assertEquals("2026-03-04T05:06:07.000000Z", EventRecorder.microTime(Instant.parse("2026-03-04T05:06:07Z")));
    assertEquals("2026-03-04T05:06:07.123456Z",
        EventRecorder.microTime(Instant.parse("2026-03-04T05:06:07.123456999Z")));
  }

  @Test
  void a_note_of_exactly_the_limit_is_kept_and_one_byte_more_is_cut() {
    var exact = "x".repeat(1024);
    assertEquals(exact, SchedulingReporter.truncateNote(exact));
    var over = SchedulingReporter.truncateNote(exact + "y");
    assertEquals("x".repeat(1020) + " ...", over);
    assertEquals(1024, over.getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void a_note_is_never_cut_inside_a_character() {
    var emoji = "\uD83D\uDE00"; // four bytes in UTF-8
    var cut = SchedulingReporter.truncateNote("x".repeat(1018) + emoji.repeat(3));
    assertEquals("x".repeat(1018) + " ...", cut);
  }

  @Test
  void qualified_names_follow_kubernetes_rules() {
    assertTrue(SchedulingReporter.isQualifiedName("default-scheduler"));
    assertTrue(SchedulingReporter.isQualifiedName("example.com/Some_Name.1"));
    assertTrue(SchedulingReporter.isQualifiedName("a".repeat(63)));
    assertFalse(SchedulingReporter.isQualifiedName("a".repeat(64)));
    assertFalse(SchedulingReporter.isQualifiedName("example.com/"));
    assertFalse(SchedulingReporter.isQualifiedName("Example.com/x"));
    assertFalse(SchedulingReporter.isQualifiedName("_x"));
  }
}

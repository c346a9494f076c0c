package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTest {

  private static final String LIST =
      "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\",\"stage\":\"ResponseComplete\","
          + "\"requestURI\":\"/api/v1/pods?limit=500\",\"verb\":\"list\",\"user\":{\"username\":\""
          + AuditLog.USER + "\",\"groups\":[\"system:serviceaccounts\"]},\"responseStatus\":{\"code\":200}}";

  @Test
  void only_completed_lists_of_the_scheduler_count() {
    assertTrue(AuditLog.isSchedulerList(LIST));
    assertFalse(AuditLog.isSchedulerList(LIST.replace("\"verb\":\"list\"", "\"verb\":\"watch\"")));
    assertFalse(AuditLog.isSchedulerList(LIST.replace(AuditLog.USER, "admin")));
    assertFalse(AuditLog.isSchedulerList(LIST.replace("ResponseComplete", "ResponseStarted")));
  }

  @Test
  void lists_are_counted_from_a_mark(@TempDir Path directory) throws Exception {
    var log = new AuditLog(directory.resolve("audit.log"));
    assertEquals(0, log.mark());
    assertEquals(0, log.listsSince(0));
    Files.writeString(directory.resolve("audit.log"), LIST + "\n" + LIST + "\n");
    long mark = log.mark();
    Files.writeString(directory.resolve("audit.log"), LIST + "\n", java.nio.file.StandardOpenOption.APPEND);
    assertEquals(2, mark);
    assertEquals(1, log.listsSince(mark));
    assertEquals(3, log.listsSince(0));
  }
}

package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SchedulerProcessTest {

  /** The benchmark measures the JVM a user runs: every flag the image ships, and only a memory limit besides. */
  @Test
  void kubesched_runs_with_the_jvm_flags_the_image_ships() throws Exception {
    var pom = Files.readString(Path.of("..", "..", "scheduler-server", "pom.xml"));
    var property = Pattern.compile("<(server\\.jvm\\.[a-z]+)>([^<]+)</\\1>").matcher(pom);
    int shipped = 0;
    while (property.find()) {
      shipped++;
      assertTrue(SchedulerProcess.KUBESCHED_JVM_FLAGS.contains(property.group(2)),
          property.group(1) + " = " + property.group(2) + " is not among " + SchedulerProcess.KUBESCHED_JVM_FLAGS);
    }
    assertTrue(shipped >= 3, "scheduler-server's pom lists its JVM flags as server.jvm.* properties");
    assertEquals(shipped + 1, SchedulerProcess.KUBESCHED_JVM_FLAGS.size(), "one flag besides: the memory limit");
    assertTrue(SchedulerProcess.KUBESCHED_JVM_FLAGS.contains("-XX:MaxRAM=1g"));
  }
}

package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassHistogramTest {

  private static final String EARLIER = """
       num     #instances         #bytes  class name (module)
      -------------------------------------------------------
         1:         52012        4866544  [B (java.base@17.0.12)
         2:         50001        1200024  java.lang.String (java.base@17.0.12)
         3:          1000          64000  io.kubesched.engine.QueuedPod
      Total        103013        6130568
      """;

  private static final String LATER = """
       num     #instances         #bytes  class name (module)
      -------------------------------------------------------
         1:         62012        5866544  [B (java.base@17.0.12)
         2:         50001        1200024  java.lang.String (java.base@17.0.12)
         3:           500          32000  io.kubesched.engine.QueuedPod
         4:            10            640  io.kubesched.drills.New
      Total        112523        7099208
      """;

  @Test
  void reads_each_class_line_and_skips_the_header_and_total() {
    var histogram = ClassHistogram.parse(EARLIER);
    assertEquals(3, histogram.bytes().size());
    assertEquals(4866544L, histogram.bytes().get("[B"));
    assertEquals(50001L, histogram.instances().get("java.lang.String"));
  }

  @Test
  void lists_the_classes_that_grew_most_first_with_new_classes_counted_from_zero() {
    var grown = ClassHistogram.parse(LATER).grownSince(ClassHistogram.parse(EARLIER), 2);
    assertEquals(List.of(new ClassHistogram.Change("[B", 1_000_000, 10_000),
        new ClassHistogram.Change("io.kubesched.drills.New", 640, 10)), grown);
  }

  @Test
  void reads_this_process() throws Exception {
    var histogram = ClassHistogram.ofThisProcess();
    assertTrue(histogram.bytes().getOrDefault("java.lang.String", 0L) > 0, "a JVM always holds strings");
  }
}

package io.kubesched.drills;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The live objects of this process by class, as {@code jcmd PID GC.class_histogram} prints them (which runs a
 * full GC first), read through the HotSpot diagnostic command MBean, and the difference between two of them:
 * what a heap that grew holds more of. Immutable.
 *
 * @param bytes bytes of live objects per class name
 * @param instances live instances per class name
 */
record ClassHistogram(Map<String, Long> bytes, Map<String, Long> instances) {

  ClassHistogram {
    bytes = Map.copyOf(bytes);
    instances = Map.copyOf(instances);
  }

  /** One class's change between two histograms. */
  record Change(String className, long bytes, long instances) {}

  /** @return this process's histogram (a full GC happens first) */
  static ClassHistogram ofThisProcess() throws JMException {
    var name = new ObjectName("com.sun.management:type=DiagnosticCommand");
    var text = (String) ManagementFactory.getPlatformMBeanServer().invoke(name, "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    return parse(text);
  }

  /**
   * Reads {@code GC.class_histogram}'s text: a header, then lines {@code "  1:  123  4567  java.lang.String
   * (java.base@17)"}, then a {@code Total} line. Lines of another shape are skipped.
   */
  static ClassHistogram parse(String text) {
    var bytes = new HashMap<String, Long>();
    var instances = new HashMap<String, Long>();
    for (var line : text.split("\n")) {
      var fields = line.trim().split("\\s+");
      if (fields.length < 4 || !fields[0].endsWith(":")) {
        continue;
      }
      try {
        long count = Long.parseLong(fields[1]);
        long size = Long.parseLong(fields[2]);
        bytes.merge(fields[3], size, Long::sum);
        instances.merge(fields[3], count, Long::sum);
      } catch (NumberFormatException e) {
        // a header or a line of another shape
      }
    }
    return new ClassHistogram(bytes, instances);
  }

  /** @return the {@code limit} classes whose live bytes grew most from {@code earlier} to this, largest first */
  List<Change> grownSince(ClassHistogram earlier, int limit) {
    var changes = new ArrayList<Change>();
    bytes.forEach((name, size) -> changes.add(new Change(name, size - earlier.bytes().getOrDefault(name, 0L),
        instances.getOrDefault(name, 0L) - earlier.instances().getOrDefault(name, 0L))));
    changes.sort(Comparator.comparingLong(Change::bytes).reversed());
    return List.copyOf(changes.subList(0, Math.min(limit, changes.size())));
  }
}

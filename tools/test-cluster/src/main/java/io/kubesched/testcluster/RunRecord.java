package io.kubesched.testcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The data file a measuring tool (the end-to-end benchmark, the drills, the soak) leaves for each run, one JSON
 * object per file under {@code results/KIND/}, which {@code scripts/render-results.py} renders into the docs'
 * tables. Every kind starts with the same header: {@code schema}, {@code kind}, {@code started}, {@code
 * finished}, {@code revision}, {@code command} and {@code machine}; the rest is the kind's own. A figure not
 * measured is {@code null}.
 */
public final class RunRecord {

  /** Raised when a field changes meaning, so that the renderer refuses what it cannot read. */
  public static final int SCHEMA = 1;

  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private RunRecord() {}

  /**
   * @param kind the folder under {@code results/}: {@code e2e-benchmark}, {@code drills}, {@code soak}
   * @param revision the code measured, as the tool's script gives it ({@code git rev-parse --short HEAD}, with
   *     {@code -dirty} for uncommitted changes); "unknown" without one
   * @param command the command as a reader would type it, without paths that differ from machine to machine
   * @param machineExtras what the kind adds to {@link #machine()} (the Kubernetes version the run used, say)
   * @return the header, in order, to which the kind adds its fields
   */
  public static Map<String, Object> header(
      String kind, String revision, String command, Instant started, Instant finished,
      Map<String, Object> machineExtras) {
    var record = new LinkedHashMap<String, Object>();
    record.put("schema", SCHEMA);
    record.put("kind", kind);
    record.put("started", started.truncatedTo(ChronoUnit.SECONDS).toString());
    record.put("finished", finished.truncatedTo(ChronoUnit.SECONDS).toString());
    record.put("revision", revision);
    record.put("command", command);
    var machine = machine();
    machine.putAll(machineExtras);
    record.put("machine", machine);
    return record;
  }

  /** The machine as Linux states it: processors, the CPU's model name, the memory in GiB, the kernel, Java. */
  public static Map<String, Object> machine() {
    var machine = new LinkedHashMap<String, Object>();
    machine.put("cpus", Runtime.getRuntime().availableProcessors());
    machine.put("cpu", procLine("/proc/cpuinfo", "model name")
        .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown CPU"));
    machine.put("memoryGiB", procLine("/proc/meminfo", "MemTotal:")
        .map(l -> Math.round(Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0 / 1024)).orElse(0L));
    machine.put("os", "Linux " + System.getProperty("os.version"));
    machine.put("java", System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name") + ")");
    return machine;
  }

  /** The data file beside a Markdown report: {@code FILE.md} gives {@code FILE.json}, any other name gains it. */
  public static Path beside(Path report) {
    var name = report.getFileName().toString();
    return report.resolveSibling((name.endsWith(".md") ? name.substring(0, name.length() - 3) : name) + ".json");
  }

  /** Writes {@code record} to {@code file} as indented JSON, creating its folder. */
  public static void write(Path file, Map<String, Object> record) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    Files.writeString(file, JSON.writeValueAsString(record) + "\n");
  }

  /** Rounded to three decimals (more is noise), null for NaN: JSON has no NaN. */
  public static Double number(double value) {
    return Double.isNaN(value) ? null : Math.round(value * 1000) / 1000.0;
  }

  private static Optional<String> procLine(String file, String prefix) {
    try (Stream<String> lines = Files.lines(Path.of(file))) {
      return lines.filter(l -> l.startsWith(prefix)).findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}

package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine a run measured, as Linux states it: the CPU's model name and the memory.
 *
 * @param cpu the first {@code model name} of {@code /proc/cpuinfo}, "unknown CPU" if there is none
 * @param memoryGiB {@code MemTotal} of {@code /proc/meminfo}
 */
record Machine(String cpu, double memoryGiB) {

  static Machine probe() {
    try {
      var cpu = "unknown CPU";
      for (var line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          cpu = line.substring(line.indexOf(':') + 1).strip();
          break;
        }
      }
      long memKiB = 0;
      for (var line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          memKiB = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
      return new Machine(cpu, memKiB / 1024.0 / 1024);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the machine's CPU and memory from /proc", e);
    }
  }
}

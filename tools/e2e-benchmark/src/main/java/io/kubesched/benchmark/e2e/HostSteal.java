package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How much of this machine's CPU time its hypervisor gave to other guests: the {@code steal} of the first line of
 * {@code /proc/stat} (proc(5)). On a shared virtual machine it can move a run's figures as much as a change to the
 * code: on 2026-12-04, {@code vmstat} showed 12–21 % steal in the busy seconds of one 500-node repetition and 0–7 %
 * in the next. It is not the only cause of a slow repetition: six repetitions later that day placed their backlogs
 * at 292 to 454 pods/s with under 1 % steal. A run's {@link RunResult#hostSteal} says which repetitions ran on a
 * machine that was partly elsewhere, so that those are not read as the code's.
 */
final class HostSteal {

  /** A reading of the machine's CPU counters, in clock ticks summed over its CPUs. */
  record Reading(long steal, long total) {

    /** The share of the CPU time since {@code earlier} that was stolen; NaN if no time passed or not readable. */
    double shareSince(Reading earlier) {
      long elapsed = total - earlier.total;
      return elapsed <= 0 || total < 0 || earlier.total < 0 ? Double.NaN : (double) (steal - earlier.steal) / elapsed;
    }
  }

  /** Where the kernel has no such counters (not Linux): every share is NaN. */
  static final Reading UNREADABLE = new Reading(-1, -1);

  private static final Path PROC_STAT = Path.of("/proc/stat");

  private HostSteal() {}

  /** The machine's counters now, or {@link #UNREADABLE}. */
  static Reading read() {
    if (!Files.isReadable(PROC_STAT)) {
      return UNREADABLE;
    }
    try {
      return parse(Files.readAllLines(PROC_STAT));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The counters of {@code /proc/stat}'s aggregate line: {@code cpu user nice system idle iowait irq softirq steal
   * guest guest_nice}. Guest time is already counted in user and nice, so the total is the first eight.
   */
  static Reading parse(List<String> procStat) {
    for (var line : procStat) {
      var fields = line.trim().split("\\s+");
      if (fields[0].equals("cpu") && fields.length >= 9) {
        long total = 0;
        for (int i = 1; i <= 8; i++) {
          total += Long.parseLong(fields[i]);
        }
        return new Reading(Long.parseLong(fields[8]), total);
      }
    }
    return UNREADABLE;
  }
}

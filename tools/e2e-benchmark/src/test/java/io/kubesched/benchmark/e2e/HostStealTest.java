package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostStealTest {

  /** The start of /proc/stat on a 2-CPU guest: the aggregate line, then one a CPU. */
  private static List<String> procStat(long user, long idle, long steal, long guest) {
    return List.of(
        "cpu  " + user + " 10 300 " + idle + " 5 0 20 " + steal + " " + guest + " 0",
        "cpu0 1 2 3 4 5 6 7 8 9 10",
        "cpu1 1 2 3 4 5 6 7 8 9 10",
        "intr 123 0 0");
  }

  @Test
  void the_aggregate_line_is_read_and_guest_time_is_not_counted_twice() {
    var reading = HostSteal.parse(procStat(1_000, 5_000, 150, 400));
    assertEquals(150, reading.steal());
    assertEquals(1_000 + 10 + 300 + 5_000 + 5 + 0 + 20 + 150, reading.total());
  }

  @Test
  void the_share_is_the_stolen_part_of_the_time_between_two_readings() {
    var before = HostSteal.parse(procStat(1_000, 5_000, 150, 0));
    var after = HostSteal.parse(procStat(1_300, 5_050, 200, 0));
    assertEquals(50.0 / 400, after.shareSince(before), 1e-12);
  }

  @Test
  void without_the_counters_or_without_time_between_the_share_is_not_a_number() {
    var reading = HostSteal.parse(procStat(1_000, 5_000, 150, 0));
    assertTrue(Double.isNaN(reading.shareSince(reading)));
    assertTrue(Double.isNaN(reading.shareSince(HostSteal.UNREADABLE)));
    assertTrue(Double.isNaN(HostSteal.UNREADABLE.shareSince(reading)));
    assertEquals(HostSteal.UNREADABLE, HostSteal.parse(List.of("intr 1 2", "cpu  1 2 3")));
  }

  @Test
  void this_machines_counters_are_read_where_it_has_them() {
    var first = HostSteal.read();
    var second = HostSteal.read();
    if (first.equals(HostSteal.UNREADABLE)) {
      assertEquals(HostSteal.UNREADABLE, second);
      return;
    }
    assertTrue(second.total() >= first.total() && second.steal() >= first.steal(), first + " then " + second);
  }
}

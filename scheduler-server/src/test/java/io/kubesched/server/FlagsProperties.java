package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class FlagsProperties {

  /** Numbers around both ends of the valid ranges, NaN and text that is no number at all. */
  @Provide
  Arbitrary<String> numbers() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(-3, 3).map(String::valueOf),
        Arbitraries.integers().between(65530, 65540).map(String::valueOf),
        Arbitraries.longs().between(Integer.MAX_VALUE - 2L, Integer.MAX_VALUE + 2L).map(String::valueOf),
        Arbitraries.integers().between(-100_000, 100_000).map(String::valueOf),
        Arbitraries.of("NaN", "1e3", "0x10", "", " 1", "+1"),
        Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(6));
  }

  /** Go durations and near misses. */
  @Provide
  Arbitrary<String> durations() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(0, 500).map(n -> n + "s"),
        Arbitraries.integers().between(0, 500).map(n -> n + "ms"),
        Arbitraries.of("1m30s", "1.5h", "-2s", "0", "15", "NaN", "1x", "", "s", "1e3s", "2562048h"));
  }

  private static Optional<Integer> expectedNumber(String text, long max) {
    if (!text.matches("[-+]?[0-9]+")) { // Go's strconv.ParseInt
      return Optional.empty();
    }
    try {
      long value = Long.parseLong(text);
      return value >= 0 && value <= max ? Optional.of((int) value) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static List<String> line(String flag, String value, boolean withEquals) {
    var args = new ArrayList<>(List.of("--config", "c"));
    if (withEquals) {
      args.add(flag + "=" + value);
    } else {
      args.add(flag);
      args.add(value);
    }
    return args;
  }

  private static void coverage(String label, boolean valid) {
    Statistics.label(label).collect(valid ? "valid" : "refused");
    Statistics.label(label).coverage(c -> {
      c.check("valid").percentage(p -> p > 10);
      c.check("refused").percentage(p -> p > 10);
    });
  }

  private static void refused(List<String> args, String message) {
    var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args), args::toString);
    assertEquals("command line: " + message, e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Property
  void a_port_is_accepted_exactly_when_it_is_a_number_from_0_to_65535(
      @ForAll("numbers") String port, @ForAll boolean withEquals) {
    var expected = expectedNumber(port, 65535);
    coverage("secure-port", expected.isPresent());
    var args = line("--secure-port", port, withEquals || port.isEmpty());
    if (expected.isPresent()) {
      assertEquals(expected.get(), Flags.parse(args).serving().securePort());
    } else {
      refused(args, "--secure-port must be a number from 0 to 65535, was '" + port + "'");
    }
  }

  @Property
  void a_verbosity_is_accepted_exactly_when_it_is_a_number_from_0_to_the_largest_int(
      @ForAll("numbers") String level, @ForAll boolean withEquals, @ForAll boolean longName) {
    var expected = expectedNumber(level, Integer.MAX_VALUE);
    coverage("v", expected.isPresent());
    var args = line(longName ? "--v" : "-v", level, withEquals || level.isEmpty());
    if (expected.isPresent()) {
      assertEquals(expected.get(), Flags.parse(args).verbosity());
    } else {
      refused(args, "-v must be a number from 0 to 2147483647, was '" + level + "'");
    }
  }

  @Property
  void a_leader_election_duration_is_accepted_exactly_when_go_reads_it(
      @ForAll("durations") String duration,
      @ForAll boolean withEquals,
      @ForAll("durationFlags") String flag) {
    var expected = io.kubesched.policy.config.GoDuration.parse(duration);
    coverage("duration", expected.isPresent());
    var args = line(flag, duration, withEquals || duration.isEmpty() || duration.startsWith("-"));
    if (expected.isPresent()) {
      var election = Flags.parse(args).leaderElection();
      var given = switch (flag) {
        case "--leader-elect-lease-duration" -> election.leaseDuration();
        case "--leader-elect-renew-deadline" -> election.renewDeadline();
        default -> election.retryPeriod();
      };
      assertEquals(expected, given);
    } else {
      refused(args, flag + " must be a duration such as 15s, 1m30s or 300ms, was '" + duration + "'");
    }
  }

  @Provide
  Arbitrary<String> durationFlags() {
    return Arbitraries.of(
        "--leader-elect-lease-duration", "--leader-elect-renew-deadline", "--leader-elect-retry-period");
  }

  @Property
  void an_unknown_flag_is_refused_listing_the_supported_ones(
      @ForAll("unknownFlags") String flag, @ForAll boolean withValue) {
    var args = new ArrayList<>(List.of("--config", "c", withValue ? flag + "=1" : flag));
    var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args));
    assertTrue(e.getMessage().startsWith("command line: unknown flag '" + args.get(2) + "'; supported: --config,"),
        e.getMessage());
  }

  @Provide
  Arbitrary<String> unknownFlags() {
    return Arbitraries.oneOf(
        Arbitraries.of("--master", "--profiling", "--kube-api-qps", "--vmodule", "--logtostderr",
            "--requestheader-client-ca-file", "--client-ca-file", "--permit-port-sharing"),
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(2).ofMaxLength(12).map(s -> "--x" + s));
  }

  /** One flag with a value, and whether kube-scheduler's pflag and this scheduler take it. */
  record Given(String flag, String value, boolean valid, boolean withEquals) {
    List<String> args() {
      return withEquals ? List.of(flag + "=" + value) : List.of(flag, value);
    }
  }

  private static Arbitrary<Given> given(String flag, Arbitrary<String> values, java.util.function.Predicate<String> valid,
      boolean spaceAllowed) {
    return Combinators.combine(values, Arbitraries.of(true, false)).as((value, equals) -> new Given(flag, value,
        valid.test(value), equals || !spaceAllowed || value.isEmpty() || value.startsWith("-")));
  }

  @Provide
  Arbitrary<List<Given>> commandLines() {
    var flag = Arbitraries.oneOf(
        given("--secure-port", numbers(), v -> expectedNumber(v, 65535).isPresent(), true),
        given("--v", numbers(), v -> expectedNumber(v, Integer.MAX_VALUE).isPresent(), true),
        given("--logging-format", Arbitraries.of("text", "json", "xml", "JSON", ""), List.of("text", "json")::contains,
            true),
        given("--leader-elect", Arbitraries.of("true", "false", "1", "0", "t", "F", "yes", "", "on"),
            List.of("true", "false", "1", "0", "t", "F")::contains, false),
        given("--bind-address", Arbitraries.of("0.0.0.0", "127.0.0.1", "::", "::1", "256.1.1.1", "localhost",
            "1.2.3", "", "01.2.3.4"), List.of("0.0.0.0", "127.0.0.1", "::", "::1")::contains, true),
        given("--leader-elect-renew-deadline", durations(),
            v -> io.kubesched.policy.config.GoDuration.parse(v).isPresent(), true),
        given("--leader-elect-resource-lock", Arbitraries.of("leases", "endpoints", "configmaps", ""),
            "leases"::equals, true),
        given("--feature-gates", Arbitraries.of("StorageCapacityScoring=true", "InterPodAffinityHostnameFastPath=false",
            "StorageCapacityScoring=false", "Foo=true", "PodLevelResources", "PodLevelResources=yes"),
            List.of("StorageCapacityScoring=true", "InterPodAffinityHostnameFastPath=false")::contains, true));
    return flag.list().ofMinSize(1).ofMaxSize(5).uniqueElements(Given::flag);
  }

  @Property
  void a_command_line_is_accepted_exactly_when_every_value_is_valid_else_one_line_names_a_bad_one(
      @ForAll("commandLines") List<Given> line) {
    var args = new ArrayList<>(List.of("--config", "c"));
    line.forEach(given -> args.addAll(given.args()));
    var invalid = line.stream().filter(g -> !g.valid()).toList();
    Statistics.label("command line").collect(invalid.isEmpty() ? "valid" : "refused");
    Statistics.label("command line").coverage(c -> {
      c.check("valid").percentage(p -> p > 10);
      c.check("refused").percentage(p -> p > 10);
    });
    Statistics.label("refused flag").collect(invalid.isEmpty() ? "none" : invalid.get(0).flag());
    Statistics.label("refused flag").coverage(c -> {
      for (var name : List.of("--secure-port", "--v", "--logging-format", "--leader-elect", "--bind-address",
          "--leader-elect-renew-deadline", "--leader-elect-resource-lock", "--feature-gates")) {
        c.check(name).count(n -> n > 0);
      }
    });
    if (invalid.isEmpty()) {
      Flags.parse(args);
      return;
    }
    var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args), args::toString);
    var message = e.getMessage();
    assertTrue(message.startsWith("command line: "), message);
    assertFalse(message.contains("\n"), message);
    assertTrue(invalid.stream().anyMatch(g -> message.contains(g.flag().equals("--v") ? "-v" : g.flag())
            && (message.contains("'" + g.value() + "'") || message.contains(g.value().split("=")[0]))),
        () -> message + " should name one of " + invalid);
  }
}

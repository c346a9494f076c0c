package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ConfigurationException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class FlagsProperties {

  /** Numbers around both ends of the valid range, and text that is no number at all. */
  @Provide
  Arbitrary<String> ports() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(-3, 3).map(String::valueOf),
        Arbitraries.integers().between(65530, 65540).map(String::valueOf),
        Arbitraries.integers().between(-100_000, 100_000).map(String::valueOf),
        Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(6));
  }

  @Property
  void a_port_is_accepted_exactly_when_it_is_a_number_from_0_to_65535(
      @ForAll("ports") String port, @ForAll boolean withEquals) {
    var args = withEquals ? List.of("--config", "c", "--secure-port=" + port) : List.of("--config", "c", "--secure-port", port);
    Integer expected = null;
    try {
      int value = Integer.parseInt(port);
      expected = value >= 0 && value <= 65535 ? value : null;
    } catch (NumberFormatException e) {
      // not a number: refused
    }
    Statistics.label("port").collect(expected != null ? "valid" : "refused");
    Statistics.label("port").coverage(c -> {
      c.check("valid").percentage(p -> p > 10);
      c.check("refused").percentage(p -> p > 10);
    });
    if (expected != null) {
      assertEquals(expected, Flags.parse(args).serving().securePort());
    } else {
      var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args));
      assertEquals("command line: --secure-port must be a number from 0 to 65535, was '" + port + "'", e.getMessage());
    }
  }
}

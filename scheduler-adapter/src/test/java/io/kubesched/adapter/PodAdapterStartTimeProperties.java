package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@code status.startTime} as Go's {@code time.RFC3339} reads it: every instant written with any offset and
 * any number of fraction digits reads back as that instant; a text cut short, or with a character changed
 * where RFC 3339 allows no other, is malformed.
 */
class PodAdapterStartTimeProperties {

  /** An instant, the offset it is written in, and how many fraction digits are written (0 = none). */
  record Written(Instant instant, int offsetMinutes, int digits) {
    String text() {
      var local = OffsetDateTime.ofInstant(instant, ZoneOffset.ofTotalSeconds(offsetMinutes * 60));
      var fraction = digits == 0 ? "" : "." + "S".repeat(digits);
      var offset = offsetMinutes == 0 ? "'Z'" : "xxx";
      return local.format(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss" + fraction + offset));
    }

    /** The instant cut to the written digits: what reading the text gives. */
    Instant written() {
      long unit = (long) Math.pow(10, 9 - digits);
      return instant.minusNanos(instant.getNano() % unit);
    }
  }

  @Property
  @Label("a start time written as RFC 3339 reads back as the instant written")
  void rfc3339ReadsBack(@ForAll("written") Written written) {
    var info = PodAdapter.toPodInfo(pod().startTime(written.text()).build());

    assertEquals(written.written(), info.startTime());
    Statistics.label("offset").collect(written.offsetMinutes() == 0 ? "Z" : "numeric");
    Statistics.label("fraction").collect(written.digits() == 0 ? "none" : written.digits() == 9 ? "nanos" : "some");
    Statistics.label("offset").coverage(c -> {
      c.check("Z").count(n -> n > 0);
      c.check("numeric").count(n -> n > 0);
    });
    Statistics.label("fraction").coverage(c -> {
      c.check("none").count(n -> n > 0);
      c.check("some").count(n -> n > 0);
      c.check("nanos").count(n -> n > 0);
    });
  }

  @Property
  @Label("a start time cut short or with a separator replaced is malformed, named with its field and value")
  void brokenTextsAreMalformed(@ForAll("written") Written written, @ForAll("breakages") Breakage breakage) {
    var text = breakage.apply(written.text());

    PodAdapterTest.assertMalformedStartTime(text);
    Statistics.label("breakage").collect(breakage.kind());
    Statistics.label("breakage").coverage(c -> {
      c.check("cut").count(n -> n > 0);
      c.check("separator").count(n -> n > 0);
      c.check("no offset").count(n -> n > 0);
    });
  }

  /** A way to spoil an RFC 3339 text. */
  record Breakage(String kind, int position, char replacement) {
    String apply(String text) {
      return switch (kind) {
        // Cut before the seconds end: no prefix of an RFC 3339 time shorter than date, time and zone is one.
        case "cut" -> text.substring(0, Math.min(position, 18));
        // Positions 4, 7, 10, 13, 16 hold '-', '-', 'T', ':', ':'; none may be anything else.
        case "separator" -> {
          int at = new int[] {4, 7, 10, 13, 16}[position % 5];
          yield text.substring(0, at) + replacement + text.substring(at + 1);
        }
        default -> text.substring(0, 19);
      };
    }
  }

  @Provide
  Arbitrary<Breakage> breakages() {
    return Combinators.combine(
            Arbitraries.of("cut", "separator", "no offset"),
            Arbitraries.integers().between(0, 18),
            Arbitraries.of(' ', '/', '.', 't', '_', '0'))
        .as(Breakage::new);
  }

  @Provide
  Arbitrary<Written> written() {
    var instants =
        Arbitraries.longs()
            .between(Instant.parse("1970-01-01T00:00:00Z").getEpochSecond(), Instant.parse("2200-01-01T00:00:00Z").getEpochSecond())
            .flatMap(s -> Arbitraries.integers().between(0, 999_999_999).map(n -> Instant.ofEpochSecond(s, n)));
    var offsets = Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(-14 * 60, 14 * 60));
    return Combinators.combine(instants, offsets, Arbitraries.integers().between(0, 9)).as(Written::new);
  }
}

package io.kubesched.samples.josdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/operators.md shows the sample's wiring of java-operator-sdk and kubesched: the same text as {@link
 * BatchOperator}'s, which compiles here and runs in the end-to-end suite ({@code JosdkSampleIT}).
 */
class OperatorsPageTest {

  private static final String FROM = "      // docs/operators.md shows from here (OperatorsPageTest)\n";
  private static final String TO = "      // to here\n";

  @Test
  void the_operators_page_shows_exactly_the_samples_wiring() throws IOException {
    var source = Files.readString(Path.of("src/main/java/io/kubesched/samples/josdk/BatchOperator.java"));
    var wiring = between(source, FROM, TO).lines()
        .map(line -> line.startsWith("      ") ? line.substring(6) : line)
        .collect(Collectors.joining("\n", "", "\n"));
    var page = Files.readString(Path.of("../../docs/operators.md"));
    var shown = between(page, "<!-- sample: OperatorsPageTest -->\n```java\n", "```\n");

    assertEquals(wiring, shown, "docs/operators.md's java-operator-sdk sample differs from BatchOperator's wiring");
  }

  private static String between(String text, String from, String to) {
    int start = text.indexOf(from);
    if (start < 0) {
      throw new AssertionError("no '" + from.strip() + "' found");
    }
    start += from.length();
    int end = text.indexOf(to, start);
    if (end < 0) {
      throw new AssertionError("no '" + to.strip() + "' after '" + from.strip() + "'");
    }
    return text.substring(start, end);
  }
}

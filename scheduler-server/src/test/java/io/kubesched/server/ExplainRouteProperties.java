package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** {@link PodKey#parse}, the route's reading of {@code ?pod=}, and the JSON it writes. */
class ExplainRouteProperties {

  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static Arbitrary<String> labels(int maxLength) {
    return Arbitraries.strings().withChars("abcz09-").ofMinLength(1).ofMaxLength(maxLength)
        .filter(s -> LABEL.matcher(s).matches());
  }

  /** Valid keys, valid ones with a part too long, and text of the characters that matter in any order. */
  @Provide
  Arbitrary<String> podParameters() {
    var names = labels(20).list().ofMinSize(1).ofMaxSize(3).map(parts -> String.join(".", parts));
    var valid = Combinators.combine(labels(63), names).as((ns, name) -> ns + "/" + name);
    var tooLong = Combinators.combine(labels(70), Arbitraries.integers().between(60, 260))
        .as((ns, n) -> ns + "/" + "a".repeat(n));
    var anything = Arbitraries.strings().withChars("ab0-./ A_\u00e9\n%").ofMaxLength(12);
    return Arbitraries.oneOf(valid, tooLong, anything);
  }

  @Property
  void a_pod_parameter_is_accepted_exactly_when_it_is_a_valid_namespace_slash_a_valid_name(
      @ForAll("podParameters") String value) {
    var parts = value.split("/", -1);
    boolean valid =
        parts.length == 2
            && parts[0].length() <= 63 && LABEL.matcher(parts[0]).matches()
            && parts[1].length() <= 253
            && List.of(parts[1].split("\\.", -1)).stream().allMatch(l -> LABEL.matcher(l).matches());
    Statistics.label("parameter").collect(valid ? "accepted" : "refused");
    Statistics.label("parameter").coverage(c -> {
      c.check("accepted").percentage(p -> p > 20);
      c.check("refused").percentage(p -> p > 20);
    });
    if (valid) {
      var key = PodKey.parse(value);
      assertEquals(parts[0], key.namespace());
      assertEquals(parts[1], key.name());
      assertEquals(value, key.toString());
    } else {
      var e = assertThrows(IllegalArgumentException.class, () -> PodKey.parse(value));
      assertTrue(e.getMessage().startsWith("pod='"), e.getMessage());
      assertTrue(e.getMessage().chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f), "printable: " + e.getMessage());
      assertTrue(e.getMessage().length() < 300, "short");
    }
  }

  @Property
  void the_route_answers_400_with_no_controller_call_for_every_parameter_it_refuses(
      @ForAll("podParameters") String value) {
    Route route = ExplainRoute.of(() -> {
      throw new AssertionError("the controller is asked only for a valid pod");
    });
    boolean valid;
    try {
      PodKey.parse(value);
      valid = true;
    } catch (IllegalArgumentException e) {
      valid = false;
    }
    if (!valid) {
      var answer = route.get(new Route.Request(ExplainRoute.PATH, Map.of("pod", List.of(value)), java.util.Optional.empty()));
      assertEquals(400, answer.status());
    }
  }

  @Property
  void any_text_written_as_json_reads_back_as_it_was(@ForAll String text, @ForAll int number) {
    var tree = Map.of("text", text, "list", List.of(text, number, true), "nested", Map.of(text, "x"));

    var read = SERIALIZATION.unmarshal(Json.write(tree), Map.class);

    assertEquals(text, read.get("text"));
    assertEquals(List.of(text, number, true), read.get("list"));
    assertEquals(Map.of(text, "x"), read.get("nested"));
  }
}

package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.literal;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.matches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * cel-go checks a literal {@code string.format} call when it compiles with the same rules its formatter applies
 * when it runs; so a clause over a literal argument and over the same argument hidden behind {@code dyn} agree: the
 * same text, or the same message, once at compile time and once at run time (for a list member cel-go's checker
 * words it by the clause, its formatter by the type it cannot print).
 */
class StringFormatProperties {

  private static final Pattern NESTED =
      Pattern.compile("error during formatting: string clause can only be used on .*, was given (.*)");

  @Property(tries = 400)
  void compile_time_checks_agree_with_run_time_formatting(
      @ForAll("clauses") String clause, @ForAll("arguments") String argument) throws SelectorException {
    String format = literal(clause);
    String checked = format + ".format([" + argument + "])";
    String hidden = format + ".format([dyn(" + argument + ")])";
    Optional<String> rejected = compileError(checked + " == " + hidden);
    Statistics.label("outcome").collect(rejected.isPresent() ? "rejected when compiled" : "compiled");
    Statistics.label("outcome").coverage(coverage -> {
      coverage.check("compiled").percentage(p -> p > 20);
      coverage.check("rejected when compiled").percentage(p -> p > 20);
    });
    if (rejected.isPresent()) {
      var error = assertThrows(SelectorException.class, () -> matches("dyn(" + hidden + ") == 0"), hidden);
      Matcher member = NESTED.matcher(rejected.get());
      if (member.matches() && argument.startsWith("[")) {
        // cel-go's checker names a list member by the clause it fails, its formatter by the missing printer.
        assertEquals("error during formatting: no formatting function for " + member.group(1), error.getMessage());
      } else {
        assertEquals(rejected.get(), error.getMessage());
      }
      return;
    }
    try {
      assertTrue(matches(checked + " == " + hidden), checked);
    } catch (SelectorException e) {
      // Both fail when run (a map key cel-go cannot print, a precision kubesched refuses): with one message.
      SelectorAssertions.assertFailsToEvaluate(hidden, e.getMessage());
    }
  }

  /** The compiler's first issue without its position ({@code ERROR: <input>:1:14: }), if it has one. */
  private static Optional<String> compileError(String expression) {
    try {
      SelectorEnvironment.compile(expression);
      return Optional.empty();
    } catch (SelectorException e) {
      String first = e.getMessage().split("\n", 2)[0];
      assertTrue(first.startsWith("compilation failed: ERROR: <input>:1:"), first);
      return Optional.of(first.replaceFirst("^compilation failed: ERROR: <input>:1:\\d+: ", ""));
    }
  }

  @Provide
  Arbitrary<String> clauses() {
    Arbitrary<String> verb = Arbitraries.of("s", "d", "f", "e", "b", "o", "x", "X");
    Arbitrary<String> precision = Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.integers().between(0, 300).map(p -> "." + p));
    return Combinators.combine(Arbitraries.of("", "at ", "%% "), precision, verb)
        .as((text, p, v) -> text + "%" + p + v);
  }

  @Provide
  Arbitrary<String> arguments() {
    return Arbitraries.oneOf(
        Arbitraries.longs().map(String::valueOf),
        Arbitraries.longs().between(0, Long.MAX_VALUE).map(n -> n + "u"),
        Arbitraries.doubles().map(d -> d.isNaN() || d.isInfinite() ? "double('NaN')" : String.valueOf(d)),
        Arbitraries.of("'abc'", "'NaN'", "'Infinity'", "'-Infinity'", "'é\\u00a0\"'", "true", "false", "b'xyz'",
            "b'\\xff'", "null", "int", "type([1])", "duration('1h1.5s')", "duration('-2ns')", "optional.none()",
            "[1, 'a', 2.5, null]", "{'k': [true], 'a': b'c'}", "{1.5: 2}", "[optional.of(1)]", "[]", "{}"));
  }
}

package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertFailsToEvaluate;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertHolds;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's lists library over durations, timestamps and bytes (the other element types are in EnvironmentTest): the
 * answers and messages kube's environment gives for these expressions.
 */
class KubeListsTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "[duration('1s'), duration('2s')].sum() == duration('3s')",
      "[duration('200000h'), duration('200000h')].sum() == duration('400000h')",
      "[duration('1s')].isSorted() && ![duration('2s'), duration('1s')].isSorted()",
      "[duration('1m'), duration('-1h'), duration('1s')].min() == duration('-1h')",
      "[duration('1m'), duration('-1h'), duration('1s')].max() == duration('1m')",
      "[b'a', b'\\xff', b'b'].max() == b'\\xff'",
      "![b'\\xff', b'a'].isSorted() && [b'', b'a', b'ab'].isSorted()",
      "[b'b', b'ab'].min() == b'ab'",
      "[timestamp('2000-01-01T00:00:00Z'), timestamp('1999-01-01T00:00:00Z')].min() "
          + "== timestamp('1999-01-01T00:00:00Z')",
      "[timestamp('1999-01-01T00:00:00Z'), timestamp('2000-01-01T00:00:00Z')].isSorted()",
  })
  void evaluates_as_kube(String expression) throws SelectorException {
    assertHolds(expression);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "[duration('2562047h'), duration('1h')].sum()|integer overflow",
      "[duration('1s')].filter(d, d > duration('1m')).max()|max called on empty list",
      "[timestamp('2000-01-01T00:00:00Z')].filter(t, false).min()|min called on empty list",
  })
  void fails_as_kube(String expression, String message) throws SelectorException {
    assertFailsToEvaluate(expression, message);
  }
}

package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertFailsToCompile;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertHolds;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's homogeneous aggregate literals, checked as cel-go's validator checks them (the first issue and its
 * position are what kube's environment reports), with the arguments of {@code string.format} exempt.
 */
class HomogeneousLiteralsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "[1, 'a'] == [1, 'a']|ERROR: <input>:1:5: expected type 'int' but found 'string'",
      "[1, dyn(2)] == []|ERROR: <input>:1:8: expected type 'int' but found 'dyn'",
      "[[1], [dyn(2)]] == []|ERROR: <input>:1:7: expected type 'list(int)' but found 'list(dyn)'",
      "[optional.of(1), optional.of('a')] == []|ERROR: <input>:1:29: expected type 'optional_type(int)' but found "
          + "'optional_type(string)'",
      "{1: 'a', 'b': 1} == {}|ERROR: <input>:1:10: expected type 'int' but found 'string'",
      "{'a': 1, 'b': 'x', 1: 2} == {}|ERROR: <input>:1:15: expected type 'int' but found 'string'",
      "{'a': 1, ?'b': optional.of('x')} == {}|ERROR: <input>:1:27: expected type 'int' but found 'string'",
      "[1, 'a'].size() + '%s'.format([[1, 'a']]).size() > 0|ERROR: <input>:1:5: expected type 'int' but found "
          + "'string'",
      "[[1, 'a'], 1].exists(x, '%s'.format([x]) != '')|ERROR: <input>:1:6: expected type 'int' but found 'string'",
  })
  void rejects_mixed_literals_as_kube(String expression, String issue) {
    assertFailsToCompile(expression, issue);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "'%d %s'.format([1, 'a']) == '1 a'",
      "'%s'.format([[1, 'a', {'k': 1, 2: 'v'}]]) == '[1, \"a\", {\"k\":1, 2:\"v\"}]'",
      "[?optional.of(1), 2] != [1]",
      "{'a': 1, ?'b': optional.of(2)} == {'a': 1, 'b': 2}",
  })
  void accepts_what_kube_accepts(String expression) throws SelectorException {
    assertHolds(expression);
  }
}

package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/testing.md shows exactly {@link BinPackingPolicyProperties}, which jqwik runs as a contract test. */
class TestingPageSampleTest {

  @Test
  void the_testing_page_shows_exactly_the_contract_sample_that_runs() throws IOException {
    var source = Files.readString(Path.of("src/test/java/io/kubesched/policy/BinPackingPolicyProperties.java"));
    var sample = PolicyReadmeSampleTest.between(source, "// SAMPLE-BEGIN\n", "// SAMPLE-END\n");
    var page = Files.readString(Path.of("../docs/testing.md"));
    var shown = PolicyReadmeSampleTest.between(page, "<!-- sample: BinPackingPolicyProperties -->\n```java\n", "```\n");
    assertEquals(sample, shown, "docs/testing.md's contract sample differs from BinPackingPolicyProperties");
  }
}

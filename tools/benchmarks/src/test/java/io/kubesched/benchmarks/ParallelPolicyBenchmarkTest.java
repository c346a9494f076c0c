package io.kubesched.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The parallel benchmark measures the same decisions as the sequential one: over one snapshot, a policy sharing
 * its node loop out (below the threshold too, with {@code minNodes=0} and small chunks) decides every pod as the
 * sequential policy does, decision after decision.
 */
class ParallelPolicyBenchmarkTest {

  private static ParallelPolicyBenchmark.ParallelState state(int parallelism, int minNodes, int chunkSize) {
    var state = new ParallelPolicyBenchmark.ParallelState();
    state.nodes = 600;
    state.parallelism = parallelism;
    state.minNodes = minNodes;
    state.chunkSize = chunkSize;
    state.setUp();
    return state;
  }

  @Test
  void several_threads_decide_each_pod_as_one_thread_does() throws InterruptedException {
    var benchmark = new ParallelPolicyBenchmark();
    for (var shared : new ParallelPolicyBenchmark.ParallelState[] {state(4, -1, -1), state(3, 0, 5)}) {
      var alone = state(1, -1, -1); // each pair starts at round-robin index 0
      assertEquals(1, alone.policy.parallelism());
      try {
        assertEquals(shared.parallelism, shared.policy.parallelism());
        for (int round = 0; round < 5; round++) {
          assertEquals(benchmark.podThatFits(alone), benchmark.podThatFits(shared), "fits, round " + round);
          assertEquals(
              benchmark.podThatFitsNowhere(alone), benchmark.podThatFitsNowhere(shared), "nowhere, round " + round);
        }
      } finally {
        shared.tearDown();
      }
    }
  }

  @Test
  void a_parallelism_below_1_is_refused_naming_it() {
    var state = new ParallelPolicyBenchmark.ParallelState();
    state.nodes = 10;
    state.parallelism = 0;

    var error = assertThrows(IllegalArgumentException.class, state::setUp);

    assertEquals("parallelism must be at least 1, was 0", error.getMessage());
  }
}

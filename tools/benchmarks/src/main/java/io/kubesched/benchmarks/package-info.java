/**
 * JMH benchmarks of the policy engine ({@link io.kubesched.benchmarks.PolicyBenchmark}) over reproducible
 * synthetic clusters ({@link io.kubesched.benchmarks.SyntheticCluster}). Run from the shaded {@code
 * benchmarks.jar}; see {@code docs/benchmarks.md}.
 */
@NullMarked
package io.kubesched.benchmarks;

import org.jspecify.annotations.NullMarked;

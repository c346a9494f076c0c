/**
 * JMH benchmarks of the policy engine ({@link io.kubesched.benchmarks.PolicyBenchmark}) over reproducible
 * synthetic clusters ({@link io.kubesched.benchmarks.SyntheticCluster}). Run from the shaded {@code
 * benchmarks.jar}; run through {@code scripts/jmh.sh}; see {@code docs/performance.md}.
 */
@NullMarked
package io.kubesched.benchmarks;

import org.jspecify.annotations.NullMarked;

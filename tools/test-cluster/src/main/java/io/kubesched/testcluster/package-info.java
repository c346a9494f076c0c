/** {@link io.kubesched.testcluster.TestCluster}: a real control plane on loopback for tests and benchmarks. */
@NullMarked
package io.kubesched.testcluster;

import org.jspecify.annotations.NullMarked;

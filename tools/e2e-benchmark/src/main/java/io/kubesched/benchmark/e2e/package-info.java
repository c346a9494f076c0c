/**
 * The end-to-end benchmark: this library's scheduler beside kube-scheduler on the same real API server. See
 * docs/performance.md.
 */
@NullMarked
package io.kubesched.benchmark.e2e;

import org.jspecify.annotations.NullMarked;

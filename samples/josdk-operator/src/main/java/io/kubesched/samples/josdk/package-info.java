/**
 * A sample operator built with java-operator-sdk: the {@link io.kubesched.samples.josdk.BatchJob} resource,
 * its reconciler, which creates a job's worker pods and writes back where they were placed, and {@link
 * io.kubesched.samples.josdk.BatchOperator}, the process that runs it with kubesched embedded, sharing the
 * operator's fabric8 client and its leader election.
 */
@NullMarked
package io.kubesched.samples.josdk;

import org.jspecify.annotations.NullMarked;

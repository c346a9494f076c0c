/**
 * kube-scheduler's former {@code serviceaffinity} plugin (the {@code CheckServiceAffinity} predicate and {@code
 * ServiceAntiAffinity} priority of the scheduler Policy), with the Services of a pod they share. Internal: not
 * exported; the Policy file configures them.
 */
@NullMarked
package io.kubesched.policy.plugins.serviceaffinity;

import org.jspecify.annotations.NullMarked;

/**
 * The {@code SchedulingPolicy} custom resource ({@code kubesched.io/v1alpha1}): its types, from which the CRD is
 * generated at build time, and {@link io.kubesched.crd.SchedulingPolicyController}, which applies each one to a
 * running scheduler's profile.
 */
@NullMarked
package io.kubesched.crd;

import org.jspecify.annotations.NullMarked;

/**
 * Dynamic resource allocation (kube's {@code resource.k8s.io/v1}) as the scheduler reads it: the devices drivers
 * publish in {@link io.kubesched.api.dra.ResourceSlice}s, the {@link io.kubesched.api.dra.DeviceClass}es admins
 * define, the {@link io.kubesched.api.dra.ResourceClaim}s workloads ask through, and the {@link
 * io.kubesched.api.dra.AllocationResult}s the scheduler writes. Only the fields the scheduler reads are kept; the
 * alpha fields kube 1.37 drops unless a gate is on are not modelled.
 *
 * <p>Every type is an immutable value; collections are copied on the way in. Nothing in this package is {@code
 * null} unless marked {@code @Nullable}.
 */
@NullMarked
package io.kubesched.api.dra;

import org.jspecify.annotations.NullMarked;

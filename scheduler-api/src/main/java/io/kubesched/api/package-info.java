/**
 * The scheduler's domain model. Every type is an immutable value; collections are copied on the way in.
 *
 * <p>Dynamic resource allocation (kube's {@code resource.k8s.io/v1}) is modelled here too, with the fields the
 * scheduler reads: the devices drivers publish in {@link io.kubesched.api.ResourceSlice}s, the {@link
 * io.kubesched.api.DeviceClass}es admins define, the {@link io.kubesched.api.ResourceClaim}s workloads ask through,
 * the {@link io.kubesched.api.AllocationResult}s the scheduler writes, and what one snapshot sees of them all
 * ({@link io.kubesched.api.DynamicResources}); the alpha fields kube 1.37 drops unless a gate is on are not.
 * Nothing in this package is {@code null} unless marked {@code @Nullable}.
 */
@NullMarked
package io.kubesched.api;

import org.jspecify.annotations.NullMarked;

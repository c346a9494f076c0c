/**
 * kube's structured-parameters allocator ({@code k8s.io/dynamic-resource-allocation/structured}, the {@code
 * incubating} variant kube 1.37 runs with its default features): which devices of the published slices satisfy a
 * pod's claims on one node. Pure; internal: not exported.
 */
@NullMarked
package io.kubesched.policy.plugins.dynamicresources.structured;

import org.jspecify.annotations.NullMarked;

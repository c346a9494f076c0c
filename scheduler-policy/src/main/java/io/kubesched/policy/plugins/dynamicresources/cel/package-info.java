/**
 * Device selectors in CEL as Kubernetes' {@code k8s.io/dynamic-resource-allocation/cel} compiles and evaluates
 * them: the {@code device} variable, Kubernetes' CEL libraries, its cost limits, compiled once and cached.
 * Internal: not exported.
 */
@NullMarked
package io.kubesched.policy.plugins.dynamicresources.cel;

import org.jspecify.annotations.NullMarked;

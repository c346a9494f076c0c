/**
 * The scheduler's domain model. Every type is an immutable value; collections are copied on the way in.
 * Nothing in this package is {@code null} unless marked {@code @Nullable}.
 */
@NullMarked
package io.kubesched.api;

import org.jspecify.annotations.NullMarked;

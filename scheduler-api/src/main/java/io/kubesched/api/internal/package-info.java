/** Internal: what the scheduler's engine hands the domain model beyond its public API. Not for policies. */
@NullMarked
package io.kubesched.api.internal;

import org.jspecify.annotations.NullMarked;

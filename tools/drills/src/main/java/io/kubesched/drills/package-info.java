/**
 * The fault drills: this library's scheduler on a real API server under a steady stream of pods, one fault
 * per trial, the invariants checked after each. See docs/reliability.md.
 */
@NullMarked
package io.kubesched.drills;

import org.jspecify.annotations.NullMarked;

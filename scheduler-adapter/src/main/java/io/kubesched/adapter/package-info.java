/** Pure functions from fabric8 model objects to {@link io.kubesched.api} values. No I/O. */
@NullMarked
package io.kubesched.adapter;

import org.jspecify.annotations.NullMarked;

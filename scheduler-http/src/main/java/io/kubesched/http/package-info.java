/**
 * A fabric8 HTTP client whose requests run on the calling thread ({@link io.kubesched.http.BlockingHttpClient}).
 * Internal.
 */
@NullMarked
package io.kubesched.http;

import org.jspecify.annotations.NullMarked;

/**
 * The server's log lines on Logback: {@link io.kubesched.server.logging.LogLine} (one event as the fields a
 * line carries), its two formats ({@link io.kubesched.server.logging.TextLineEncoder}, {@link
 * io.kubesched.server.logging.JsonLineEncoder}), {@link io.kubesched.server.logging.Verbosity} (kube's
 * {@code -v} as Logback levels) and {@link io.kubesched.server.logging.LogSetup}, which installs them. Libraries
 * never see this package: they log through slf4j-api only.
 */
@NullMarked
package io.kubesched.server.logging;

import org.jspecify.annotations.NullMarked;

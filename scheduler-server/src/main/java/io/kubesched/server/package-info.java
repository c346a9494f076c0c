/**
 * The runnable scheduler ({@link io.kubesched.server.Main}), and the same program with plugins of one's own ({@link
 * io.kubesched.server.KubeschedServer}, the one type to use): flags, a KubeSchedulerConfiguration as the facade's
 * options (through the facade's {@code SchedulerSetup}), the HTTP endpoints, decision logging and the process's lifecycle.
 */
@NullMarked
package io.kubesched.server;

import org.jspecify.annotations.NullMarked;

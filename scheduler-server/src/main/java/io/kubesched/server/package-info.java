/**
 * The runnable scheduler ({@link io.kubesched.server.Main}): flags, the mapping of a KubeSchedulerConfiguration
 * onto the facade's options, the HTTP endpoints, decision logging and the process's lifecycle.
 */
@NullMarked
package io.kubesched.server;

import org.jspecify.annotations.NullMarked;

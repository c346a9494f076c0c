/**
 * The scheduling loop composed: {@link io.kubesched.informer.SchedulingLoop} (the lifecycle, its threads and
 * the API server's ports), {@link io.kubesched.informer.LoopParts} (the parts wired, with clock, executors and
 * ports injected) and the {@link io.kubesched.informer.ControllerSettings} it runs with. The parts are in the
 * packages below: {@code watch}, {@code cycle}, {@code leader}, {@code report}.
 */
@NullMarked
package io.kubesched.informer;

import org.jspecify.annotations.NullMarked;

/**
 * A Spring Boot application that schedules the pods of {@code spot-first} with kube-scheduler's defaults plus
 * a preference for spot nodes ({@link io.kubesched.samples.boot.SpotNodes}).
 */
@NullMarked
package io.kubesched.samples.boot;

import org.jspecify.annotations.NullMarked;

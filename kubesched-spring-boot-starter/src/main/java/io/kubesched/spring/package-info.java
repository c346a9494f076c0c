/**
 * kubesched in a Spring Boot application: {@link io.kubesched.spring.KubeschedAutoConfiguration}, its
 * properties ({@code kubesched.*}, {@link io.kubesched.spring.KubeschedProperties}) and {@link
 * io.kubesched.spring.KubeschedOptionsCustomizer}.
 */
@NullMarked
package io.kubesched.spring;

import org.jspecify.annotations.NullMarked;

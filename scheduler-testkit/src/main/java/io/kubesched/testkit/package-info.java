/** jqwik arbitraries of the scheduler's domain model and a contract for placement policies. */
@NullMarked
package io.kubesched.testkit;

import org.jspecify.annotations.NullMarked;

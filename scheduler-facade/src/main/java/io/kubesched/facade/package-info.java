/**
 * The public entry points. Create a {@link io.kubesched.facade.Client} from {@link
 * io.kubesched.facade.Options}, then a {@link io.kubesched.facade.Controller} from your {@link
 * io.kubesched.api.FinderFunc}:
 *
 * <pre>{@code
 * try (Client client = Client.create(Options.builder().schedulerName("my-scheduler").build());
 *     Controller controller = client.newPodController((pod, nodes) -> Decision.bind(nodes.get(0).name()))) {
 *   controller.run();
 * }
 * }</pre>
 */
@NullMarked
package io.kubesched.facade;

import org.jspecify.annotations.NullMarked;

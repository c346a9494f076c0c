package io.kubesched.e2e;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a {@link RealCluster}: started once for the whole run at first use, stopped when the run
 * ends (JUnit closes it as an {@link AutoCloseable} value of the root store).
 */
final class RealClusterExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RealClusterExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == RealCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(RealCluster.class, key -> start(), RealCluster.class);
  }

  private static RealCluster start() {
    try {
      return RealCluster.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the test cluster: " + e.getMessage(), e);
    }
  }
}

package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A compiled selector (kube's {@code CompilationResult}): its program is immutable, so many threads may match. */
final class CompiledSelector implements DeviceSelector {

  private final String expression;
  private final CelRuntime.Program program;

  CompiledSelector(String expression, CelRuntime.Program program) {
    this.expression = expression;
    this.program = program;
  }

  @Override
  public String expression() {
    return expression;
  }

  @Override
  public boolean matches(String driver, Device device) throws SelectorException {
    var attributes = new HashMap<String, Map<String, Object>>();
    for (var entry : device.attributes().entrySet()) {
      Object value = attributeValue(entry.getKey(), entry.getValue());
      var name = QualifiedName.of(entry.getKey(), driver);
      attributes.computeIfAbsent(name.domain(), d -> new HashMap<>()).put(name.id(), value);
    }
    var capacity = new HashMap<String, Map<String, Object>>();
    for (Map.Entry<String, DeviceCapacity> entry : device.capacity().entrySet()) {
      var name = QualifiedName.of(entry.getKey(), driver);
      capacity.computeIfAbsent(name.domain(), d -> new HashMap<>()).put(name.id(), entry.getValue().value());
    }
    Map<String, Object> deviceValue =
        Map.of(
            SelectorEnvironment.DRIVER, driver,
            SelectorEnvironment.MULTI_ALLOC, device.allowMultipleAllocations(),
            SelectorEnvironment.ATTRIBUTES, new DefaultingMap(attributes),
            SelectorEnvironment.CAPACITY, new DefaultingMap(capacity));
    Object result;
    var cost = new CostTracker();
    try {
      result = program.trace(Map.of(SelectorEnvironment.DEVICE, deviceValue), cost);
    } catch (CostTracker.LimitExceeded e) {
      throw new SelectorException(CostTracker.LIMIT_EXCEEDED);
    } catch (CelEvaluationException e) {
      if (CostTracker.exceeded(e)) {
        throw new SelectorException(CostTracker.LIMIT_EXCEEDED);
      }
      throw new SelectorException(KubeMessages.evaluation(e, expression));
    }
    if (result instanceof Boolean matches) {
      return matches;
    }
    throw new SelectorException("CEL result of type " + KubeMessages.typeName(result)
        + " could not be converted to bool");
  }

  private static Object attributeValue(String name, DeviceAttribute attribute) throws SelectorException {
    if (attribute instanceof DeviceAttribute.IntValue v) {
      return v.value();
    }
    if (attribute instanceof DeviceAttribute.BoolValue v) {
      return v.value();
    }
    if (attribute instanceof DeviceAttribute.StringValue v) {
      return v.value();
    }
    return version(name, ((DeviceAttribute.VersionValue) attribute).value());
  }

  private static Semver version(String name, String text) throws SelectorException {
    try {
      return Semver.parse(text);
    } catch (IllegalArgumentException e) {
      throw new SelectorException("attribute " + name + ": parse semantic version: " + e.getMessage());
    }
  }

  /**
   * kube's {@code newStringInterfaceMapWithDefault}: a domain the device lacks reads as an empty map, while {@code
   * in} ({@link #has}, bound to {@code in_map} by the environment) and iteration see only the domains it has.
   */
  static final class DefaultingMap extends AbstractMap<String, Map<String, Object>> {
    private final Map<String, Map<String, Object>> entries;

    DefaultingMap(Map<String, Map<String, Object>> entries) {
      this.entries = entries;
    }

    @Override
    public Map<String, Object> get(Object key) {
      return entries.getOrDefault(key, Map.of());
    }

    @Override
    public boolean containsKey(Object key) {
      return true;
    }

    boolean has(Object key) {
      return entries.containsKey(key);
    }

    @Override
    public Set<Entry<String, Map<String, Object>>> entrySet() {
      return entries.entrySet();
    }
  }

  /** A qualified attribute or capacity name split as kube's {@code parseQualifiedName}. */
  private record QualifiedName(String domain, String id) {
    static QualifiedName of(String name, String driver) {
      int slash = name.indexOf('/');
      return slash < 0 ? new QualifiedName(driver, name)
          : new QualifiedName(name.substring(0, slash), name.substring(slash + 1));
    }
  }
}

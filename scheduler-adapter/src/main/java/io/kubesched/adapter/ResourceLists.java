package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.MalformedObjectException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A Kubernetes {@code ResourceList} (resource name to quantity) read exactly. */
final class ResourceLists {

  private ResourceLists() {}

  /**
   * @param list the resource list, {@code null} or empty for none
   * @param object the owning object for error messages, e.g. {@code pod default/web}
   * @param field the list's path for error messages, e.g. {@code spec.containers[app].resources.requests}
   * @throws MalformedObjectException naming {@code object}, the entry's field and its value, if a quantity
   *     is malformed or negative
   */
  static ExactResources read(@Nullable Map<String, Quantity> list, String object, String field) {
    if (list == null || list.isEmpty()) {
      return ExactResources.NONE;
    }
    var texts = new HashMap<String, String>();
    list.forEach((name, quantity) -> texts.put(name, text(quantity)));
    return readTexts(texts, object, field);
  }

  /**
   * {@link #read} for a list whose quantities are still text, as in an object fabric8 has not typed.
   *
   * @throws MalformedObjectException naming {@code object}, the entry's field and its value, if a quantity
   *     is malformed or negative
   */
  static ExactResources readTexts(Map<String, String> list, String object, String field) {
    var amounts = new HashMap<String, BigDecimal>();
    for (var entry : list.entrySet()) {
      var text = entry.getValue();
      try {
        amounts.put(entry.getKey(), Quantities.exact(text));
      } catch (IllegalArgumentException e) {
        throw new MalformedObjectException(
            object, field + "[" + entry.getKey() + "]", text, e.getMessage(), e);
      }
    }
    return new ExactResources(amounts);
  }

  private static String text(@Nullable Quantity quantity) {
    if (quantity == null) {
      return "";
    }
    var amount = quantity.getAmount() == null ? "" : quantity.getAmount();
    var format = quantity.getFormat() == null ? "" : quantity.getFormat();
    return amount + format;
  }
}

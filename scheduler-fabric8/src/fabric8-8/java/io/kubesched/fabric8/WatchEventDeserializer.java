package io.kubesched.fabric8;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.util.JsonParserSequence;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.util.TokenBuffer;

/**
 * Decodes a watch event in one pass, where fabric8's own decoding takes two: its {@code KubernetesDeserializer}
 * reads the event's object into a tree of JSON nodes, looks up the class of its {@code apiVersion} and {@code
 * kind} there, and converts the tree to that class. This one reads the object's first two properties, and when
 * they are its {@code kind} and {@code apiVersion} (the API server writes every object's type first), decodes
 * the rest of the object straight into the class those name, as fabric8 would find it: the serialization's
 * registered class, or {@code GenericKubernetesResource} for a kind not registered. Anything else (the type
 * later in the object, a type that is not a string, an object that is not a JSON object) goes to fabric8's
 * deserializer, as before. So the result is the one fabric8's decoding gives, only without the tree: at 5 000
 * nodes the trees were about a tenth of the scheduler's allocation (the memory notes,
 * docs/performance.md#measurement-notes).
 *
 * <p>Written here rather than taken from a library because the type lookup is fabric8's and the result must be
 * exactly fabric8's model; Jackson has no one-pass polymorphic decoding keyed on two properties. Stateless and
 * thread-safe, like any Jackson deserializer.
 */
final class WatchEventDeserializer extends ValueDeserializer<WatchEvent> {

  private static final String KIND = "kind";
  private static final String API_VERSION = "apiVersion";

  /** The serialization's registered class of an {@code apiVersion} and {@code kind}, or {@code null}. */
  private final BiFunction<String, String, @Nullable Class<? extends KubernetesResource>> registered;

  /**
   * @param registered the class registered for an {@code apiVersion} and {@code kind} (in that order), or
   *     {@code null}: fabric8's {@code KubernetesSerialization.getRegisteredKubernetesResource}
   */
  WatchEventDeserializer(BiFunction<String, String, @Nullable Class<? extends KubernetesResource>> registered) {
    this.registered = registered;
  }

  /**
   * The mapper's root deserializer of each class an event's object was decoded into, found once. {@code
   * DeserializationContext.readValue} finds it again on every call, and finding it introspects the class's
   * annotations each time (for a type deserializer, which no fabric8 model class has): a fifth of decoding a
   * watch event, by a profile of the 500-node backlog. Jackson's own {@code ObjectReader} keeps its root
   * deserializer the same way. One instance serves one mapper ({@code LeanSerialization} makes one per mapper).
   */
  private final Map<Class<?>, ValueDeserializer<Object>> rootDeserializers = new ConcurrentHashMap<>();

  @Override
  public WatchEvent deserialize(JsonParser p, DeserializationContext ctxt) {
    if (!p.isExpectedStartObjectToken()) {
      return (WatchEvent) ctxt.handleUnexpectedToken(WatchEvent.class, p);
    }
    var event = new WatchEvent();
    for (var name = p.nextName(); name != null; name = p.nextName()) {
      var token = p.nextToken();
      switch (name) {
        case "type" -> event.setType(type(p, token, ctxt));
        case "object" -> event.setObject(token == JsonToken.VALUE_NULL ? null : object(p, ctxt));
        default -> event.setAdditionalProperty(name, ctxt.readValue(p, Object.class));
      }
    }
    return event;
  }

  /** The event's type, the parser on its token: a string read as it is, anything else Jackson's way. */
  private static @Nullable String type(JsonParser p, @Nullable JsonToken token, DeserializationContext ctxt) {
    if (token == JsonToken.VALUE_STRING) {
      return p.getString();
    }
    return token == JsonToken.VALUE_NULL ? null : ctxt.readValue(p, String.class);
  }

  /** The root deserializer of {@code type}, found once and kept; {@code null} if the mapper has none. */
  private @Nullable ValueDeserializer<Object> rootDeserializer(Class<?> type, DeserializationContext ctxt) {
    var known = rootDeserializers.get(type);
    if (known != null) {
      return known;
    }
    var found = ctxt.findRootValueDeserializer(ctxt.constructType(type));
    if (found != null) {
      rootDeserializers.putIfAbsent(type, found);
    }
    return found;
  }

  /** The event's object, the parser on its first token; leaves the parser on its last. */
  private Object object(JsonParser p, DeserializationContext ctxt) {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      return ctxt.readValue(p, KubernetesResource.class);
    }
    var head = TokenBuffer.forBuffering(p, ctxt);
    head.writeStartObject();
    @Nullable String kind = null;
    @Nullable String apiVersion = null;
    boolean ended = false;
    for (int read = 0; read < 2; read++) {
      var name = p.nextName();
      if (name == null) {
        ended = true; // an object of fewer than two properties: fabric8's way
        break;
      }
      var token = p.nextToken();
      head.writeName(name);
      head.copyCurrentStructure(p);
      if (token != JsonToken.VALUE_STRING) {
        break;
      }
      if (name.equals(KIND) && kind == null) {
        kind = p.getString();
      } else if (name.equals(API_VERSION) && apiVersion == null) {
        apiVersion = p.getString();
      } else {
        break;
      }
    }
    if (kind != null && apiVersion != null) {
      Class<? extends KubernetesResource> type = registered.apply(apiVersion, kind);
      if (type == null) {
        type = GenericKubernetesResource.class;
      }
      var rest = JsonParserSequence.createFlattened(false, head.asParser(ctxt, p), p);
      rest.nextToken();
      var deserializer = rootDeserializer(type, ctxt);
      return deserializer != null ? deserializer.deserialize(rest, ctxt) : ctxt.readValue(rest, type);
    }
    // The rest of the object as it is, then fabric8's deserializer over the whole.
    if (!ended) {
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        head.copyCurrentStructure(p);
      }
    }
    head.writeEndObject();
    return ctxt.readValue(head.asParserOnFirstToken(ctxt, p), KubernetesResource.class);
  }
}

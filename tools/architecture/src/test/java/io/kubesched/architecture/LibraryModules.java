package io.kubesched.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** The library's module descriptors as they are on this test's class path, one {@code module-info.class} each. */
final class LibraryModules {

  private LibraryModules() {}

  /** @return the descriptors of the modules named {@code io.kubesched.*}, in no particular order */
  static List<ModuleDescriptor> descriptors() {
    try {
      var found = LibraryModules.class.getClassLoader().getResources("module-info.class");
      var modules = new ArrayList<ModuleDescriptor>();
      while (found.hasMoreElements()) {
        try (var in = found.nextElement().openStream()) {
          var descriptor = ModuleDescriptor.read(in);
          if (descriptor.name().startsWith("io.kubesched.")) {
            modules.add(descriptor);
          }
        }
      }
      return List.copyOf(modules);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @param modules the library's descriptors
   * @return each qualified export ({@code exports … to}) naming a module that is not one of {@code modules}, as
   *     "module exports package to target": a published module must not open its internals to a tool
   */
  static List<String> exportsOutside(List<ModuleDescriptor> modules) {
    var names = modules.stream().map(ModuleDescriptor::name).collect(Collectors.toSet());
    var outside = new ArrayList<String>();
    for (var module : modules) {
      for (var export : module.exports()) {
        for (var target : export.targets()) {
          if (!names.contains(target)) {
            outside.add(module.name() + " exports " + export.source() + " to " + target);
          }
        }
      }
    }
    return List.copyOf(outside);
  }

  /** @return the packages the library exports to everyone, sorted: what users may import on the module path */
  static List<String> exportedPackages() {
    var packages = new TreeSet<String>();
    for (var module : descriptors()) {
      module.exports().stream()
          .filter(export -> !export.isQualified())
          .forEach(export -> packages.add(export.source()));
    }
    return List.copyOf(packages);
  }
}

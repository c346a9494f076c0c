package io.kubesched.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The library's own classes obey every rule of {@link ArchitectureRules}. */
class ArchitectureTest {

  /** The most top-level types the library promises to keep (docs/architecture.md, "Modules"). */
  private static final int MOST_STABLE_TYPES = 60;

  private static JavaClasses library;

  @BeforeAll
  static void importLibrary() {
    library =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.kubesched");
  }

  @TestFactory
  Stream<DynamicTest> the_library_obeys_every_rule() {
    return ArchitectureRules.all("io.kubesched").stream()
        .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> check(rule)));
  }

  @Test
  void every_library_module_is_imported_so_no_rule_passes_vacuously() {
    for (var module : List.of(
        "api", "fabric8", "adapter", "binder", "http", "k8s", "engine", "informer", "facade", "policy", "testkit",
        "micrometer", "crd", "server")) {
      var pkg = "io.kubesched." + module;
      assertTrue(library.containPackage(pkg), "no classes of " + pkg + " were imported");
    }
  }

  @Test
  void every_public_type_users_can_import_states_its_status() {
    var exported = LibraryModules.exportedPackages();
    for (var pkg : List.of("io.kubesched.api", "io.kubesched.facade", "io.kubesched.policy")) {
      assertTrue(exported.contains(pkg), pkg + " is not among the exported packages " + exported);
    }
    check(ArchitectureRules.publicTypesOfExportedPackagesStateTheirStatus(exported));
  }

  @Test
  void no_module_of_the_library_exports_to_a_tool() {
    var modules = LibraryModules.descriptors();
    assertTrue(modules.size() >= 10, "too few library modules found: " + modules);
    assertEquals(List.of(), LibraryModules.exportsOutside(modules));
  }

  @Test
  void an_export_to_a_tool_is_caught() {
    var library = ModuleDescriptor.newModule("io.kubesched.lib").exports(Set.of(), "io.kubesched.lib.internal",
        Set.of("io.kubesched.lib2", "io.kubesched.benchmarks")).build();
    var sibling = ModuleDescriptor.newModule("io.kubesched.lib2").build();
    assertEquals(List.of("io.kubesched.lib exports io.kubesched.lib.internal to io.kubesched.benchmarks"),
        LibraryModules.exportsOutside(List.of(library, sibling)));
  }

  /**
   * What a user needs for the README's and the docs' tasks is promised to stay (STABLE or MAINTAINED), and it is
   * kept small: whatever else an exported package holds is EXPERIMENTAL or INTERNAL and says so.
   */
  @Test
  void the_types_users_can_rely_on_stay_few() {
    var exported = LibraryModules.exportedPackages();
    var kept =
        library.stream()
            .filter(type -> type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PUBLIC))
            .filter(type -> exported.contains(type.getPackageName()))
            .filter(type -> type.tryGetAnnotationOfType(API.class)
                .map(api -> api.status() == API.Status.STABLE || api.status() == API.Status.MAINTAINED)
                .orElse(false))
            .map(JavaClass::getName)
            .sorted()
            .toList();
    assertTrue(kept.size() >= 20, "too few to be the user's API, is the import complete? " + kept);
    assertTrue(kept.size() <= MOST_STABLE_TYPES, kept.size() + " STABLE or MAINTAINED types: " + kept);
  }

  private static void check(ArchRule rule) {
    rule.check(library);
  }
}

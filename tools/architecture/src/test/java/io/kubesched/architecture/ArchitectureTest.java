package io.kubesched.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The library's own classes obey every rule of {@link ArchitectureRules}. */
class ArchitectureTest {

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
        "api", "adapter", "binder", "http", "k8s", "engine", "informer", "facade", "policy", "testkit",
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

  private static void check(ArchRule rule) {
    rule.check(library);
  }
}

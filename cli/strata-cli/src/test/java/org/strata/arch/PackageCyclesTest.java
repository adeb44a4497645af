package org.strata.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Package cycles in Strata's main code, over every module on this class path (all but the
 * AsterixDB extension and the benchmarks): none between top-level packages, and none between any
 * two packages (docs/architecture.md, "Package cycles").
 */
class PackageCyclesTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")
            && !location.contains("/test-classes/"))
        .importPackages("org.strata");
  }

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching("org.strata.(*)..").should().beFreeOfCycles().check(classes);
  }

  /**
   * Every package against every other, lsm-core's root {@code org.strata.lsm} (the API's value
   * types and exceptions, which depend on no other package) included.
   */
  @Test
  void noTwoPackagesFormACycle() {
    slices().matching("org.strata.(**)").should().beFreeOfCycles().check(classes);
  }
}

/**
 * Google's CEL for Java, cel-java (dev.cel:cel and the artifacts it is split into), unchanged, as one module: its
 * artifacts share packages and name no module of their own. Every package is exported as cel-java's jars export
 * them on the class path.
 */
@SuppressWarnings("module") // com.google.protobuf and re2j are automatic modules
module dev.cel {
  requires transitive com.google.common;
  requires transitive com.google.protobuf;
  requires re2j;
  requires org.antlr.antlr4.runtime;
  requires org.threeten.extra;
  requires static org.jspecify;

  exports cel.parser.internal;
  exports dev.cel.bundle;
  exports dev.cel.checker;
  exports dev.cel.common;
  exports dev.cel.common.annotations;
  exports dev.cel.common.ast;
  exports dev.cel.common.exceptions;
  exports dev.cel.common.formats;
  exports dev.cel.common.internal;
  exports dev.cel.common.navigation;
  exports dev.cel.common.types;
  exports dev.cel.common.values;
  exports dev.cel.compiler;
  exports dev.cel.expr;
  exports dev.cel.extensions;
  exports dev.cel.optimizer;
  exports dev.cel.optimizer.optimizers;
  exports dev.cel.parser;
  exports dev.cel.policy;
  exports dev.cel.runtime;
  exports dev.cel.runtime.planner;
  exports dev.cel.runtime.standard;
  exports dev.cel.validator;
  exports dev.cel.validator.validators;
}

# An offline stand-in for rules_java's defs.bzl: Bazel's native rules
# under the names Bazel 4's own tools load (tests/bazel/README.md).
java_binary = native.java_binary
java_import = native.java_import
java_library = native.java_library
java_proto_library = native.java_proto_library
java_runtime = native.java_runtime
java_toolchain = native.java_toolchain

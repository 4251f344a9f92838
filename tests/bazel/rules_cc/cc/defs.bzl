# An offline stand-in for rules_cc's defs.bzl: Bazel's native rules
# under the names Bazel 4's own tools load (tests/bazel/README.md).
cc_binary = native.cc_binary
cc_library = native.cc_library
cc_test = native.cc_test
cc_import = native.cc_import
cc_proto_library = native.cc_proto_library
cc_toolchain = native.cc_toolchain
cc_toolchain_suite = native.cc_toolchain_suite
objc_library = native.objc_library

"""probegen_library: a D provider file as a cc_library.

    load("@rules_probegen//:defs.bzl", "probegen_library")

    probegen_library(name = "app_probes", src = "app.d")
    cc_binary(name = "app", srcs = ["app.c"], deps = [":app_probes"])

app.c then includes "app.h" (a header's base name, wherever it is).  The header is probegen -h's; unless
header_only, the library also links probegen -G's object, for the CPU of
the C++ toolchain Bazel builds for.  The probegen tool is a target
(default @probegen//:probegen, built from its sources by probegen.BUILD),
never a program found on the host, so the actions are hermetic; its
outputs carry no path, time or host name, so a remote or disk cache
serves them to every machine.
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

# The C++ toolchain's CPU names, as probegen --target spells them.
_CPUS = {
    "k8": "x86_64",
    "x86_64": "x86_64",
    "piii": "i386",
    "i386": "i386",
    "i686": "i386",
    "aarch64": "aarch64",
    "arm64": "aarch64",
    "armeabi-v7a": "arm",
    "arm": "arm",
    "riscv64": "riscv64",
    "ppc": "ppc64le",
    "ppc64le": "ppc64le",
    "s390x": "s390x",
}

def _probegen_files_impl(ctx):
    src = ctx.file.src
    flags = ["-D" + d for d in ctx.attr.defines]
    if ctx.attr.includes:
        # -C runs the C preprocessor over the provider file.
        flags += ["-C"] + ["-I" + i for i in ctx.attr.includes]
    header_flags = []
    if ctx.attr.header_only:
        header_flags.append("--header-only")
    if ctx.attr.self_contained:
        header_flags.append("--self-contained")
    ctx.actions.run(
        executable = ctx.executable.probegen,
        arguments = ["-h"] + header_flags + flags + ["-s", src.path, "-o", ctx.outputs.header.path],
        inputs = [src],
        outputs = [ctx.outputs.header],
        mnemonic = "ProbegenHeader",
        progress_message = "probegen -h %s" % src.short_path,
    )
    outputs = [ctx.outputs.header]
    if ctx.outputs.object:
        obj = ctx.outputs.object
        cpu = find_cpp_toolchain(ctx).cpu
        target = ["--target", _CPUS[cpu]] if cpu in _CPUS else []
        ctx.actions.run(
            executable = ctx.executable.probegen,
            arguments = ["-G"] + target + flags + ["-s", src.path, "-o", obj.path],
            inputs = [src],
            outputs = [obj],
            mnemonic = "ProbegenObject",
            progress_message = "probegen -G %s" % src.short_path,
        )
        outputs.append(obj)
    return [DefaultInfo(files = depset(outputs))]

_probegen_files = rule(
    implementation = _probegen_files_impl,
    attrs = {
        "src": attr.label(allow_single_file = [".d"], mandatory = True),
        "header": attr.output(mandatory = True),
        "object": attr.output(),
        "header_only": attr.bool(),
        "self_contained": attr.bool(),
        "defines": attr.string_list(),
        "includes": attr.string_list(),
        "probegen": attr.label(
            default = "@probegen//:probegen",
            executable = True,
            cfg = "exec",
        ),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    fragments = ["cpp"],
)

def probegen_library(
        name,
        src,
        header = None,
        header_only = False,
        self_contained = False,
        defines = [],
        includes = [],
        deps = [],
        probegen = "@probegen//:probegen",
        **kwargs):
    """A cc_library of the provider file src: its header (src's base name
    with .h, or `header`) and, unless header_only, its -G object.

    defines: -D flags, as SystemTap's dtrace takes them (STAP_SDT_V2: the
    semaphores' visibility).  includes: -I directories; given, the provider
    file goes through the C preprocessor (-C).  Other arguments (visibility,
    tags, ...) go to the cc_library."""
    if header == None:
        base = src.split(":")[-1].split("/")[-1]
        header = (base[:-2] if base.endswith(".d") else base) + ".h"
    _probegen_files(
        name = name + "_files",
        src = src,
        header = header,
        object = None if header_only else name + "_probes.o",
        header_only = header_only,
        self_contained = self_contained,
        defines = defines,
        includes = includes,
        probegen = probegen,
        visibility = ["//visibility:private"],
    )
    # Included by its base name, as SystemTap-style code includes it.
    where = "/".join([p for p in [native.package_name(), header.rpartition("/")[0]] if p])
    native.cc_library(
        name = name,
        hdrs = [header],
        srcs = [] if header_only else [name + "_probes.o"],
        strip_include_prefix = "/" + where if where else None,
        deps = deps,
        **kwargs
    )

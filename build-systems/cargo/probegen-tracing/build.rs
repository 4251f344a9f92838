// The probes of tracing.d, in OUT_DIR for src/lib.rs to include!.
fn main() {
    probegen_build::provider("tracing.d");
}

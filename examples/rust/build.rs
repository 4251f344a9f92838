// The Rust module of probes.d, in OUT_DIR for src/main.rs to include!.
fn main() {
    probegen_build::provider("probes.d");
}

// Runs probegen on probes.d and leaves the Rust module in OUT_DIR for
// src/main.rs to include!.  probegen is taken from $PROBEGEN, else PATH.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let provider = "probes.d";
    println!("cargo:rerun-if-changed={provider}");
    println!("cargo:rerun-if-env-changed=PROBEGEN");
    let probegen = env::var("PROBEGEN").unwrap_or_else(|_| "probegen".to_string());
    if probegen.contains('/') {
        // A new probegen may write a different module.
        println!("cargo:rerun-if-changed={probegen}");
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("probes.rs");
    let status = Command::new(&probegen)
        .args(["--rust", "-s", provider, "-o"])
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {probegen}: {e} (install probegen or set PROBEGEN)"));
    assert!(status.success(), "probegen failed on {provider}");
}

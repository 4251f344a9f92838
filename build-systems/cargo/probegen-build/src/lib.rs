//! Run `probegen --rust` from a `build.rs` in one line:
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     probegen_build::provider("probes.d");
//! }
//! ```
//!
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/probes.rs"));`
//! (the module is named after the provider file).
//!
//! probegen is taken from `$PROBEGEN`, else from `PATH`.  Cargo is told to
//! run the build script again when the provider file, `$PROBEGEN` or the
//! probegen program given there changes.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Write the Rust module of the D provider file `file` (relative to the
/// crate's root) into `OUT_DIR` as `<base name>.rs`, and return its path.
/// Panics, saying how to get probegen, when it cannot run; panics with
/// probegen's own messages (already printed) when the file is invalid.
pub fn provider(file: impl AsRef<Path>) -> PathBuf {
    let file = file.as_ref();
    println!("cargo:rerun-if-changed={}", file.display());
    println!("cargo:rerun-if-env-changed=PROBEGEN");
    let probegen = env::var("PROBEGEN").unwrap_or_else(|_| "probegen".to_string());
    if probegen.contains('/') {
        // A new probegen may write a different module.
        println!("cargo:rerun-if-changed={probegen}");
    }
    let stem = file
        .file_stem()
        .unwrap_or_else(|| panic!("probegen_build: '{}' has no file name", file.display()));
    let out_dir = env::var_os("OUT_DIR").expect("probegen_build: OUT_DIR is not set (call it from build.rs)");
    let out = PathBuf::from(out_dir).join(stem).with_extension("rs");
    let status = Command::new(&probegen)
        .arg("--rust")
        .arg("-s")
        .arg(file)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "probegen_build: cannot run '{probegen}': {e}\n\
                 Install probegen (from its source: make && make install), \
                 or set PROBEGEN to the path of the probegen program."
            )
        });
    assert!(
        status.success(),
        "probegen_build: probegen failed on '{}' (see its messages above)",
        file.display()
    );
    out
}

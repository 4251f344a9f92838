//! A service already annotated for `tracing`: its `#[instrument]`ed
//! functions and its events become USDT probes with one line in `main`,
//! to be seen with `probegen --trace` or bpftrace while it runs.
use std::time::Duration;

use tracing::{info, instrument, warn};
use tracing_subscriber::prelude::*;

#[instrument]
fn handle(id: u32, path: &str) -> usize {
    let bytes = lookup(path);
    if bytes == 0 {
        warn!(id, "not found: {path}");
    } else {
        info!(id, bytes, "served {path}");
    }
    bytes
}

#[instrument(level = "debug")]
fn lookup(path: &str) -> usize {
    std::thread::sleep(Duration::from_millis(2));
    if path.ends_with(".html") { 1024 } else { 0 }
}

fn main() {
    tracing_subscriber::registry()
        .with(probegen_tracing::UsdtLayer::new())
        .init();
    let rounds: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    for id in 0..rounds {
        handle(id, if id % 4 == 3 { "/missing" } else { "/index.html" });
        std::thread::sleep(Duration::from_millis(20));
    }
}

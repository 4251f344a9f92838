//! Fires the probes of probes.d, as a program instrumented with probegen
//! would: typed calls, an enabled check, and a lazy closure.
include!(concat!(env!("OUT_DIR"), "/probes.rs"));

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

static LAZY_CALLS: AtomicU32 = AtomicU32::new(0);

/// Costly to compute: the lazy form only calls it while traced.
fn describe(id: i32) -> String {
    LAZY_CALLS.fetch_add(1, Ordering::Relaxed);
    format!("request number {id}")
}

fn main() {
    let rounds: i32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let data = [0u8; 4];
    let mut enabled_seen = 0;
    for id in 0..rounds {
        let start = Instant::now();
        if rustapp::request_start_enabled() {
            enabled_seen += 1;
        }
        rustapp::request_start(id, "/index.html");
        rustapp::values(-5, 250, -300, 60000, -70000, 4000000000, -5000000000,
            18000000000000000000, -9000000000000000000, u64::MAX,
            data.as_ptr() as *const core::ffi::c_void, id);
        rustapp::described_lazy(|| (id, describe(id)));
        rustapp::tick();
        rustapp::request_done(id, start.elapsed().as_nanos() as i64, 200);
        std::thread::sleep(Duration::from_millis(20));
    }
    println!("semaphore seen: {}", if enabled_seen > 0 { "yes" } else { "no" });
    println!("lazy closure calls: {}", LAZY_CALLS.load(Ordering::Relaxed));
}

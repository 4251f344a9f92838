//! What probegen_tracing::UsdtLayer adds to an #[instrument]ed call and
//! to an event while nothing traces: the same calls with no subscriber,
//! under a registry alone, under a registry with a layer that does
//! nothing (Identity: tracing-subscriber's registry is slower alone than
//! layered, so this is the fair reference) and with UsdtLayer, in
//! alternating rounds (so that this machine's slow stretches fall on
//! all), best round of each.  Prints "WHAT NONE REGISTRY IDENTITY USDT",
//! nanoseconds per call, for spans and for events.
use std::hint::black_box;
use std::time::Instant;

use tracing::dispatcher::{self, Dispatch};
use tracing::{info, instrument};
use tracing_subscriber::prelude::*;

#[instrument]
fn work(id: u64, path: &str) -> u64 {
    black_box(id) + path.len() as u64
}

fn event(id: u64) {
    info!(id, "request served");
}

fn per_call(dispatch: &Dispatch, calls: u64, f: fn(u64)) -> f64 {
    dispatcher::with_default(dispatch, || {
        let start = Instant::now();
        for i in 0..calls {
            f(i);
        }
        start.elapsed().as_nanos() as f64 / calls as f64
    })
}

fn main() {
    let calls: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2_000_000);
    let plain = Dispatch::new(tracing_subscriber::registry());
    let identity = Dispatch::new(tracing_subscriber::registry().with(tracing_subscriber::layer::Identity::new()));
    let layered = Dispatch::new(tracing_subscriber::registry().with(probegen_tracing::UsdtLayer::new()));
    let span: fn(u64) = |i| {
        black_box(work(i, "/index.html"));
    };
    for (what, f) in [("span", span), ("event", event as fn(u64))] {
        let (mut best_plain, mut best_layer, mut best_none, mut best_identity) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..7 {
            best_layer = best_layer.min(per_call(&layered, calls, f));
            best_plain = best_plain.min(per_call(&plain, calls, f));
            best_none = best_none.min(per_call(&Dispatch::none(), calls, f));
            best_identity = best_identity.min(per_call(&identity, calls, f));
        }
        println!("{what} {best_none:.1} {best_plain:.1} {best_identity:.1} {best_layer:.1}");
    }
}

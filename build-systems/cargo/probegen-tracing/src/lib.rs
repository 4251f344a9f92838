//! `tracing` spans and events as USDT probes.
//!
//! [`UsdtLayer`] is a [`tracing_subscriber::Layer`] that fires the probes
//! of provider `tracing` (its `tracing.d`, compiled by probegen when this
//! crate builds):
//!
//! * `tracing:span__enter(id, name, target, fields)` when a span is entered,
//! * `tracing:span__exit(id, name, target, fields)` when it is exited,
//! * `tracing:event(level, target, message, fields)` for each event,
//!
//! where `fields` is the span's or event's fields as text (`key=value`,
//! separated by spaces, strings quoted).  So a program already annotated
//! with `#[instrument]` and `info!` can be traced by `probegen --trace`,
//! bpftrace, gdb or perf with nothing compiled in to print or collect:
//!
//! ```no_run
//! use tracing_subscriber::prelude::*;
//!
//! tracing_subscriber::registry()
//!     .with(probegen_tracing::UsdtLayer::new())
//!     .init();
//! ```
//!
//! While no tracer is attached, the layer reads a semaphore per callback
//! and returns: fields are formatted, and strings copied, only for a probe
//! that is traced.  A span created while its probes were not traced has
//! no fields in them.

use std::fmt::{self, Write};

use tracing_core::field::{Field, Visit};
use tracing_core::span::{Attributes, Id, Record};
use tracing_core::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

// The generated module is named after the provider, `tracing`: kept in a
// module of its own so that it does not hide the crate of that name.
mod probes {
    include!(concat!(env!("OUT_DIR"), "/tracing.rs"));
}
use probes::tracing as usdt;

/// A layer that fires the `tracing` provider's USDT probes; see the
/// crate's documentation.
#[derive(Debug, Default, Clone, Copy)]
pub struct UsdtLayer {
    _private: (),
}

impl UsdtLayer {
    /// A layer to add to a registry:
    /// `tracing_subscriber::registry().with(UsdtLayer::new())`.
    pub fn new() -> Self {
        UsdtLayer { _private: () }
    }
}

/// A span's fields as text, kept in the span's extensions while its
/// probes are traced.
struct SpanFields(String);

/// Writes fields as `key=value` text; an event's `message` apart.
struct FieldText<'a> {
    text: &'a mut String,
    message: Option<&'a mut String>,
}

impl FieldText<'_> {
    fn separator(&mut self) {
        if !self.text.is_empty() {
            self.text.push(' ');
        }
    }
}

impl Visit for FieldText<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            if let Some(m) = self.message.as_mut() {
                m.push_str(value);
                return;
            }
        }
        self.separator();
        let _ = write!(self.text, "{}={:?}", field.name(), value);
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            if let Some(m) = self.message.as_mut() {
                let _ = write!(m, "{:?}", value);
                return;
            }
        }
        self.separator();
        // Bare when it is one word (numbers, booleans, names), else
        // quoted as a string: `key=value` pairs stay apart for a reader
        // (probegen's fields.KEY, its JSON object of the fields).
        let shown = format!("{:?}", value);
        if shown.is_empty() || shown.contains([' ', '"', '=', '\\']) {
            let _ = write!(self.text, "{}={:?}", field.name(), shown);
        } else {
            let _ = write!(self.text, "{}={}", field.name(), shown);
        }
    }
}

/// Fire span__enter or span__exit for the span `id`, with the fields
/// kept when it was made.
fn fire_span<S>(id: &Id, ctx: &Context<'_, S>, probe: fn(u64, &str, &str, &str))
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    if let Some(span) = ctx.span(id) {
        let ext = span.extensions();
        let fields = ext.get::<SpanFields>().map_or("", |f| f.0.as_str());
        let meta = span.metadata();
        probe(id.into_u64(), meta.name(), meta.target(), fields);
    }
}

fn span_traced() -> bool {
    usdt::span_enter_enabled() || usdt::span_exit_enabled()
}

impl<S> Layer<S> for UsdtLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if !span_traced() {
            return;
        }
        let mut text = String::new();
        attrs.record(&mut FieldText { text: &mut text, message: None });
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(SpanFields(text));
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if !span_traced() {
            return;
        }
        if let Some(span) = ctx.span(id) {
            let mut ext = span.extensions_mut();
            match ext.get_mut::<SpanFields>() {
                Some(fields) => values.record(&mut FieldText { text: &mut fields.0, message: None }),
                None => {
                    let mut text = String::new();
                    values.record(&mut FieldText { text: &mut text, message: None });
                    ext.insert(SpanFields(text));
                }
            }
        }
    }

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        if usdt::span_enter_enabled() {
            fire_span(id, &ctx, usdt::span_enter);
        }
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        if usdt::span_exit_enabled() {
            fire_span(id, &ctx, usdt::span_exit);
        }
    }

    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        if !usdt::event_enabled() {
            return;
        }
        let (mut message, mut fields) = (String::new(), String::new());
        event.record(&mut FieldText { text: &mut fields, message: Some(&mut message) });
        let meta = event.metadata();
        usdt::event(meta.level().as_str(), meta.target(), &message, &fields);
    }
}

//@ src/compiler/rust/machinery.rs - what every probe of the Rust module
//@ shares, written once at its top by emit_rust.c (machinery()): the
//@ string copy, the semaphores' page, the semaphore read and the probe
//@ site as the macro probegen_site!.  Embedded at build time
//@ (src/compiler/header/embed.sh); lines beginning //@ are left out, and
//@ emit_rust.c fills in: @X86_64_PAGE@ and @LARGEST_PAGE@, the pages of
//@ target.c's table; a line @SITE ARCH NOTE@, one architecture's site
//@ reading the macro variable NOTE.
//@
//@ Rustc's cost, not the module's size, decided this shape: each item
//@ and each macro expansion costs it tens of KB, so the site is one
//@ expansion, with no concat! and no nested macros; a macro a probe made
//@ Erlang's module 0.8 MB but cost rustc 45 MB and 0.5 s more.
/// A NUL-terminated copy of a string argument (up to its first NUL),
/// made only while its probe is traced, freed when dropped.
#[doc(hidden)]
pub struct ProbegenString(*mut ::core::ffi::c_char);

impl Drop for ProbegenString {
	fn drop(&mut self) {
		drop(unsafe { ::std::ffi::CString::from_raw(self.0) });
	}
}

#[allow(dead_code)]
#[inline(never)]
fn probegen_string(s: &str) -> ProbegenString {
	let bytes = s.as_bytes();
	let end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
	ProbegenString(::std::ffi::CString::new(&bytes[..end]).unwrap_or_default().into_raw())
}

// The semaphores' section starts a page of its own (a page of the
// largest size the target's kernels use), so that the page holding them
// is mapped by one segment only: rust-lld, Rust's default linker, lets
// the last page of the RELRO segment share a file page with .data, and
// the kernel then sets a semaphore there, where the program never looks,
// when a tracer attaches before the program starts.
#[cfg_attr(target_arch = "x86_64", repr(C, align(@X86_64_PAGE@)))]
#[cfg_attr(not(target_arch = "x86_64"), repr(C, align(@LARGEST_PAGE@)))]
struct ProbegenPage([u16; 0]);

#[unsafe(link_section = ".probes")]
#[used]
static mut PROBEGEN_PAGE: ProbegenPage = ProbegenPage([]);

/// Whether the semaphore at `p` is set: a tracer is attached.
#[allow(dead_code)]
#[inline(always)]
fn probegen_enabled(p: *const u16) -> bool {
	unsafe { ::core::ptr::read_volatile(p) != 0 }
}

// A probe site: a nop, its .note.stapsdt entry, and the
// _.stapsdt.base the notes refer to.
#[allow(unused_macros)]
macro_rules! probegen_site {
	($semaphore:ident $note:literal [$($string:ident),*] $($value:expr),*) => {
		$(let $string = super::probegen_string($string);)*
@SITE x86_64 note@
@SITE aarch64 note@
	};
	($semaphore:ident $x86_64_note:literal $aarch64_note:literal [$($string:ident),*] $($value:expr),*) => {
		$(let $string = super::probegen_string($string);)*
@SITE x86_64 x86_64_note@
@SITE aarch64 aarch64_note@
	};
}

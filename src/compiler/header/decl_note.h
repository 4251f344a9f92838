/*
 * src/compiler/header/decl_note.h - the layout of a declaration note (man
 * probegen(1), DECLARATION NOTES), in one place: compiler/naming.h takes
 * it for the -G object, the Rust module and the readers of binaries, and a
 * --header-only header carries it for its sites (header_only.h).  One
 * note per probe: owner PROBEGEN_NOTE_OWNER, type PROBEGEN_NOTE_TYPE
 * (the format's version), descriptor "provider:name(params)" and a NUL;
 * type PROBEGEN_NOTE_TYPE_TAGGED when the probe's doc comment has
 * @length or @enum tags, its descriptor then followed by them, a space
 * before each: "p:n(char const *k, size_t n) @length k n".
 */
#ifndef PROBEGEN_DECL_NOTE_1
#define PROBEGEN_DECL_NOTE_1

#define PROBEGEN_NOTE_SECTION ".note.probegen"
#define PROBEGEN_NOTE_OWNER "probegen"
#define PROBEGEN_NOTE_NAMESZ 9 /* sizeof PROBEGEN_NOTE_OWNER */
#define PROBEGEN_NOTE_TYPE 1

#endif /* PROBEGEN_DECL_NOTE_1 */
#ifndef PROBEGEN_NOTE_TYPE_TAGGED
#define PROBEGEN_NOTE_TYPE_TAGGED 2
#endif

/*
 * compiler/parse.h - what the scanner, the parser and the tree's builders share,
 * and nothing else needs: the per-parse state (the scanner's extra data)
 * and the grammar's actions, implemented in ast.c, ast_types.c and
 * parse.c.
 */
#ifndef PROBEGEN_PARSE_H
#define PROBEGEN_PARSE_H

#include "model.h"

/* Builtin type keywords, as the scanner reports them. */
enum keyword {
	K_VOID = 1,
	K_BOOL,
	K_CHAR,
	K_SHORT,
	K_INT,
	K_LONG,
	K_SIGNED,
	K_UNSIGNED,
	K_FLOAT,
	K_DOUBLE,
	K_COUNT
};

/* The builtin keywords of one declaration, counted (up to 3 each), and
 * the qualifiers written among them. */
struct keywords {
	unsigned char count[K_COUNT];
	unsigned quals;
};

/* Everything one parse needs; the scanner's extra data. */
struct parse_state {
	const char *file; /* current file, moved by line markers */
	int line, col;
	int preprocessed;
	/* Without -C, '#' lines are ignored; a warning only where that
	 * changes what is written: a macro #defined here used as a type,
	 * a probe or typedef inside an #if block (once a block). */
	struct name_set macros; /* #defined names, their struct loc */
	int if_depth;
	struct loc if_loc; /* the outermost open #if */
	int if_warned;
	int system_header; /* cpp's line marker says so (flag 3) */
	/* A typedef's __attribute__((__mode__(M))): the scanner notes M's
	 * size (attribute_mode) for the typedef being read. */
	int mode, mode_next;
	struct loc comment_start;
	const char *comment_text; /* where the open comment's text starts */
	/* The last comment, a doc comment for a probe that follows it at
	 * once: cleared by any other token (parse.c: lex_token()). */
	struct buf comment;
	int comment_line, comment_is_line;
	struct loc comment_loc; /* where the last comment's text starts */
	char *probe_doc; /* for the probe being parsed */
	struct loc probe_doc_loc;
	int probe_doc_in_lines;
	struct program *prog;
	struct provider **provider_tail;
	struct name_set providers; /* by name, to add a block to its own */
	struct typedef_decl **typedef_tail;
	struct type *base_types[B_COUNT]; /* shared, unqualified */
	/* What the parse said: errors are counted here (and in diag unless
	 * quiet, which says nothing at all). */
	int errors, quiet;
	/* A token the scanner returns first, selecting what the grammar
	 * reads: 0 for a file, START_PARAMS for a parameter list alone,
	 * whose probe (with no name) lands in params. */
	int start_token;
	struct probe *params;
	int types_unused; /* parse_options' */
	/* The top-level item being read (lex_token): the token it starts
	 * with (0 before it starts) and where, its first and last
	 * identifiers, the braces open in it; a C declaration in it that
	 * the parser cannot read is kept in skipping, and a syntax error
	 * after a mistyped 'provider' is said once, at the word. */
	int item_first, item_depth, item_said;
	struct loc item_loc;
	const char *item_head, *item_ident;
	struct skipped_decl *skipping, **skipped_tail;
};
/* A syntax error the parse state explains better, said by it (a
 * mistyped 'provider') or kept (a C declaration no probe may need):
 * 1, or 0 for the grammar's own message.  parser.y asks it first. */
int parse_syntax_error(struct parse_state *ps, struct loc loc,
		       const char *what);
/* The parser's diagnostics: counted in ps, and said through diag.c
 * unless ps is quiet. */
void parse_error(struct parse_state *ps, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void parse_warning(struct parse_state *ps, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void parse_note(struct parse_state *ps, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A comment ended on the current line (is_line: a // comment, which
 * joins the one on the line before). */
void comment_seen(struct parse_state *ps, const char *text, size_t len,
		  int is_line);
/* The scanner, as the parser calls it: keeps doc comments for probes. */
union YYSTYPE;
int lex_token(union YYSTYPE *lval, struct loc *lloc, void *scanner,
	      struct parse_state *ps);
/* Handle one '#' line: markers, pragmas, stray directives (parse.c). */
void parse_directive(struct parse_state *ps, const char *text, struct loc loc);

/* ---- ast.c, ast_types.c: grammar actions ---- */

/* A new node of the tree, in the program's arena (ast.c). */
struct type *type_new(struct parse_state *ps, enum type_kind kind);

/* Grammar actions.  Lists of parameters and probes are built in
 * reverse, one push per item, and put in order once complete.  While a
 * declarator is being read it is a param whose type chain ends in a
 * hole (the innermost node's inner is NULL) where the base type goes. */
struct keywords keywords_start(int kw);
struct keywords keywords_add(struct parse_state *ps, struct keywords prev,
			     int kw, struct loc loc);
struct keywords keywords_qualify(struct keywords s, unsigned quals);
struct type *type_from_keywords(struct parse_state *ps, struct keywords s,
				unsigned quals);
struct type *type_named(struct parse_state *ps, char *name, unsigned quals,
			struct loc loc);
struct type *type_string(struct parse_state *ps, unsigned quals);
struct type *type_tagged(struct parse_state *ps, int kind, char *tag);
struct type *type_qualify(struct type *t, unsigned quals);
struct type *pointer_new(struct parse_state *ps, struct type *rest,
			 unsigned quals);
struct param *declarator_name(struct parse_state *ps, char *name,
			      struct loc loc);
struct param *declarator_abstract(struct parse_state *ps, struct type *ptr,
				  struct loc loc);
struct param *declarator_pointer(struct param *d, struct type *ptr,
				 struct loc ptr_loc);
struct param *declarator_array(struct parse_state *ps, struct param *d,
			       struct loc loc);
struct param *declarator_function(struct parse_state *ps, struct param *d,
				  struct param *params);
struct param *param_make(struct parse_state *ps, struct type *base,
			 struct param *d, struct loc loc);
struct param *params_push(struct param *list, struct param *p);
struct param *params_varargs(struct parse_state *ps, struct param *list,
			     struct loc loc);
struct param *params_mapping(struct parse_state *ps, struct param *list,
			     struct loc loc);
struct probe *probe_new(struct parse_state *ps, char *name, struct loc loc,
			struct param *native, struct param *mapping);
struct probe *probes_push(struct probe *list, struct probe *pr);
void provider_add(struct parse_state *ps, char *name, struct loc loc,
		  struct probe *probes);
void provider_unnamed(struct parse_state *ps, struct loc loc);
void probe_outside(struct parse_state *ps, struct probe *pr);
void clause_ignored(struct parse_state *ps, const char *name, struct loc loc);
/* The size a mode attribute's M names in bytes (QI 1, HI 2, SI 4,
 * DI 8), MODE_WORD for a word, MODE_UNKNOWN for any other. */
#define MODE_WORD (-1)
#define MODE_UNKNOWN (-2)
int attribute_mode(const char *m);
/* base given the size the typedef's mode attribute says (ps->mode),
 * its sign kept; base itself when there is none. */
struct type *type_mode(struct parse_state *ps, struct type *base,
		       struct loc loc);
void typedef_add(struct parse_state *ps, struct type *base,
		 struct param *decls);

#endif

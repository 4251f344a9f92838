/*
 * parser.y - the D provider language grammar.  A pure parser with
 * locations; every action is a one-line call into ast.c.  Errors recover
 * at ';' and '}' so one run reports every error in the file; the count is
 * kept in diag because bison reports success after a recovery.
 */
%define api.pure full
%define parse.error custom
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {struct parse_state *ps}

%code requires {
#include "probegen.h"

typedef void *yyscan_t;

/* file comes last: bison initialises the first four to 1. */
typedef struct yyltype {
	int first_line, first_column, last_line, last_column;
	const char *file;
} YYLTYPE;
#define YYLTYPE_IS_DECLARED 1
#define YYLTYPE_IS_TRIVIAL 1

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                       \
	do {                                                              \
		if (N) {                                                  \
			(Cur).file = YYRHSLOC(Rhs, 1).file;               \
			(Cur).first_line = YYRHSLOC(Rhs, 1).first_line;   \
			(Cur).first_column = YYRHSLOC(Rhs, 1).first_column; \
			(Cur).last_line = YYRHSLOC(Rhs, N).last_line;     \
			(Cur).last_column = YYRHSLOC(Rhs, N).last_column; \
		} else {                                                  \
			(Cur).file = YYRHSLOC(Rhs, 0).file;               \
			(Cur).first_line = (Cur).last_line =              \
				YYRHSLOC(Rhs, 0).last_line;               \
			(Cur).first_column = (Cur).last_column =          \
				YYRHSLOC(Rhs, 0).last_column;             \
		}                                                         \
	} while (0)
}

%code {
#include <stdlib.h>
#include <string.h>

int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, yyscan_t scanner);
char *yyget_text(yyscan_t scanner);

static struct loc L(YYLTYPE l)
{
	struct loc loc = { l.file, l.first_line, l.first_column };

	return loc;
}

static void yyerror(YYLTYPE *l, yyscan_t scanner, struct parse_state *ps,
		    const char *msg)
{
	(void)scanner;
	(void)ps;
	error_at(L(*l), "%s", msg);
}
}

%union {
	char *str;
	int kw;
	struct type *type;
	struct specs specs;
	struct declarator decl;
	struct param_list params;
	struct probe *probe;
	struct probe_list probes;
}

%token PROVIDER "'provider'" PROBE "'probe'" TYPEDEF "'typedef'"
%token STRUCT "'struct'" UNION "'union'" ENUM "'enum'"
%token INLINE "'inline'" TRANSLATOR "'translator'" STRING "'string'"
%token ELLIPSIS "'...'" OPERATOR "operator" LITERAL "literal"
%token <kw> QUAL "type qualifier" BUILTIN "type name"
%token <str> IDENT "identifier" NUMBER "number"

%type <specs> specs builtins
%type <type> type_core tagged
%type <kw> quals tag_kind
%type <decl> declarator direct_declarator abstract direct_abstract pointer
%type <decl> any_declarator
%type <params> param_list params param xlated_opt declarators
%type <probe> probe
%type <probes> probes
%type <str> opt_tag

/* No %destructor: every value lives in the program's arena, which
   program_free() releases whole, recovered errors included. */

%%

file:
	  %empty
	| file top
	;

top:
	  PROVIDER IDENT '{' probes '}'
		{ provider_add(ps, $2, L(@2), &$4); }
	| PROVIDER '{' probes '}'
		{ provider_unnamed(L(@2)); }
	| probe
		{ probe_outside(ps, $1); }
	| TYPEDEF specs declarators ';'
		{ typedef_add(ps, &$2, &$3); }
	| tagged ';'
	| IDENT clause_head '{' skip_all '}'
		{ clause_ignored($1, L(@1)); }
	| INLINE skip ';'
	| TRANSLATOR skip ';'
	| ';' /* also the ';' after a provider's '}', which SystemTap omits */
	| error ';'
	| error '}'
	;

probes:
	  %empty
		{ $$ = (struct probe_list){ 0 }; }
	| probes probe
		{ $$ = $1; probe_list_add(&$$, $2); }
	| probes error ';'
		{ $$ = $1; }
	;

probe:
	  PROBE IDENT '(' param_list ')' xlated_opt ';'
		{ $$ = probe_new(ps, $2, L(@2), &$4, &$6); }
	;

xlated_opt:
	  %empty
		{ $$ = (struct param_list){ 0 }; }
	| ':' '(' param_list ')'
		{ $$ = $3; $$.present = 1; }
	;

param_list:
	  %empty
		{ $$ = (struct param_list){ 0 }; }
	| params
	| params ',' ELLIPSIS
		{ $$ = $1; params_varargs(&$$, L(@3)); }
	| ELLIPSIS
		{ $$ = (struct param_list){ 0 }; params_varargs(&$$, L(@1)); }
	;

params:
	  param
	| params ',' param
		{ $$ = $1; params_append(&$$, &$3); }
	;

param:
	  specs
		{ $$ = param_make(ps, &$1, NULL, L(@1)); }
	| specs any_declarator
		{ $$ = param_make(ps, &$1, &$2, L(@1)); }
	;

any_declarator:
	  declarator
	| abstract
	;

/* Declaration specifiers.  An identifier is a type name only where no
 * type has been named yet: `foo_t x`, `unsigned x`, `(foo_t)`. */
specs:
	  quals type_core
		{ $$ = specs_from_type($2, $1); }
	| quals builtins
		{ $$ = $2; $$.quals |= $1; }
	;

builtins:
	  BUILTIN
		{ $$ = specs_keyword(NULL, $1, L(@1)); }
	| builtins BUILTIN
		{ $$ = specs_keyword(&$1, $2, L(@2)); }
	| builtins QUAL
		{ $$ = $1; $$.quals |= $2; }
	;

type_core:
	  IDENT quals
		{ $$ = type_named(ps, $1, $2, L(@1)); }
	| STRING quals
		{ $$ = type_string(ps, $2, L(@1)); }
	| tagged quals
		{ $$ = $1; $$->quals |= $2; }
	;

tagged:
	  tag_kind IDENT
		{ $$ = type_tagged(ps, $1, $2, L(@1)); }
	| tag_kind opt_tag '{' skip_all '}'
		{ $$ = type_tagged(ps, $1, $2, L(@1)); }
	;

opt_tag:
	  %empty
		{ $$ = NULL; }
	| IDENT
	;

tag_kind:
	  STRUCT	{ $$ = T_STRUCT; }
	| UNION		{ $$ = T_UNION; }
	| ENUM		{ $$ = T_ENUM; }
	;

quals:
	  %empty
		{ $$ = 0; }
	| quals QUAL
		{ $$ = $1 | $2; }
	;

/* Declarators: C's inside-out syntax.  A parenthesised declarator must
 * start with '*' so that `(foo)` always reads as a parameter list. */
declarator:
	  pointer direct_declarator
		{ $$ = declarator_pointer(&$2, &$1); }
	| direct_declarator
	;

direct_declarator:
	  IDENT
		{ $$ = declarator_name($1, L(@1)); }
	| '(' pointer direct_declarator ')'
		{ $$ = declarator_pointer(&$3, &$2); }
	| direct_declarator '[' skip ']'
		{ $$ = declarator_array(ps, &$1, L(@2)); }
	| direct_declarator '(' param_list ')'
		{ $$ = declarator_function(ps, &$1, &$3, L(@2)); }
	;

pointer:
	  '*' quals
		{ $$ = declarator_star(ps, NULL, $2, L(@1)); }
	| '*' quals pointer
		{ $$ = declarator_star(ps, &$3, $2, L(@1)); }
	;

abstract:
	  pointer
	| pointer direct_abstract
		{ $$ = declarator_pointer(&$2, &$1); }
	| direct_abstract
	;

direct_abstract:
	  '(' abstract ')'
		{ $$ = $2; }
	| '[' skip ']'
		{ $$ = declarator_array(ps, NULL, L(@1)); }
	| direct_abstract '[' skip ']'
		{ $$ = declarator_array(ps, &$1, L(@2)); }
	| direct_abstract '(' param_list ')'
		{ $$ = declarator_function(ps, &$1, &$3, L(@2)); }
	;

declarators:
	  declarator
		{ $$ = params_from_declarator(ps, &$1); }
	| declarators ',' declarator
		{ $$ = $1; params_append_declarator(ps, &$$, &$3); }
	;

/* Bodies probegen does not need (struct members, enumerators, inline
 * and translator definitions) are skipped with their brackets balanced. */
skip:
	  %empty
	| skip skip_token
	| skip '{' skip_all '}'
	| skip '(' skip_all ')'
	| skip '[' skip_all ']'
	;

/* A D program clause (`BEGIN {}`, `a:b:c:d /x/ {}`): not a provider. */
clause_head:
	  %empty
	| clause_head skip_token
	| clause_head '(' skip_all ')'
	| clause_head '[' skip_all ']'
	;

skip_all:
	  skip
	| skip_all ';' skip
	;

skip_token:
	  IDENT | NUMBER | QUAL | BUILTIN | STRING | TYPEDEF | STRUCT | UNION | ENUM
	| INLINE | TRANSLATOR | ELLIPSIS | OPERATOR | LITERAL
	| ',' | '*' | ':' | '<' | '>' | '='
	;

%%

static const char *token_name(yysymbol_kind_t sym, char *tmp, size_t n)
{
	const char *name = yysymbol_name(sym);
	size_t len = strlen(name);

	/* Aliases come as "..."; show what is inside the double quotes. */
	if (len >= 2 && name[0] == '"' && name[len - 1] == '"') {
		snprintf(tmp, n, "%.*s", (int)(len - 2), name + 1);
		return tmp;
	}
	return name;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner,
				 struct parse_state *ps)
{
	yysymbol_kind_t expected[5];
	yysymbol_kind_t next = yypcontext_token(ctx);
	struct loc loc = L(*yypcontext_location(ctx));
	int n = yypcontext_expected_tokens(ctx, NULL, 0);
	struct buf what = { 0 };
	char tmp[64];
	int i;

	(void)ps;
	if (n > 0 && n <= 4) {
		n = yypcontext_expected_tokens(ctx, expected, 5);
		buf_puts(&what, "expected ");
		for (i = 0; i < n; i++) {
			if (i > 0)
				buf_puts(&what, i == n - 1 ? " or " : ", ");
			buf_puts(&what, token_name(expected[i], tmp, sizeof(tmp)));
		}
	} else {
		buf_puts(&what, "unexpected");
	}
	const char *sep = what.data[0] == 'u' ? " " : " before ";

	if (next == YYSYMBOL_YYEOF) {
		error_at(loc, "%s%s", what.data,
			 sep[1] == 'b' ? " at end of input" : " end of input");
	} else {
		const char *text = yyget_text(scanner);

		if (strlen(text) > 40 || next == YYSYMBOL_LITERAL)
			error_at(loc, "%s%s%s", what.data, sep,
				 token_name(next, tmp, sizeof(tmp)));
		else
			error_at(loc, "%s%s'%s'", what.data, sep, text);
	}
	buf_free(&what);
	return 0;
}

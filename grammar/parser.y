/*
 * parser.y - the D provider language grammar.  A pure parser with
 * locations; every action is a one-line call into ast.c.  Errors recover
 * at ';' and '}' so one run reports every error in the file; the count is
 * kept in the parse's state (ps->errors) because bison reports success
 * after a recovery.
 */
%define api.pure full
%define parse.error custom
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {struct parse_state *ps}

%code requires {
#include "compiler/parse.h"

typedef void *yyscan_t;

/* Locations are where a symbol starts: messages name no ranges, and
 * sixteen bytes are cheap to copy at every shift and reduction.  An
 * empty rule takes the start of the symbol before it (never reported). */
typedef struct loc YYLTYPE;
#define YYLTYPE_IS_DECLARED 1
#define YYLOCATION_PRINT(File, Loc) ((void)0)

#define YYLLOC_DEFAULT(Cur, Rhs, N) \
	((Cur) = YYRHSLOC(Rhs, (N) ? 1 : 0))
}

%code {
#include <stdlib.h>
#include <string.h>

int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, yyscan_t scanner);
/* Through parse.c, which keeps the doc comments of probes. */
#define yylex(lval, lloc, scanner) lex_token(lval, lloc, scanner, ps)
char *yyget_text(yyscan_t scanner);

static void yyerror(YYLTYPE *l, yyscan_t scanner, struct parse_state *ps,
		    const char *msg)
{
	(void)scanner;
	/* Bison's stack has a fixed limit; only nesting can reach it. */
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "brackets or pointers nested too deeply";
	parse_error(ps, *l, "%s", msg);
}
}

%union {
	char *str;
	int kw;
	struct keywords keywords; /* builtin keywords, counted */
	struct type *type;
	struct param *param;  /* a declarator, or a list in reverse */
	struct probe *probe;  /* one probe, or a list in reverse */
}

%token PROVIDER "'provider'" PROBE "'probe'" TYPEDEF "'typedef'"
%token STRUCT "'struct'" UNION "'union'" ENUM "'enum'"
%token INLINE "'inline'" TRANSLATOR "'translator'" STRING "'string'"
%token ELLIPSIS "'...'" OPERATOR "operator" LITERAL "literal"
%token ATTRIBUTE "'__attribute__'" ASM "'__asm__'" STORAGE "storage class"
%token <kw> QUAL "type qualifier" BUILTIN "type name"
%token <str> IDENT "identifier" NUMBER "number"
/* Never in the text: the scanner's first token when a parameter list is
   parsed alone (parse_params), so that one grammar reads both. */
%token START_PARAMS "start of a parameter list"

%type <keywords> builtins
%type <type> specifiers type_core tagged pointer
%type <kw> qual_list tag_kind
%type <param> declarator direct_declarator abstract
%type <param> direct_abstract
%type <param> param_list params param declarators mapping_opt
%type <probe> probe probes
%type <str> opt_tag

/* No %destructor: every value lives in the program's arena, which
   program_free() releases whole, recovered errors included. */

%%

input:
	  file
	| START_PARAMS '(' param_list ')'
		{ ps->params = probe_new(ps, NULL, @2, $3, NULL); }
	;

file:
	  %empty
	| file top
	;

top:
	  PROVIDER IDENT '{' probes '}'
		{ provider_add(ps, $2, @2, $4); }
	| PROVIDER '{' probes '}'
		{ provider_unnamed(ps, @2); }
	| probe
		{ probe_outside(ps, $1); }
	| TYPEDEF specifiers declarators attributes ';'
		{ typedef_add(ps, type_mode(ps, $2, @1), $3); }
	| tagged ';'
	| IDENT clause_head '{' skip_all '}'
		{ clause_ignored(ps, $1, @1); }
	/* C declarations from headers (-C): functions, variables and
	   inline bodies, which no probe needs. */
	| STORAGE clause_head ';'
	| STORAGE clause_head '{' skip_all '}'
	| IDENT clause_head ';'
	| BUILTIN clause_head ';'
	| INLINE skip ';'
	| TRANSLATOR skip ';'
	| ';' /* also the ';' after a provider's '}', which SystemTap omits */
	| error ';'
	| error '}'
	;

probes:
	  %empty
		{ $$ = NULL; }
	| probes probe
		{ $$ = probes_push($1, $2); }
	| probes error ';'
		{ $$ = $1; }
	;

probe:
	  PROBE IDENT '(' param_list ')' mapping_opt ';'
		{ $$ = probe_new(ps, $2, @2, $4, $6); }
	;

/* A mapping, even `: ()`, comes back as a marked list: not NULL. */
mapping_opt:
	  %empty
		{ $$ = NULL; }
	| ':' '(' param_list ')'
		{ $$ = params_mapping(ps, $3, @1); }
	;

param_list:
	  %empty
		{ $$ = NULL; }
	| params
	| params ',' ELLIPSIS
		{ $$ = params_varargs(ps, $1, @3); }
	| ELLIPSIS
		{ $$ = params_varargs(ps, NULL, @1); }
	;

params:
	  param
	| params ',' param
		{ $$ = params_push($1, $3); }
	;

param:
	  specifiers
		{ $$ = param_make(ps, $1, NULL, @1); }
	| specifiers declarator
		{ $$ = param_make(ps, $1, $2, @1); }
	| specifiers abstract
		{ $$ = param_make(ps, $1, $2, @1); }
	;

/* Declaration specifiers.  An identifier is a type name only where no
 * type has been named yet: `foo_t x`, `unsigned x`, `(foo_t)`. */
specifiers:
	  type_core
	| builtins
		{ $$ = type_from_keywords(ps, $1, 0); }
	| qual_list type_core
		{ $$ = type_qualify($2, $1); }
	| qual_list builtins
		{ $$ = type_from_keywords(ps, $2, $1); }
	;

/* Builtin keywords in any order (`unsigned long`, `int const`). */
builtins:
	  BUILTIN
		{ $$ = keywords_start($1); }
	| builtins BUILTIN
		{ $$ = keywords_add(ps, $1, $2, @2); }
	| builtins QUAL
		{ $$ = keywords_qualify($1, $2); }
	;

type_core:
	  IDENT
		{ $$ = type_named(ps, $1, 0, @1); }
	| IDENT qual_list
		{ $$ = type_named(ps, $1, $2, @1); }
	| STRING
		{ $$ = type_string(ps, 0); }
	| STRING qual_list
		{ $$ = type_string(ps, $2); }
	| tagged
	| tagged qual_list
		{ $$ = type_qualify($1, $2); }
	;

tagged:
	  tag_kind IDENT
		{ $$ = type_tagged(ps, $1, $2); }
	| tag_kind opt_tag '{' skip_all '}'
		{ $$ = type_tagged(ps, $1, $2); }
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

qual_list:
	  QUAL
	| qual_list QUAL
		{ $$ = $1 | $2; }
	;

/* Declarators: C's inside-out syntax.  A parenthesised declarator must
 * start with '*' so that `(foo)` always reads as a parameter list. */
declarator:
	  pointer direct_declarator
		{ $$ = declarator_pointer($2, $1, @1); }
	| direct_declarator
	;

direct_declarator:
	  IDENT
		{ $$ = declarator_name(ps, $1, @1); }
	| '(' pointer direct_declarator ')'
		{ $$ = declarator_pointer($3, $2, @2); }
	| direct_declarator '[' skip ']'
		{ $$ = declarator_array(ps, $1, @2); }
	| direct_declarator '(' param_list ')'
		{ $$ = declarator_function(ps, $1, $3); }
	;

/* The '*' written first is the one nearest the base type. */
pointer:
	  '*'
		{ $$ = pointer_new(ps, NULL, 0); }
	| '*' qual_list
		{ $$ = pointer_new(ps, NULL, $2); }
	| '*' pointer
		{ $$ = pointer_new(ps, $2, 0); }
	| '*' qual_list pointer
		{ $$ = pointer_new(ps, $3, $2); }
	;

abstract:
	  pointer
		{ $$ = declarator_abstract(ps, $1, @1); }
	| pointer direct_abstract
		{ $$ = declarator_pointer($2, $1, @1); }
	| direct_abstract
	;

direct_abstract:
	  '(' abstract ')'
		{ $$ = $2; }
	| '[' skip ']'
		{ $$ = declarator_array(ps, NULL, @1); }
	| direct_abstract '[' skip ']'
		{ $$ = declarator_array(ps, $1, @2); }
	| direct_abstract '(' param_list ')'
		{ $$ = declarator_function(ps, $1, $3); }
	;

declarators:
	  declarator
	| declarators ',' declarator
		{ $$ = params_push($1, $3); }
	;

/* GNU attributes after a typedef's declarators (C headers): alignment
   and the like change nothing a probe reads. */
attributes:
	  %empty
	| attributes ATTRIBUTE '(' skip_all ')'
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
	| ATTRIBUTE | ASM | STORAGE
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
	struct loc loc = *yypcontext_location(ctx);
	int n = yypcontext_expected_tokens(ctx, NULL, 0);
	struct buf what = { 0 };
	char tmp[64];
	int i;

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
		buf_puts(&what, sep[1] == 'b' ? " at end of input" : " end of input");
	} else {
		const char *text = yyget_text(scanner);
		size_t len = strlen(text);

		buf_puts(&what, sep);
		if (len > 40 || next == YYSYMBOL_LITERAL)
			buf_puts(&what, token_name(next, tmp, sizeof(tmp)));
		else
			buf_printf(&what, "'%.*s'", (int)len, text);
	}
	/* The item's context may say it better (parse.c). */
	if (!parse_syntax_error(ps, loc, what.data))
		parse_error(ps, loc, "%s", what.data);
	buf_free(&what);
	return 0;
}

#!/usr/bin/env python3
"""tests/fire_all.py HEADER.h > prog.c - a C program with one site for
every probe the header declares, through its typed calls
(trace_P_N(...)), each argument read from zeroed memory of the declared
type.  The sites are compiled and never run: what matters is the notes
they leave in the binary (the writer-to-reader round trip)."""
import re, sys

text = open(sys.argv[1]).read()
calls = []


def split_top(inner):
    """inner split at its top-level commas."""
    parts, depth, cur = [], 0, ''
    for c in inner:
        if c == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
            continue
        depth += 1 if c in '([' else -1 if c in ')]' else 0
        cur += c
    parts.append(cur.strip())
    return parts


# The header's three forms: PROBEGEN_TYPED0(name, MACRO),
# PROBEGEN_TYPEDn(name, MACRO, T1, ..., Tn, __VA_ARGS__) and
# PROBEGEN_TYPED(name, (T1, ..., Tn), (a1, ...), MACRO, casts).
for m in re.finditer(r'#define (trace_\w+)\(.*?\) \\\n\t(PROBEGEN_TYPED\w*)\((.*)\)\n', text):
    name, form, parts = m.group(1), m.group(2), split_top(m.group(3))
    if form == 'PROBEGEN_TYPED0':
        types = []
    elif form == 'PROBEGEN_TYPED':
        types = split_top(parts[1][1:-1])
    else:
        types = parts[2:2 + int(form[len('PROBEGEN_TYPED'):])]
    args = ', '.join('*(__typeof__(%s) *)zero' % t for t in types)
    calls.append('\t\t%s(%s);' % (name, args))
print('#include "%s"' % sys.argv[1].split('/')[-1])
print('static _Alignas(16) unsigned char zero[4096];')
print('int main(int argc, char **argv)\n{\n\t(void)argv;\n\tif (argc > 1000) {')
print('\n'.join(calls))
print('\t}\n\treturn 0;\n}')

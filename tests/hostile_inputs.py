#!/usr/bin/env python3
"""tests/hostile_inputs.py DIR - write provider files of about 2 MB, each
a shape that once cost (or could cost) more than linear work: a probe of
170,000 arguments, a mapping of a million names, one probe declared
50,000 times, 28,000 pairs, 40,000 providers, a chain of 100,000
typedefs, 90,000 probes through a chain of 1,000 typedefs, 50,000 struct
arguments by value, a 2 MB doc comment and comment line, 120,000 errors,
2 MB of pointer stars, and a real-looking file with random bytes
spliced in.  t_hostile_two_megabytes runs every mode on each."""
import os, random, sys

out = sys.argv[1]
MB2 = 2 << 20
rnd = random.Random(20261201)


def fill(unit, head='', tail=''):
    return head + unit * ((MB2 - len(head) - len(tail)) // len(unit)) + tail


real = ''.join('\tprobe q%d__start(int id, const char *path, unsigned long long n);\n'
               '\tprobe q%d__done(int id, long long ns);\n' % (i, i) for i in range(20000))
spliced = bytearray(('provider p {\n' + real + '};\n').encode())
for _ in range(2000):
    spliced[rnd.randrange(len(spliced))] = rnd.randrange(256)

shapes = {
    'many_args': 'provider p { probe a(' + ', '.join('int a%d' % i for i in range(170000)) + '); };\n',
    'many_mapped': 'provider p { probe a(int x) : (' + ', '.join('x' for _ in range(1000000)) + '); };\n',
    'same_probe': fill('\tprobe p__start(int x, const char *s);\n', 'provider p {\n', '};\n'),
    'pairs': 'provider p {\n' + ''.join('\tprobe p%d__start(int x, char *s);\n\tprobe p%d__done(int x);\n'
                                       % (i, i) for i in range(28000)) + '};\n',
    'providers': ''.join('provider p%d { probe a__start(int x); probe a__done(int x); };\n' % i
                         for i in range(40000)),
    'typedef_chain': 'typedef int t0;\n' + ''.join('typedef t%d t%d;\n' % (i, i + 1) for i in range(100000))
                     + 'provider p { probe a(t100000 x); };\n',
    'typedef_uses': 'typedef int t0;\n' + ''.join('typedef t%d t%d;\n' % (i, i + 1) for i in range(1000))
                    + 'provider p {\n' + ''.join('\tprobe a%d(t1000 x);\n' % i for i in range(90000)) + '};\n',
    'doc_comment': 'provider p {\n/** ' + 'word ' * 400000 + '*/\n\tprobe a(int x);\n};\n',
    'comment_line': '// ' + 'x' * MB2 + '\nprovider p { probe a(int x); };\n',
    'structs': 'provider p {\n' + ''.join('\tprobe a%d(struct s%d *x, union u%d y);\n' % (i, i, i)
                                         for i in range(50000)) + '};\n',
    'errors': 'provider p {\n' + '\tprobe a(int x;\n' * 120000 + '};\n',
    'stars': 'provider p { probe a(int ' + '*' * MB2 + 'x); };\n',
}
for name, text in shapes.items():
    with open(os.path.join(out, name + '.d'), 'w') as f:
        f.write(text)
with open(os.path.join(out, 'spliced.d'), 'wb') as f:
    f.write(bytes(spliced))

#!/usr/bin/env python3
"""tests/mutate_notes.py BINARY PROBEGEN COUNT SEED - corrupt the probe
notes (.note.stapsdt) and declaration notes (.note.probegen) of a real
binary COUNT ways, run probegen's commands that read binaries on each,
and print one line per kind of trouble, then a summary line
"mutants N json_ok N crashes N hangs N compiler_errors N".

Every --list --json output must parse as JSON; no command may crash
(a signal, an ASan report), hang, or print a compiler diagnostic about
the binary's contents (lines "FILE:LINE:COL: error:")."""
import json, random, re, subprocess, sys

path, probegen, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = bytearray(open(path, 'rb').read())
rnd = random.Random(seed)

def sections():
    out = subprocess.run(['readelf', '-SW', path], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)', line)
        if m and m.group(1) in ('.note.stapsdt', '.note.probegen'):
            found[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return found

secs = sections()
if '.note.stapsdt' not in secs:
    sys.exit('no .note.stapsdt in ' + path)
nasty = [b'"', b'\\', b'%', b'\xff', b'\xc3', b'\x00', b'\x01', b'\n', b'}',
         b'); }; provider evil { probe x(', b'%n%s%s', b'\xed\xa0\x80']

def mutate():
    m = bytearray(data)
    name = rnd.choice(list(secs))
    off, size = secs[name]
    kind = rnd.randrange(5)
    if kind == 0:    # flip bytes anywhere in the section
        for _ in range(rnd.randint(1, 8)):
            m[off + rnd.randrange(size)] = rnd.randrange(256)
    elif kind == 1:  # nasty text over strings
        for _ in range(rnd.randint(1, 4)):
            s = rnd.choice(nasty)
            at = off + rnd.randrange(max(1, size - len(s)))
            m[at:at + len(s)] = s
    elif kind == 2:  # huge or odd namesz/descsz in some note header
        at = off + 4 * rnd.randrange(max(1, size // 4))
        m[at:at + 4] = rnd.choice([b'\xff\xff\xff\xff', b'\x00\x00\x00\x00',
                                   b'\x00\x00\x01\x00', b'\x03\x00\x00\x00'])
    elif kind == 3:  # an argument spec of hundreds of arguments
        spec = b' '.join([b'-4@%edi'] * rnd.randint(13, 300))
        at = off + rnd.randrange(size)
        m[at:at + len(spec)] = spec[:max(0, off + size - at)]
    else:            # truncate a section's contents to zeros
        cut = rnd.randrange(size)
        m[off + cut:off + size] = bytes(size - cut)
    return m

stats = dict(mutants=0, json_ok=0, crashes=0, hangs=0, compiler_errors=0)
diag = re.compile(r'^.*:\d+:\d+: (error|warning|note): ', re.M)
for i in range(count):
    f = 'mutant'
    open(f, 'wb').write(mutate())
    stats['mutants'] += 1
    for args in (['--list', '--json', f], ['--list', f], ['--bpftrace', f, '-o', 'm.bt']):
        try:
            r = subprocess.run([probegen] + args, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            stats['hangs'] += 1
            print('hang:', args, 'seed', seed, 'mutant', i)
            continue
        err = r.stderr.decode('utf-8', 'replace')
        if r.returncode < 0 or r.returncode > 2 or 'Sanitizer' in err:
            stats['crashes'] += 1
            print('crash:', args, r.returncode, err[-300:], 'mutant', i)
            open('crash-%d' % i, 'wb').write(open(f, 'rb').read())
        if diag.search(err) or diag.search(r.stdout.decode('utf-8', 'replace')):
            stats['compiler_errors'] += 1
            print('diagnostic:', args, err[:300])
        if args[1] == '--json' and r.returncode == 0:
            try:
                json.loads(r.stdout.decode('utf-8'))
                stats['json_ok'] += 1
            except ValueError as e:
                print('invalid JSON:', e, 'mutant', i)
                open('badjson-%d' % i, 'wb').write(r.stdout)
        elif args[1] == '--json':
            stats['json_ok'] += 1  # refused with a message: no JSON owed
print(' '.join('%s %d' % kv for kv in stats.items()))

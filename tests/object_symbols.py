"""tests/object_symbols.py - what each object of a build defines and
uses, by nm: the rooms' calls, which t_build.sh's rules are checked on.

symbols(objects, build) -> (defs, uses): defs maps a global symbol (code
or data) to the room that defines it; uses maps each room (its object's
path under build, less ".o") to the undefined symbols it uses.
"""
import os
import subprocess


def symbols(objects, build):
    defs, uses = {}, {}
    for o in objects:
        room = os.path.relpath(o, build)[:-2]
        uses[room] = set()
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            w = line.split()
            if len(w) == 3 and w[1] in "TDBR":
                defs[w[2]] = room
            elif len(w) == 2 and w[0] == "U":
                uses[room].add(w[1])
    return defs, uses

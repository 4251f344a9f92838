#!/usr/bin/env python3
"""tests/dwarf_self_member.py BINARY - make a hostile binary: the first
anonymous member of its struct `outer` (DWARF 4, DW_FORM_ref4) is made
to refer to `outer` itself, so the struct contains itself.  Offsets are
read from readelf; the one 4-byte reference is rewritten in place."""
import re, subprocess, sys, struct
path = sys.argv[1]
info = subprocess.run(["readelf", "--debug-dump=info", path], capture_output=True, text=True).stdout
sec = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
off = int(re.search(r"\.debug_info\s+\S+\s+\S+\s+(\S+)", sec).group(1), 16)
cu = None; outer = None; anon_type_at = None
for line in info.splitlines():
    m = re.match(r"\s*Compilation Unit @ offset (0x[0-9a-f]+|[0-9a-f]+):", line)
    if m: cu = int(m.group(1), 16)
    m = re.match(r"\s*<1><([0-9a-f]+)>: .*DW_TAG_structure_type", line)
    if m: last_struct = int(m.group(1), 16)
    if re.search(r"DW_AT_name\s+:.*: outer$", line): outer, outer_cu = last_struct, cu
    m = re.match(r"\s*<2><([0-9a-f]+)>: .*\(DW_TAG_member\)", line)
    if m: member = int(m.group(1), 16); named = False
    if re.search(r"<[0-9a-f]+>\s+DW_AT_name", line): named = True
    m = re.match(r"\s*<([0-9a-f]+)>\s+DW_AT_type\s+: <0x([0-9a-f]+)>", line)
    if m and outer is not None and not named and anon_type_at is None:
        anon_type_at, cu_of = int(m.group(1), 16), outer_cu
data = bytearray(open(path, "rb").read())
struct.pack_into("<I", data, off + anon_type_at, outer - cu_of)
open(path, "wb").write(bytes(data))

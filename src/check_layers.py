#!/usr/bin/env python3
"""The layer rule, checked on every build: no layer uses a symbol that only a
layer above it defines (src/meson.build, docs/architecture.md).

usage: check_layers.py NM STAMP LAYER=ARCHIVE[:BELOW,BELOW...] ...

Each LAYER's archive is read with NM (gcc-nm reads GCC's LTO objects, whose
symbol tables list every reference, also those in code that link-time
optimisation would drop). A symbol a layer's objects leave undefined and that
an archive of a layer it may not use defines is a backwards call: the check
names the object, the symbol and the layer that defines it, and fails. On
success it writes STAMP, so the build step runs again only when an archive
changes.
"""
import subprocess
import sys


def symbols(nm, archive):
    """(defined, undefined): symbol -> object file, from `nm -A` of an archive."""
    out = subprocess.run([nm, '-A', archive], check=True, capture_output=True, text=True).stdout
    defined, undefined = {}, {}
    for line in out.splitlines():
        where, _, rest = line.rpartition(': ') if ': ' in line else ('', '', line)
        parts = rest.split()
        if len(parts) < 2:
            continue
        kind, name = parts[-2], parts[-1]
        obj = where.rsplit(':', 1)[-1].rsplit('/', 1)[-1]
        if kind == 'U':
            undefined.setdefault(name, obj)
        elif kind not in ('w', 'v', 'N'):
            defined.setdefault(name, obj)
    return defined, undefined


def main():
    nm, stamp, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    layers = []
    for spec in specs:
        name, _, rest = spec.partition('=')
        archive, _, below = rest.partition(':')
        layers.append((name, archive, set(b for b in below.split(',') if b)))
    tables = {name: symbols(nm, archive) for name, archive, _ in layers}
    problems = []
    for name, _, below in layers:
        _, undefined = tables[name]
        for sym, obj in sorted(undefined.items()):
            if sym in tables[name][0]:
                continue
            owners = [other for other, _, _ in layers if other != name and sym in tables[other][0]]
            if owners and not any(o in below for o in owners):
                problems.append(f'{name}/{obj} uses {sym}, which layer {owners[0]} defines: '
                                f'{name} may use only {", ".join(sorted(below)) or "nothing"} (a call upwards)')
    if problems:
        print('check_layers: backwards calls between layers (docs/architecture.md):', file=sys.stderr)
        for p in problems:
            print('  ' + p, file=sys.stderr)
        return 1
    with open(stamp, 'w') as f:
        f.write('ok\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

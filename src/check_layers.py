#!/usr/bin/env python3
"""The layer rules, checked on every build (src/meson.build, docs/architecture.md).

usage: check_layers.py NM STAMP [--src SRC_DIR] LAYER=ARCHIVE[:BELOW,BELOW...] ...

1. Direction: no layer uses a symbol that only a layer above it defines.
   Each LAYER's archive is read with NM (gcc-nm reads GCC's LTO objects, whose
   symbol tables list every reference, also those in code that link-time
   optimisation would drop). A symbol a layer's objects leave undefined and that
   an archive of a layer it may not use defines is a backwards call: the check
   names the object, the symbol and the layer that defines it, and fails.
2. Sealed layers (with --src): a layer includes, of the layers below it, only
   the headers they export to it (EXPORTS below); the others are the layer's
   own (its structs, its helpers), whatever the include path lets the compiler
   find. Every "header.h" a layer's sources (SRC_DIR/LAYER/*.c, *.h) include
   that another layer's folder holds must be in the table: else the check names
   the file, the header and what the layer may include, and fails.
On success it writes STAMP, so the build step runs again only when an input
changes.
"""
import os
import re
import subprocess
import sys

# Of each layer below it, the headers a layer may include ('*': all of them). A layer below that is not
# listed exports nothing to it; a layer above is never listed. Own headers are always allowed, and so are
# the public ones (<ntidx/...>, "ntidx/...").
_FORMAT_TO_DECODERS = ['cursor.h', 'trace_internal.h', 'trace_blocks.h', 'map_guard.h', 'source.h']
EXPORTS = {
    'format': {'base': '*'},
    'decode': {'base': '*', 'format': _FORMAT_TO_DECODERS},
    # the layers that decode a trace see the trace itself; the reader's state and the index's are their own
    'reader': {'base': '*', 'format': _FORMAT_TO_DECODERS,
               'decode': ['definitions.h', 'event_header.h', 'manifest.h', 'metadata.h', 'values.h']},
    'index': {'base': '*', 'format': _FORMAT_TO_DECODERS,
              'decode': ['definitions.h', 'event_header.h', 'metadata.h']},
    'writer': {'base': '*'},
    # operations: plans and rows of the reader (reader_plan.h), the index's tables, build, summaries and
    # definitions walk; of the trace, blocks by offset and the shrink checkpoint (trace_blocks.h); of the
    # decoders, what a sequence point flushes (sp_flush.h: slice forgets what the input's readers forget)
    'ops': {'base': '*', 'format': ['trace_blocks.h'], 'decode': ['event_header.h', 'metadata.h', 'values.h', 'sp_flush.h'],
            'reader': ['reader_plan.h'],
            'index': ['index_tables.h', 'index_build.h', 'index_summary.h', 'index_walk.h']},
    'analysis': {'base': '*', 'format': ['trace_blocks.h'], 'decode': ['metadata.h', 'values.h', 'field_place.h'],
                 'reader': ['reader_plan.h'], 'index': ['index_tables.h'],
                 'ops': ['ops_internal.h', 'query_internal.h', 'stats_internal.h']},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


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


def backwards_calls(nm, layers):
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
    return problems


def sources(src, layer):
    folder = os.path.join(src, layer)
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(('.c', '.h')))


def sealed_includes(src, names):
    """Includes of another layer's header that the table does not export to the including layer."""
    owner = {}
    for layer in names:
        for path in sources(src, layer):
            if path.endswith('.h'):
                owner.setdefault(os.path.basename(path), layer)
    problems = []
    for layer in names:
        allowed = EXPORTS.get(layer, {})
        for path in sources(src, layer):
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
            for header in INCLUDE.findall(text):
                other = owner.get(os.path.basename(header))
                if other is None or other == layer or header.startswith('ntidx/'):
                    continue
                ok = allowed.get(other)
                if ok == '*' or (ok and os.path.basename(header) in ok):
                    continue
                what = ('nothing' if not ok else ', '.join(ok))
                problems.append(f'{layer}/{os.path.basename(path)} includes {header}, which layer {other} keeps to '
                                f'itself: {layer} may include of {other} {what} (a sealed boundary)')
    return problems


def main():
    args = sys.argv[1:]
    nm, stamp, rest = args[0], args[1], args[2:]
    src = None
    if rest[:1] == ['--src']:
        src, rest = rest[1], rest[2:]
    layers = []
    for spec in rest:
        name, _, tail = spec.partition('=')
        archive, _, below = tail.partition(':')
        layers.append((name, archive, set(b for b in below.split(',') if b)))
    problems = backwards_calls(nm, layers)
    if problems:
        print('check_layers: backwards calls between layers (docs/architecture.md):', file=sys.stderr)
        for p in problems:
            print('  ' + p, file=sys.stderr)
    sealed = sealed_includes(src, [name for name, _, _ in layers]) if src else []
    if sealed:
        print('check_layers: includes across sealed layers (docs/architecture.md):', file=sys.stderr)
        for p in sealed:
            print('  ' + p, file=sys.stderr)
    if problems or sealed:
        return 1
    with open(stamp, 'w') as f:
        f.write('ok\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

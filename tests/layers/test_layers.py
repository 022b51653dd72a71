#!/usr/bin/env python3
"""The layers refuse a backwards call (docs/architecture.md), shown on purpose.

usage: test_layers.py CC SRC_DIR BUILD_DIR NM

1. An include upwards does not compile: a file compiled with the index
   layer's include path cannot include the reader's header.
2. A call upwards does not pass the build's layer check: an index-layer object
   that calls ntidx_query_open (ops) is refused by src/check_layers.py, which
   names the object, the symbol and the layer defining it; the same object
   without the call passes (the control).
3. The same for the top layer: the ops layer with an object that calls
   ntidx_analysis_free (analysis) added is refused, and without it (the
   build's own ops and analysis layers, analysis calling ops) passes.
4. Sealed layers: an include across a sealed boundary, which the include path
   does not stop (ops compiles with the reader's and the index's folders on
   it), is refused by the check's table of what each layer exports: an ops
   file that includes reader_internal.h, an analysis file that includes
   index_internal.h, an ops file that includes the trace's struct
   (trace_internal.h), each named with what its layer may include instead;
   the sources as they are pass (the control).
5. docs/architecture.md lists every file meson builds: each source file a
   layer's meson.build names is in that layer's row of the table, and no row
   names a source file that is not built (or that does not exist).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

cc, src, build, nm = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
failures = 0


def check(cond, what):
    global failures
    print(('ok   ' if cond else 'FAIL ') + what)
    failures += not cond


index_inc = ['-I' + os.path.join(src, 'include'), '-I' + os.path.join(build, 'include')] + ['-I' + os.path.join(src, 'src', d)
                                                     for d in ('index', 'decode', 'format', 'base')]
with tempfile.TemporaryDirectory() as tmp:
    # 1. the include path
    up = os.path.join(tmp, 'include_up.c')
    with open(up, 'w') as f:
        f.write('#include "index_internal.h"\n#include "reader_internal.h"\nint probe;\n')
    r = subprocess.run([cc, '-std=c11', '-D_GNU_SOURCE', '-c', up, '-o', os.path.join(tmp, 'up.o')] + index_inc,
                       capture_output=True, text=True)
    check(r.returncode != 0 and 'reader_internal.h' in r.stderr,
          'index cannot include reader_internal.h: ' + (r.stderr.strip().splitlines() or ['compiled!'])[-1])
    down = os.path.join(tmp, 'include_down.c')
    with open(down, 'w') as f:
        f.write('#include "index_internal.h"\nint probe;\n')
    r = subprocess.run([cc, '-std=c11', '-D_GNU_SOURCE', '-c', down, '-o', os.path.join(tmp, 'down.o')] + index_inc,
                       capture_output=True, text=True)
    check(r.returncode == 0, 'index can include its own index_internal.h ' + r.stderr.strip())

    # 2. the layer check on an index object that calls upwards, and on one that does not
    layers = {name: os.path.join(build, 'src', name, 'libntx_%s.a' % name)
              for name in ('base', 'format', 'decode', 'reader', 'index', 'writer', 'ops', 'analysis')}
    for calls_up in (True, False):
        probe = os.path.join(tmp, 'probe.c')
        with open(probe, 'w') as f:
            f.write('#include "index_internal.h"\n'
                    'int ntx_probe(ntidx_trace *t, const ntidx_index *x);\n'
                    'int ntx_probe(ntidx_trace *t, const ntidx_index *x)\n{\n')
            if calls_up:
                f.write('    ntidx_query *q;\n    return ntidx_query_open(t, x, NULL, &q);\n}\n')
            else:
                f.write('    return ntidx_index_get_info(x) && t ? 0 : 1;\n}\n')
        obj, arch = os.path.join(tmp, 'probe.o'), os.path.join(tmp, 'libprobe.a')
        subprocess.run([cc, '-std=c11', '-D_GNU_SOURCE', '-c', probe, '-o', obj] + index_inc, check=True)
        if os.path.exists(arch):
            os.remove(arch)
        subprocess.run(['ar', 'rcs', arch, obj], check=True)
        specs = ['base=%s:' % layers['base'], 'format=%s:base' % layers['format'],
                 'decode=%s:format,base' % layers['decode'], 'index=%s:decode,format,base' % arch,
                 'ops=%s:index,decode,format,base' % layers['ops']]
        r = subprocess.run([sys.executable, os.path.join(src, 'src', 'check_layers.py'), nm,
                            os.path.join(tmp, 'stamp')] + specs, capture_output=True, text=True)
        if calls_up:
            check(r.returncode == 1 and 'index/probe.o uses ntidx_query_open, which layer ops defines' in r.stderr,
                  'a call from index to ops is refused: ' + r.stderr.strip().splitlines()[-1] if r.stderr else
                  'a call from index to ops is refused (it was not)')
        else:
            check(r.returncode == 0, 'an index object calling only its own layer passes ' + r.stderr.strip())

    # 3. ops may not call analysis; analysis may call ops
    ops_inc = index_inc + ['-I' + os.path.join(src, 'src', d) for d in ('ops', 'reader', 'writer')]
    below_ops = 'index,writer,reader,decode,format,base'
    for calls_up in (True, False):
        probe = os.path.join(tmp, 'ops_probe.c')
        with open(probe, 'w') as f:
            f.write('#include "ntidx/analysis.h"\n'
                    'int ntx_ops_probe(ntidx_trace *t, const ntidx_index *x);\n'
                    'int ntx_ops_probe(ntidx_trace *t, const ntidx_index *x)\n{\n')
            if calls_up:
                f.write('    ntidx_analysis *a = NULL;\n    ntidx_analysis_free(&a);\n    return t && x;\n}\n')
            else:
                f.write('    ntidx_query *q;\n    return ntidx_query_open(t, x, NULL, &q);\n}\n')
        obj, arch = os.path.join(tmp, 'ops_probe.o'), os.path.join(tmp, 'libops_probe.a')
        subprocess.run([cc, '-std=c11', '-D_GNU_SOURCE', '-c', probe, '-o', obj] + ops_inc, check=True)
        if os.path.exists(arch):
            os.remove(arch)
        subprocess.run(['ar', 'rcs', arch, obj], check=True)
        # the probe is one more file of the ops level: it may use ops and what ops may use
        specs = ['%s=%s:%s' % (n, layers[n], b) for n, b in
                 (('base', ''), ('format', 'base'), ('decode', 'format,base'), ('reader', 'decode,format,base'),
                  ('index', 'decode,format,base'), ('writer', 'base'), ('ops', below_ops))]
        specs += ['opsprobe=%s:ops,%s' % (arch, below_ops), 'analysis=%s:ops,%s' % (layers['analysis'], below_ops)]
        r = subprocess.run([sys.executable, os.path.join(src, 'src', 'check_layers.py'), nm,
                            os.path.join(tmp, 'stamp')] + specs, capture_output=True, text=True)
        if calls_up:
            check(r.returncode == 1 and 'opsprobe/ops_probe.o uses ntidx_analysis_free, which layer analysis defines' in r.stderr,
                  'a call from ops to analysis is refused: ' + (r.stderr.strip().splitlines() or ['(it was not)'])[-1])
        else:
            check(r.returncode == 0, 'the analysis layer calling ops, and ops calling itself, pass ' + r.stderr.strip())

    # 4. includes across sealed layers: a copy of the sources with one offending include each
    all_specs = ['%s=%s:%s' % (n, layers[n], b) for n, b in
                 (('base', ''), ('format', 'base'), ('decode', 'format,base'), ('reader', 'decode,format,base'),
                  ('index', 'decode,format,base'), ('writer', 'base'), ('ops', below_ops),
                  ('analysis', 'ops,' + below_ops))]
    check_cmd = [sys.executable, os.path.join(src, 'src', 'check_layers.py'), nm, os.path.join(tmp, 'stamp')]
    r = subprocess.run(check_cmd + ['--src', os.path.join(src, 'src')] + all_specs, capture_output=True, text=True)
    check(r.returncode == 0, 'the sources as they are keep every sealed boundary ' + r.stderr.strip())
    copy = os.path.join(tmp, 'src')
    shutil.copytree(os.path.join(src, 'src'), copy, ignore=shutil.ignore_patterns('*.o', '*.a', '__pycache__'))
    for layer, name, header in (('ops', 'probe_seal.c', 'reader_internal.h'),
                                ('analysis', 'probe_seal.c', 'index_internal.h'),
                                ('ops', 'probe_trace.c', 'trace_internal.h')):
        with open(os.path.join(copy, layer, name), 'w') as f:
            f.write('#include "%s"\nint probe;\n' % header)
    r = subprocess.run(check_cmd + ['--src', copy] + all_specs, capture_output=True, text=True)
    for want in ('ops/probe_seal.c includes reader_internal.h, which layer reader keeps to itself: '
                 'ops may include of reader reader_plan.h',
                 'analysis/probe_seal.c includes index_internal.h, which layer index keeps to itself: '
                 'analysis may include of index index_tables.h',
                 'ops/probe_trace.c includes trace_internal.h, which layer format keeps to itself: '
                 'ops may include of format trace_blocks.h'):
        check(r.returncode == 1 and want in r.stderr, 'refused: ' + want.split(':')[0] +
              ('' if want in r.stderr else ' (it was not: %s)' % r.stderr.strip()))

# 5. the architecture document's table against the build
with open(os.path.join(src, 'docs', 'architecture.md'), encoding='utf-8') as f:
    doc = f.read()
for name in ('base', 'format', 'decode', 'reader', 'index', 'writer', 'ops', 'analysis'):
    with open(os.path.join(src, 'src', name, 'meson.build'), encoding='utf-8') as f:
        built = set(re.findall(r"'([\w/]+\.c)'", f.read()))
    row = re.search(r'^\| `src/%s` \|[^|]*\|([^|]*)\|' % name, doc, re.M)
    listed = set(re.findall(r'`([\w/]+\.c)`', row.group(1))) if row else set()
    check(row is not None and built <= listed,
          'docs/architecture.md lists every file of src/%s (%s)' % (name, ', '.join(sorted(built - listed)) or 'all'))
    check(listed <= built, 'docs/architecture.md lists only built files of src/%s (%s)'
          % (name, ', '.join(sorted(listed - built)) or 'none else'))

print('%d failed' % failures)
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Generate src/decode/manifest_tables.c from the .NET runtime's event manifest.

The runtime's own providers (Microsoft-Windows-DotNETRuntime, -Rundown,
-Private, -Stress) write EventPipe metadata with an empty event name and,
before V6, no field layout. ClrEtwAll.man (dotnet/runtime,
src/coreclr/vm/ClrEtwAll.man, MIT) defines, per provider, every event's id,
version, task, opcode and payload template. This script turns it into C
tables: one row per (provider, event id, version) with the event's name as
PerfView/TraceEvent show it and its payload layout as an ntidx_field list.

usage:
    gen_manifest_tables.py MANIFEST -o src/decode/manifest_tables.c   write the tables
    gen_manifest_tables.py MANIFEST --check src/decode/manifest_tables.c
        exit 0 when regenerating gives the file byte for byte, 1 otherwise

Python 3 standard library only (xml.etree). The output is deterministic: no
dates, no paths; the manifest is identified by its SHA-256.

Naming rule (docs/runtime-events.md):
  name = TASK "/" OPCODE, where
    TASK   is the task's display string (its message in the stringTable,
           e.g. task GarbageCollection -> "GC"), or the task name if it has
           no message;
    OPCODE is "Start"/"Stop"/"DCStart"/"DCStop" for win:Start, win:Stop,
           win:DC_Start, win:DC_Stop; nothing for win:Info or no opcode (the
           name is then TASK alone); for other win: opcodes the part after
           "win:"; otherwise the opcode's display string, with a leading "GC"
           dropped under the GC task ("GCBulkNode" -> "BulkNode"), as
           TraceEvent does.
  An event without a task is named by its symbol.
  RENAMES lists the few events whose TraceEvent name departs from the rule.
"""
import argparse
import hashlib
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://schemas.microsoft.com/win/2004/08/events}'

# Only these providers' events are kept (the runtime's; Stress is kept too:
# it is in the manifest and costs a few rows).
PROVIDERS = [
    'Microsoft-Windows-DotNETRuntime',
    'Microsoft-Windows-DotNETRuntimeRundown',
    'Microsoft-Windows-DotNETRuntimePrivate',
    'Microsoft-Windows-DotNETRuntimeStress',
    'Microsoft-DotNETCore-SampleProfiler',
]

# Events whose TraceEvent name (ClrTraceEventParser, ClrRundownTraceEventParser)
# is not what the rule gives from this manifest: TraceEvent's parsers are
# hand-edited in places. Keyed by (provider, event id).
RENAMES = {
    ('Microsoft-Windows-DotNETRuntime', 58): 'YieldProcessorMeasurement',
    ('Microsoft-Windows-DotNETRuntime', 136): 'Method/DCStopCompleteV2',
    ('Microsoft-Windows-DotNETRuntime', 159): 'Method/R2RGetEntryPoint',
    ('Microsoft-Windows-DotNETRuntime', 160): 'Method/R2RGetEntryPointStart',
    ('Microsoft-Windows-DotNETRuntime', 186): 'Method/InliningFailedAnsi',
    ('Microsoft-Windows-DotNETRuntime', 190): 'Method/ILToNativeMap',
    ('Microsoft-Windows-DotNETRuntime', 202): 'GC/MarkWithType',
    ('Microsoft-Windows-DotNETRuntime', 270): 'EventSourceEvent',
    ('Microsoft-Windows-DotNETRuntime', 283): 'TieredCompilation/BackgroundJitStart',
    ('Microsoft-Windows-DotNETRuntime', 284): 'TieredCompilation/BackgroundJitStop',
    ('Microsoft-Windows-DotNETRuntime', 298): 'JitInstrumentationDataVerbose/InstrumentationData',
    ('Microsoft-Windows-DotNETRuntimeRundown', 149): 'Method/ILToNativeMapDCStart',
    ('Microsoft-Windows-DotNETRuntimeRundown', 150): 'Method/ILToNativeMapDCStop',
    ('Microsoft-Windows-DotNETRuntimeRundown', 280): 'TieredCompilationRundown/SettingsDCStart',
}

# Events the manifest does not define but real traces carry, with the layout
# the runtime writes (checked against real payloads; names as TraceEvent
# gives them). Fields are (name, inType).
SUPPLEMENT = [
    # The sample profiler is an EventPipe-only provider (TraceEvent's
    # SampleProfilerTraceEventParser): event 0 is one sample, its payload the
    # sample type (1 external code, 2 managed code).
    ('Microsoft-DotNETCore-SampleProfiler', 0, 0, 'Thread/Sample', [('Type', 'win:Int32')]),
    # Event 1 is a stack walk: pointer-size instruction pointers to the end
    # of the payload, which no field layout can say; named only.
    ('Microsoft-DotNETCore-SampleProfiler', 1, 0, 'Thread/StackWalk', None),
    # Added to the manifest after this copy (.NET 6): execution checkpoints
    # replayed at rundown.
    ('Microsoft-Windows-DotNETRuntimeRundown', 300, 0, 'ExecutionCheckpointRundown/ExecutionCheckpointDCEnd',
     [('ClrInstanceID', 'win:UInt16'), ('CheckpointName', 'win:UnicodeString'),
      ('CheckpointTimestamp', 'win:Int64')]),
]

BUILTIN_OPCODES = {
    'win:Info': None,
    'win:Start': 'Start',
    'win:Stop': 'Stop',
    'win:DC_Start': 'DCStart',
    'win:DC_Stop': 'DCStop',
}

# manifest inType -> C type code (NTIDX_TYPE_* public, NTX_TYPE_* ntidx-internal)
SCALARS = {
    'win:Int8': 'NTIDX_TYPE_SBYTE',
    'win:UInt8': 'NTIDX_TYPE_BYTE',
    'win:Int16': 'NTIDX_TYPE_INT16',
    'win:UInt16': 'NTIDX_TYPE_UINT16',
    'win:Int32': 'NTIDX_TYPE_INT32',
    'win:UInt32': 'NTIDX_TYPE_UINT32',
    'win:HexInt32': 'NTIDX_TYPE_UINT32',
    'win:Int64': 'NTIDX_TYPE_INT64',
    'win:UInt64': 'NTIDX_TYPE_UINT64',
    'win:HexInt64': 'NTIDX_TYPE_UINT64',
    'win:Float': 'NTIDX_TYPE_SINGLE',
    'win:Double': 'NTIDX_TYPE_DOUBLE',
    'win:Boolean': 'NTIDX_TYPE_BOOLEAN32',  # a 4-byte BOOL
    'win:GUID': 'NTIDX_TYPE_GUID',
    'win:FILETIME': 'NTIDX_TYPE_DATETIME',
    'win:UnicodeString': 'NTIDX_TYPE_UTF16_STRING',
    'win:AnsiString': 'NTX_TYPE_ANSI_STRING',
    'win:Pointer': 'NTX_TYPE_POINTER',
}
INTEGRAL = {'NTIDX_TYPE_BYTE', 'NTIDX_TYPE_UINT16', 'NTIDX_TYPE_UINT32', 'NTIDX_TYPE_UINT64',
            'NTIDX_TYPE_INT16', 'NTIDX_TYPE_INT32', 'NTIDX_TYPE_INT64', 'NTX_TYPE_POINTER'}

MAX_COUNT_REF = 64  # must match NTX_MAX_COUNT_REF in src/decode/manifest.h


class GenError(Exception):
    pass


def c_str(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append('\\' + ch)
        elif 0x20 <= o < 0x7f:
            out.append(ch)
        else:
            raise GenError(f'non-ASCII or control character in {s!r}')
    out.append('"')
    return ''.join(out)


class Fields:
    """All ntidx_field nodes, in one array; lists are contiguous runs."""

    def __init__(self):
        self.rows = []      # (name, type, element_count, element_index|None, fields_index|None, field_count, comment)
        self.memo = {}      # canonical key of a list -> start index

    def add_list(self, items):
        """items: list of node tuples (see node()). Returns the start index of the run."""
        key = tuple(items)
        if key in self.memo:
            return self.memo[key]
        # children first, so that a run of siblings stays contiguous
        rows = [self.materialize(it) for it in items]
        start = len(self.rows)
        self.rows.extend(rows)
        self.memo[key] = start
        return start

    def add_single(self, item):
        return self.add_list([item])

    def materialize(self, it):
        name, typ, count, element, children = it
        el = self.add_single(element) if element is not None else None
        ch = self.add_list(list(children)) if children else None
        return (name, typ, count, el, ch, len(children) if children else 0)


def node(name, typ, count=0, element=None, children=()):
    return (name, typ, count, element, tuple(children))


def parse_layout(elements, where):
    """A template's (or struct's) <data>/<struct> children -> list of nodes."""
    nodes = []
    names = []

    def count_ref(attr, what):
        if attr.isdigit():
            return None
        if attr not in names:
            raise GenError(f'{where}: {what} refers to {attr!r}, not an earlier field')
        k = names.index(attr)
        if nodes[k][1] not in INTEGRAL:
            raise GenError(f'{where}: {what} count field {attr!r} is not an integer')
        if k >= MAX_COUNT_REF:
            raise GenError(f'{where}: count field {attr!r} is field {k}, beyond {MAX_COUNT_REF}')
        return k

    for el in elements:
        tag = el.tag[len(NS):] if el.tag.startswith(NS) else el.tag
        if tag not in ('data', 'struct'):
            continue  # UserData and the like
        name = el.get('name')
        if tag == 'data':
            in_type = el.get('inType')
            length = el.get('length')
            count = el.get('count')
            if in_type == 'win:Binary':
                if length is None:
                    raise GenError(f'{where}: win:Binary {name!r} without length=')
                byte = node(name, 'NTIDX_TYPE_BYTE')
                if length.isdigit():
                    n = node(name, 'NTIDX_TYPE_FIXED_ARRAY', int(length), byte)
                else:
                    n = node(name, 'NTX_TYPE_COUNTED_ARRAY', count_ref(length, f'length of {name!r}'), byte)
            else:
                if in_type not in SCALARS:
                    raise GenError(f'{where}: unknown inType {in_type!r} for {name!r}')
                if length is not None:
                    raise GenError(f'{where}: length= on {in_type} {name!r} is not supported')
                n = node(name, SCALARS[in_type])
                if count is not None:
                    k = count_ref(count, f'count of {name!r}')
                    if k is None and name == 'Stack' and 'FrameCount' in names:
                        # ClrStackWalk: the manifest says count="2" as a
                        # placeholder; the runtime writes FrameCount
                        # pointers (TraceEvent reads FrameCount too).
                        k = names.index('FrameCount')
                    if k is None:
                        n = node(name, 'NTIDX_TYPE_FIXED_ARRAY', int(count), n)
                    else:
                        n = node(name, 'NTX_TYPE_COUNTED_ARRAY', k, n)
        else:
            children = parse_layout(list(el), f'{where}/{name}')
            obj = node(name, 'NTIDX_TYPE_OBJECT', children=children)
            count = el.get('count')
            if count is None:
                n = obj
            else:
                k = count_ref(count, f'count of struct {name!r}')
                if k is None:
                    n = node(name, 'NTIDX_TYPE_FIXED_ARRAY', int(count), obj)
                else:
                    n = node(name, 'NTX_TYPE_COUNTED_ARRAY', k, obj)
        nodes.append(n)
        names.append(name)
    return nodes


def load(manifest_path):
    root = ET.parse(manifest_path).getroot()
    strings = {}
    for s in root.iter(NS + 'string'):
        strings[s.get('id')] = s.get('value')

    def message(m):
        mm = re.fullmatch(r'\$\(string\.(.+)\)', m or '')
        if not mm:
            return None
        return strings.get(mm.group(1))

    events = []  # (provider, id, version, name, layout|None, symbol)
    for prov in root.iter(NS + 'provider'):
        pname = prov.get('name')
        if pname not in PROVIDERS:
            continue
        tasks = {}
        tasks_el = prov.find(NS + 'tasks')
        for t in (tasks_el if tasks_el is not None else []):
            ops = {}
            for o in t.iter(NS + 'opcode'):
                ops[o.get('name')] = message(o.get('message')) or o.get('name')
            tasks[t.get('name')] = (message(t.get('message')) or t.get('name'), ops)
        templates = {}
        tpl_el = prov.find(NS + 'templates')
        for tpl in (tpl_el if tpl_el is not None else []):
            tid = tpl.get('tid')
            templates[tid] = parse_layout(list(tpl), f'{pname} template {tid}')
        for ev in prov.find(NS + 'events'):
            if ev.tag != NS + 'event':
                continue
            eid = int(ev.get('value'))
            ver = int(ev.get('version') or 0)
            task, op = ev.get('task'), ev.get('opcode')
            if (pname, eid) in RENAMES:
                name = RENAMES[(pname, eid)]
            elif not task:
                name = ev.get('symbol')
            else:
                if task not in tasks:
                    raise GenError(f'{pname} event {eid}: unknown task {task!r}')
                tdisp, ops = tasks[task]
                if op is None or op in BUILTIN_OPCODES:
                    odisp = BUILTIN_OPCODES.get(op)
                elif op.startswith('win:'):
                    odisp = op[4:]
                elif op in ops:
                    odisp = ops[op]
                else:
                    raise GenError(f'{pname} event {eid}: opcode {op!r} not in task {task!r}')
                if odisp and tdisp == 'GC' and re.match(r'GC[A-Z]', odisp):
                    odisp = odisp[2:]
                name = tdisp + ('/' + odisp if odisp else '')
            tid = ev.get('template')
            if tid is not None and tid not in templates:
                raise GenError(f'{pname} event {eid} v{ver}: unknown template {tid!r}')
            layout = templates[tid] if tid is not None else []
            events.append((pname, eid, ver, name, layout, ev.get('symbol')))

    known = {(e[0], e[1], e[2]) for e in events}
    for pname, eid, ver, name, fields in SUPPLEMENT:
        if (pname, eid, ver) in known:
            raise GenError(f'supplement {pname} {eid} v{ver} is in the manifest now: drop it')
        layout = None if fields is None else [node(n, SCALARS[t]) for n, t in fields]
        events.append((pname, eid, ver, name, layout, None))

    seen = set()
    for e in events:
        k = (e[0], e[1], e[2])
        if k in seen:
            raise GenError(f'duplicate event {k}')
        seen.add(k)
    events.sort(key=lambda e: (PROVIDERS.index(e[0]), e[1], e[2]))
    return events


def generate(manifest_path):
    with open(manifest_path, 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    events = load(manifest_path)
    fields = Fields()
    rows = []
    for pname, eid, ver, name, layout, symbol in events:
        if layout:
            start, count = fields.add_list(list(layout)), len(layout)
        else:
            start, count = None, 0
        rows.append((PROVIDERS.index(pname), eid, ver, name, start, count, layout is None, symbol))

    o = []
    w = o.append
    w('/*')
    w(' * GENERATED FILE - do not edit. The .NET runtime\'s events: names as PerfView')
    w(' * and TraceEvent show them and payload layouts, from the runtime\'s manifest')
    w(' * ClrEtwAll.man (dotnet/runtime src/coreclr/vm/ClrEtwAll.man, MIT),')
    w(f' * sha256 {digest}.')
    w(' *')
    w(' * Regenerate from the repository root with')
    w(' *     python3 tools/gen_manifest_tables.py ../shared/manifests/ClrEtwAll.man \\')
    w(' *         -o src/decode/manifest_tables.c')
    w(' * The test manifest-tables-current fails when this file and the generator')
    w(' * disagree. Naming rule and layout mapping: docs/runtime-events.md.')
    w(' */')
    w('#include "manifest.h"')
    w('')
    w('const char *const ntx_manifest_providers[] = {')
    for p in PROVIDERS:
        w(f'    {c_str(p)},')
    w('};')
    w(f'const size_t ntx_manifest_provider_count = {len(PROVIDERS)};')
    w('')
    w('/* Every field node; a field list is a contiguous run. */')
    w('const ntidx_field ntx_manifest_fields[] = {')
    for i, (name, typ, count, el, ch, nch) in enumerate(fields.rows):
        el_s = f'&ntx_manifest_fields[{el}]' if el is not None else 'NULL'
        ch_s = f'&ntx_manifest_fields[{ch}]' if ch is not None else 'NULL'
        w(f'    /* {i} */ {{{c_str(name)}, {typ}, {count}, {el_s}, {ch_s}, {nch}}},')
    w('};')
    w(f'const size_t ntx_manifest_field_count = {len(fields.rows)};')
    w('')
    w('/* {provider, version, event id, field count, no layout, name, fields} (manifest symbol),')
    w(' * sorted by provider, event id, version. */')
    w('const ntx_manifest_event ntx_manifest_events[] = {')
    for prov, eid, ver, name, start, count, no_layout, symbol in rows:
        f_s = f'&ntx_manifest_fields[{start}]' if start is not None else 'NULL'
        note = f' /* {symbol} */' if symbol and re.fullmatch(r'\w+', symbol) else ''
        w(f'    {{{prov}, {ver}, {eid}, {count}, {1 if no_layout else 0}, {c_str(name)}, {f_s}}},{note}')
    w('};')
    w(f'const size_t ntx_manifest_event_count = {len(rows)};')
    return '\n'.join(o) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('manifest')
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('-o', dest='out', help='write the C file here')
    g.add_argument('--check', help='compare with this file; exit 1 when they differ')
    a = ap.parse_args()
    try:
        text = generate(a.manifest)
    except (GenError, ET.ParseError, OSError) as e:
        print(f'gen_manifest_tables: {e}', file=sys.stderr)
        return 2
    if a.out:
        with open(a.out, 'w', encoding='ascii', newline='\n') as f:
            f.write(text)
        return 0
    try:
        with open(a.check, encoding='ascii', newline='') as f:
            current = f.read()
    except OSError as e:
        print(f'gen_manifest_tables: {e}', file=sys.stderr)
        return 2
    if current != text:
        print(f'{a.check} is not what {a.manifest} generates: run gen_manifest_tables.py -o', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

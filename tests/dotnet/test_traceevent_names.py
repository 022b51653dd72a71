#!/usr/bin/env python3
"""The runtime's event names in ntidx's tables against TraceEvent's, without the .NET SDK.

    test_traceevent_names.py MANIFEST NAMES_TSV      (MANIFEST: ClrEtwAll.man, or .man.xz)

NAMES_TSV (tests/dotnet/golden/traceevent-names.tsv) is what `dumper names` printed: every event
TraceEvent 4.0.0's parsers for the runtime's providers name (provider, event id, name, the opcode of
its template; the conformance run regenerates and compares it). TraceEvent's naming is the specification of names,
so for every event of those providers in ntidx's tables (tools/gen_manifest_tables.py over
MANIFEST): the same name and template opcode when TraceEvent names it, no name when it does not (TraceEvent and ntidx
then show EventID(N)). The one exception is listed below with its reason. Exit 0 when all agree.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
import gen_manifest_tables  # noqa: E402

# TraceEvent shows the runtime's GC/DynamicEvent (39) as one event per payload name
# (GC/CommittedUsage...), through GCDynamicTraceEventParser rather than a template of its own;
# ntidx shows the event the runtime wrote (docs/conformance.md).
EXCEPTIONS = {('Microsoft-Windows-DotNETRuntime', 39)}


def main():
    manifest, names_tsv = sys.argv[1:3]
    te = {}
    with open(names_tsv, encoding='utf-8') as f:
        for line in f:
            prov, eid, name, opcode = line.rstrip('\n').split('\t')
            te[(prov, int(eid))] = (name, int(opcode))
    ours = {}
    for prov, eid, ver, name, _layout, _sym, opcode in gen_manifest_tables.load(manifest):
        # the opcode matters only where TraceEvent has a template (it renames an event whose
        # opcode differs from its template's)
        ours.setdefault((prov, eid), set()).add((name, opcode) if name else ('', None))
    bad = 0
    for key in sorted(set(ours) | set(te)):
        if key in EXCEPTIONS:
            continue
        want = te.get(key, ('', None))
        got = ours.get(key)
        if got is None:
            if want[0]:
                print(f'{key[0]}/{key[1]}: TraceEvent names it {want!r}, ntidx has no row for it')
                bad += 1
            continue
        if got != {want}:
            print(f'{key[0]}/{key[1]}: ntidx {sorted(got)}, TraceEvent {want!r}')
            bad += 1
    print(f'{len(te)} TraceEvent names, {len(ours)} ntidx events: {bad} differ')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

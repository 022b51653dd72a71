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

MANIFEST is the XML, or the XML compressed with xz (MANIFEST.xz): the
repository carries it as tests/data/ClrEtwAll.man.xz (tests/data/README.md).

Python 3 standard library only (xml.etree, lzma). The output is deterministic:
no dates, no paths; the manifest is identified by the SHA-256 of its XML.

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
  RENAMES lists the few events whose TraceEvent name departs from the rule,
  and (with the name "") the events TraceEvent's parsers do not name at all:
  TraceEvent shows them as EventID(N) and so does ntidx (their fields still
  decode). SUPPLEMENT adds what this copy of the manifest lacks: events and
  versions newer .NET runtimes write (checked against .NET 10 traces by
  tools/conformance.sh, names held against TraceEvent's by the test
  traceevent-names).
"""
import argparse
import hashlib
import lzma
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
    # Not the runtime's, and not in the manifest: one-collect's process events (dotnet-trace
    # collect-linux), which TraceEvent decodes with its own parser (SUPPLEMENT below).
    'Universal.System',
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
    ('Microsoft-Windows-DotNETRuntimePrivate', 191): 'FailFast',
    ('Microsoft-Windows-DotNETRuntimePrivate', 193): 'GC/CCWRefCountChangeAnsi',
    ('Microsoft-Windows-DotNETRuntimePrivate', 195): 'GC/DestroyGCHandle',
    ('Microsoft-Windows-DotNETRuntimePrivate', 310): 'LoaderHeap/AllocRequest',
}

# Templates whose opcode in TraceEvent differs from the manifest's (TraceEvent
# renames an event whose opcode differs from its template's, so the template's
# is the one that counts).
TE_OPCODES = {
    ('Microsoft-Windows-DotNETRuntimePrivate', 199): 45,  # GC/PinPlugAtGCTime; the manifest says 44
}

# Events TraceEvent's parsers (TraceEvent 4.0.0) have no template for: TraceEvent
# names them EventID(N) from the trace's empty metadata name, and so does ntidx
# (the name is the specification; the manifest's layout still decodes the
# payload). The runtime's GC/DynamicEvent (39) is not here: TraceEvent shows
# each one as an event named after its payload (docs/conformance.md).
UNNAMED = {
    'Microsoft-Windows-DotNETRuntime': [40, 41, 42, 43, 48, 49, 158, 191, 200, 201, 240, 241, 242, 243],
    'Microsoft-Windows-DotNETRuntimePrivate': [26, 197],
    'Microsoft-Windows-DotNETRuntimeRundown': [160, 161],
}
# Providers TraceEvent names only a few events of (ClrStressTraceEventParser):
# every other event of theirs is unnamed.
NAMED_ONLY = {
    'Microsoft-Windows-DotNETRuntimeStress': {0: 'StressLog/Start', 1: 'ClrStack/Walk'},
}

# Events and versions the manifest does not define but real traces carry, with
# the layout the runtime writes (names and opcodes as TraceEvent's templates
# give them). A layout is the manifest's own <data>/<struct> XML; None means
# named only. Entries marked
# REPLACE take the place of the manifest's row (its layout is not what the
# runtime writes). Sources: the runtime's newer ClrEtwAll.man and TraceEvent's
# parsers (ClrTraceEventParser), checked against .NET 10 payloads by
# tools/conformance.sh (every event decodes to exactly its size).
REPLACE = 'replace'
POINTER = 'inType="win:Pointer"'
SUPPLEMENT = [
    # The sample profiler is an EventPipe-only provider (TraceEvent's
    # SampleProfilerTraceEventParser): event 0 is one sample, its payload the
    # sample type (1 external code, 2 managed code).
    ('Microsoft-DotNETCore-SampleProfiler', 0, 0, 'Thread/Sample', 1,
     '<data name="Type" inType="win:Int32"/>'),
    # Event 1 is a stack walk: pointer-size instruction pointers to the end
    # of the payload, which no field layout can say; named only.
    ('Microsoft-DotNETCore-SampleProfiler', 1, 0, 'Thread/StackWalk', 2, None),
    # Added to the manifest after this copy (.NET 6): execution checkpoints
    # replayed at rundown.
    ('Microsoft-Windows-DotNETRuntimeRundown', 300, 0, 'ExecutionCheckpointRundown/ExecutionCheckpointDCEnd', 11,
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="CheckpointName" inType="win:UnicodeString"/>'
     '<data name="CheckpointTimestamp" inType="win:Int64"/>'),
    # .NET 6 and later.
    ('Microsoft-Windows-DotNETRuntime', 300, 0, 'ExecutionCheckpoint/ExecutionCheckpoint', 11,
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="CheckpointName" inType="win:UnicodeString"/>'
     '<data name="CheckpointTimestamp" inType="win:Int64"/>'),
    # Event 58 was InitializeYieldProcessorNormalized in this copy; the runtime
    # now writes YieldProcessorMeasurement (18 bytes) under the same id and
    # version.
    ('Microsoft-Windows-DotNETRuntime', 58, 0, REPLACE, None,
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="NsPerYield" inType="win:Double"/>'
     '<data name="EstablishedNsPerYield" inType="win:Double"/>'),
    ('Microsoft-Windows-DotNETRuntime', 59, 0, 'ThreadPoolMinMaxThreads', 0,
     '<data name="MinWorkerThreads" inType="win:UInt16"/><data name="MaxWorkerThreads" inType="win:UInt16"/>'
     '<data name="MinIOCompletionThreads" inType="win:UInt16"/><data name="MaxIOCompletionThreads" inType="win:UInt16"/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/>'),
    ('Microsoft-Windows-DotNETRuntime', 10, 4, 'GC/AllocationTick', 11,
     '<data name="AllocationAmount" inType="win:UInt32"/><data name="AllocationKind" inType="win:UInt32"/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="AllocationAmount64" inType="win:UInt64"/>'
     f'<data name="TypeID" {POINTER}/><data name="TypeName" inType="win:UnicodeString"/>'
     f'<data name="HeapIndex" inType="win:UInt32"/><data name="Address" {POINTER}/>'
     '<data name="ObjectSize" inType="win:UInt64"/>'),
    ('Microsoft-Windows-DotNETRuntime', 81, 2, 'Contention/Start', 1,
     '<data name="ContentionFlags" inType="win:UInt8"/><data name="ClrInstanceID" inType="win:UInt16"/>'
     f'<data name="LockID" {POINTER}/><data name="AssociatedObjectID" {POINTER}/>'
     '<data name="LockOwnerThreadID" inType="win:UInt64"/>'),
    ('Microsoft-Windows-DotNETRuntime', 90, 0, 'Contention/LockCreated', 11, f'<data name="LockID" {POINTER}/><data name="AssociatedObjectID" {POINTER}/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/>'),
    ('Microsoft-Windows-DotNETRuntime', 190, 1, 'Method/ILToNativeMap', 87,
     '<data name="MethodID" inType="win:UInt64"/><data name="ReJITID" inType="win:UInt64"/>'
     '<data name="MethodExtent" inType="win:UInt8"/><data name="CountOfMapEntries" inType="win:UInt16"/>'
     '<data name="ILOffsets" count="CountOfMapEntries" inType="win:UInt32"/>'
     '<data name="NativeOffsets" count="CountOfMapEntries" inType="win:UInt32"/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="ILVersionID" inType="win:UInt64"/>'),
    ('Microsoft-Windows-DotNETRuntimeRundown', 150, 1, 'Method/ILToNativeMapDCStop', 42,
     '<data name="MethodID" inType="win:UInt64"/><data name="ReJITID" inType="win:UInt64"/>'
     '<data name="MethodExtent" inType="win:UInt8"/><data name="CountOfMapEntries" inType="win:UInt16"/>'
     '<data name="ILOffsets" count="CountOfMapEntries" inType="win:UInt32"/>'
     '<data name="NativeOffsets" count="CountOfMapEntries" inType="win:UInt32"/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="ILVersionID" inType="win:UInt64"/>'),
    ('Microsoft-Windows-DotNETRuntime', 205, 4, 'GC/GlobalHeapHistory', 205,
     '<data name="FinalYoungestDesired" inType="win:UInt64"/><data name="NumHeaps" inType="win:Int32"/>'
     '<data name="CondemnedGeneration" inType="win:UInt32"/><data name="Gen0ReductionCount" inType="win:UInt32"/>'
     '<data name="Reason" inType="win:UInt32"/><data name="GlobalMechanisms" inType="win:UInt32"/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="PauseMode" inType="win:UInt32"/>'
     '<data name="MemoryPressure" inType="win:UInt32"/><data name="CondemnReasons0" inType="win:UInt32"/>'
     '<data name="CondemnReasons1" inType="win:UInt32"/><data name="Count" inType="win:UInt32"/>'
     '<struct name="Values" count="Count"><data name="Time" inType="win:UInt32"/></struct>'),
    ('Microsoft-Windows-DotNETRuntime', 208, 0, 'GC/LOHCompact', 208,
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="Count" inType="win:UInt16"/>'
     '<struct name="Values" count="Count"><data name="TimePlan" inType="win:UInt32"/>'
     '<data name="TimeCompact" inType="win:UInt32"/><data name="TimeRelocate" inType="win:UInt32"/>'
     f'<data name="TotalRefs" {POINTER}/><data name="ZeroRefs" {POINTER}/></struct>'),
    # The manifest says each bucket's Index is a UInt16; the runtime writes the
    # bucket struct with Index padded to 4 bytes (16 bytes a bucket, as
    # TraceEvent reads it).
    ('Microsoft-Windows-DotNETRuntime', 209, 0, 'GC/FitBucketInfo', 209,
     '<data name="ClrInstanceID" inType="win:UInt16"/><data name="BucketKind" inType="win:UInt16"/>'
     '<data name="TotalSize" inType="win:UInt64"/><data name="Count" inType="win:UInt16"/>'
     '<struct name="Values" count="Count"><data name="Index" inType="win:UInt32"/>'
     f'<data name="Count" inType="win:UInt32"/><data name="Size" {POINTER}/></struct>'),
    ('Microsoft-Windows-DotNETRuntime', 301, 0, 'WaitHandleWait/Start', 1, f'<data name="WaitSource" inType="win:UInt8"/><data name="AssociatedObjectID" {POINTER}/>'
     '<data name="ClrInstanceID" inType="win:UInt16"/>'),
    ('Microsoft-Windows-DotNETRuntime', 302, 0, 'WaitHandleWait/Stop', 2,
     '<data name="ClrInstanceID" inType="win:UInt16"/>'),
    ('Microsoft-Windows-DotNETRuntime', 303, 0, 'AllocationSampling', 0,
     '<data name="AllocationKind" inType="win:UInt32"/><data name="ClrInstanceID" inType="win:UInt16"/>'
     f'<data name="TypeID" {POINTER}/><data name="TypeName" inType="win:UnicodeString"/>'
     f'<data name="Address" {POINTER}/><data name="ObjectSize" inType="win:UInt64"/>'
     '<data name="SampledByteOffset" inType="win:UInt64"/>'),
    ('Microsoft-Windows-DotNETRuntime', 34, 0, 'GC/PinPlugAtGCTime', 37, None),
    ('Microsoft-Windows-DotNETRuntimeRundown', 10, 0, 'GC/SettingsRundown', 10,
     '<data name="HardLimit" inType="win:UInt64"/><data name="LOHThreshold" inType="win:UInt64"/>'
     '<data name="PhysicalMemoryConfig" inType="win:UInt64"/><data name="Gen0MinBudgetConfig" inType="win:UInt64"/>'
     '<data name="Gen0MaxBudgetConfig" inType="win:UInt64"/><data name="HighMemPercentConfig" inType="win:UInt32"/>'
     '<data name="BitSettings" inType="win:UInt32"/><data name="ClrInstanceID" inType="win:UInt16"/>'),
    ('Microsoft-Windows-DotNETRuntimeRundown', 188, 0, 'CodeSymbolsRundown/Start', 1,
     '<data name="ModuleId" inType="win:UInt64"/><data name="TotalChunks" inType="win:UInt16"/>'
     '<data name="ChunkNumber" inType="win:UInt16"/><data name="ChunkLength" inType="win:UInt32"/>'
     '<data name="Chunk" inType="win:Binary" length="ChunkLength"/><data name="ClrInstanceID" inType="win:UInt16"/>'),
    ('Microsoft-Windows-DotNETRuntimePrivate', 198, 0, 'GC/PinObjectAtGCTime', 44, None),
    ('Microsoft-Windows-DotNETRuntimePrivate', 300, 0, 'ThreadPoolWorkingThreadCount/Start', 1, None),
    ('Microsoft-Windows-DotNETRuntimePrivate', 301, 0, 'ThreadPool/Enqueue', 11, None),
    ('Microsoft-Windows-DotNETRuntimePrivate', 302, 0, 'ThreadPool/Dequeue', 12, None),
    ('Microsoft-Windows-DotNETRuntimePrivate', 303, 0, 'ThreadPool/IOEnqueue', 13, None),
    ('Microsoft-Windows-DotNETRuntimePrivate', 304, 0, 'ThreadPool/IODequeue', 14, None),
    ('Microsoft-Windows-DotNETRuntimePrivate', 305, 0, 'ThreadPool/IOPack', 15, None),
    # one-collect's Universal.System events, laid out as TraceEvent's UniversalSystemTraceEventParser
    # reads them: its metadata types the strings UTF8CodeUnit, but it writes each as a 16-bit length
    # and UTF-8 bytes (ProcessMapping's payload then repeats two strings, which no reader names).
    ('Universal.System', 0, 0, 'ExistingProcess', 0,
     '<data name="NamespaceId" inType="ntidx:VarUInt"/><data name="Name" inType="ntidx:ShortUTF8String"/>'
     '<data name="NamespaceName" inType="ntidx:ShortUTF8String"/>'),
    ('Universal.System', 1, 0, 'ProcessCreate', 0,
     '<data name="NamespaceId" inType="ntidx:VarUInt"/><data name="Name" inType="ntidx:ShortUTF8String"/>'
     '<data name="NamespaceName" inType="ntidx:ShortUTF8String"/>'),
    ('Universal.System', 2, 0, 'ProcessExit', 0, ''),
    ('Universal.System', 3, 0, 'ProcessMapping', 0,
     '<data name="Id" inType="ntidx:VarUInt"/><data name="StartAddress" inType="ntidx:VarUInt"/>'
     '<data name="EndAddress" inType="ntidx:VarUInt"/><data name="FileOffset" inType="ntidx:VarUInt"/>'
     '<data name="FileName" inType="ntidx:ShortUTF8String"/><data name="MetadataId" inType="ntidx:VarUInt"/>'),
    ('Universal.System', 4, 0, 'ProcessSymbol', 0,
     '<data name="Id" inType="ntidx:VarUInt"/><data name="MappingId" inType="ntidx:VarUInt"/>'
     '<data name="StartAddress" inType="ntidx:VarUInt"/><data name="EndAddress" inType="ntidx:VarUInt"/>'
     '<data name="Name" inType="ntidx:ShortUTF8String"/>'),
    ('Universal.System', 5, 0, 'ProcessMappingMetadata', 0,
     '<data name="Id" inType="ntidx:VarUInt"/><data name="SymbolMetadata" inType="ntidx:ShortUTF8String"/>'
     '<data name="VersionMetadata" inType="ntidx:ShortUTF8String"/>'),
]

# The values of the manifest's predefined opcodes (winmeta.xml), as TraceEventOpcode numbers them.
BUILTIN_OPCODE_VALUES = {
    'win:Info': 0, 'win:Start': 1, 'win:Stop': 2, 'win:DC_Start': 3, 'win:DC_Stop': 4, 'win:Extension': 5,
    'win:Reply': 6, 'win:Resume': 7, 'win:Suspend': 8, 'win:Send': 9, 'win:Receive': 240,
}

BUILTIN_OPCODES = {
    'win:Info': None,
    'win:Start': 'Start',
    'win:Stop': 'Stop',
    'win:DC_Start': 'DCStart',
    'win:DC_Stop': 'DCStop',
}

# manifest inType -> C type code (NTIDX_TYPE_* public, NTX_TYPE_* ntidx-internal)
SCALARS = {
    'ntidx:VarUInt': 'NTIDX_TYPE_VARUINT',  # for the Universal.System supplement (not the manifest's)
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
            if in_type == 'ntidx:ShortUTF8String':
                # a 16-bit count of UTF-8 code units, then the units: EventPipe's Array of UTF8CodeUnit
                n = node(name, 'NTIDX_TYPE_ARRAY', 0, node(name, 'NTIDX_TYPE_UTF8_CODE_UNIT'))
            elif in_type == 'win:Binary':
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


def read_manifest(path):
    """The manifest's XML, decompressed when the file is a .xz."""
    with (lzma.open(path, 'rb') if path.endswith('.xz') else open(path, 'rb')) as f:
        return f.read()


def load(manifest_path):
    root = ET.fromstring(read_manifest(manifest_path))
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
        op_values = {}  # (task, opcode name) -> value
        tasks_el = prov.find(NS + 'tasks')
        for t in (tasks_el if tasks_el is not None else []):
            ops = {}
            for o in t.iter(NS + 'opcode'):
                ops[o.get('name')] = message(o.get('message')) or o.get('name')
                op_values[(t.get('name'), o.get('name'))] = int(o.get('value'), 0)
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
            if eid in UNNAMED.get(pname, ()):
                name = ''
            elif pname in NAMED_ONLY:
                name = NAMED_ONLY[pname].get(eid, '')
            elif (pname, eid) in RENAMES:
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
            if op is None:
                opcode = 0
            elif op in BUILTIN_OPCODE_VALUES:
                opcode = BUILTIN_OPCODE_VALUES[op]
            elif (task, op) in op_values:
                opcode = op_values[(task, op)]
            else:
                raise GenError(f'{pname} event {eid}: no value for opcode {op!r}')
            opcode = TE_OPCODES.get((pname, eid), opcode)
            tid = ev.get('template')
            if tid is not None and tid not in templates:
                raise GenError(f'{pname} event {eid} v{ver}: unknown template {tid!r}')
            layout = templates[tid] if tid is not None else []
            events.append((pname, eid, ver, name, layout, ev.get('symbol'), opcode))

    known = {(e[0], e[1], e[2]): i for i, e in enumerate(events)}
    for pname, eid, ver, name, opcode, xml in SUPPLEMENT:
        where = f'supplement {pname} {eid} v{ver}'
        layout = None
        if xml is not None:
            layout = parse_layout(list(ET.fromstring(f'<t xmlns="{NS[1:-1]}">{xml}</t>')), where)
        if name == REPLACE:
            if (pname, eid, ver) not in known:
                raise GenError(f'{where} replaces a row the manifest does not have')
            old = events[known[(pname, eid, ver)]]
            events[known[(pname, eid, ver)]] = (pname, eid, ver, old[3], layout, old[5], old[6])
            continue
        if (pname, eid, ver) in known:
            raise GenError(f'{where} is in the manifest now: drop it')
        events.append((pname, eid, ver, name, layout, None, opcode))

    seen = set()
    for e in events:
        k = (e[0], e[1], e[2])
        if k in seen:
            raise GenError(f'duplicate event {k}')
        seen.add(k)
    events.sort(key=lambda e: (PROVIDERS.index(e[0]), e[1], e[2]))
    return events


def generate(manifest_path):
    digest = hashlib.sha256(read_manifest(manifest_path)).hexdigest()
    events = load(manifest_path)
    fields = Fields()
    rows = []
    for pname, eid, ver, name, layout, symbol, opcode in events:
        if layout:
            start, count = fields.add_list(list(layout)), len(layout)
        else:
            start, count = None, 0
        rows.append((PROVIDERS.index(pname), eid, ver, name, start, count, layout is None, symbol, opcode))

    o = []
    w = o.append
    w('/*')
    w(' * GENERATED FILE - do not edit. The .NET runtime\'s events: names as PerfView')
    w(' * and TraceEvent show them and payload layouts, from the runtime\'s manifest')
    w(' * ClrEtwAll.man (dotnet/runtime src/coreclr/vm/ClrEtwAll.man, MIT),')
    w(f' * sha256 {digest}.')
    w(' *')
    w(' * Regenerate from the repository root with')
    w(' *     python3 tools/gen_manifest_tables.py tests/data/ClrEtwAll.man.xz \\')
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
    w('/* {provider, version, event id, field count, no layout, opcode, name, fields} (manifest symbol),')
    w(' * sorted by provider, event id, version. */')
    w('const ntx_manifest_event ntx_manifest_events[] = {')
    for prov, eid, ver, name, start, count, no_layout, symbol, opcode in rows:
        f_s = f'&ntx_manifest_fields[{start}]' if start is not None else 'NULL'
        note = f' /* {symbol} */' if symbol and re.fullmatch(r'\w+', symbol) else ''
        w(f'    {{{prov}, {ver}, {eid}, {count}, {1 if no_layout else 0}, {opcode}, {c_str(name)}, {f_s}}},{note}')
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
    except (GenError, ET.ParseError, OSError, lzma.LZMAError) as e:
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

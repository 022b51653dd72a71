/*
 * GENERATED FILE - do not edit. The .NET runtime's events: names as PerfView
 * and TraceEvent show them and payload layouts, from the runtime's manifest
 * ClrEtwAll.man (dotnet/runtime src/coreclr/vm/ClrEtwAll.man, MIT),
 * sha256 935d3293b9c0520c7c4254f169b59aa1616db7562a6e7f59820c4d5a2abf1bfd.
 *
 * Regenerate from the repository root with
 *     python3 tools/gen_manifest_tables.py ../shared/manifests/ClrEtwAll.man \
 *         -o src/decode/manifest_tables.c
 * The test manifest-tables-current fails when this file and the generator
 * disagree. Naming rule and layout mapping: docs/runtime-events.md.
 */
#include "manifest.h"

const char *const ntx_manifest_providers[] = {
    "Microsoft-Windows-DotNETRuntime",
    "Microsoft-Windows-DotNETRuntimeRundown",
    "Microsoft-Windows-DotNETRuntimePrivate",
    "Microsoft-Windows-DotNETRuntimeStress",
    "Microsoft-DotNETCore-SampleProfiler",
};
const size_t ntx_manifest_provider_count = 5;

/* Every field node; a field list is a contiguous run. */
const ntidx_field ntx_manifest_fields[] = {
    /* 0 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 1 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 2 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 3 */ {"Depth", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 4 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 5 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 6 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 7 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 8 */ {"Depth", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 9 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 10 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 11 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 12 */ {"ClientSequenceNumber", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 13 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 14 */ {"Depth", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 15 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 16 */ {"Depth", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 17 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 18 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 19 */ {"GenerationSize0", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 20 */ {"TotalPromotedSize0", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 21 */ {"GenerationSize1", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 22 */ {"TotalPromotedSize1", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 23 */ {"GenerationSize2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 24 */ {"TotalPromotedSize2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 25 */ {"GenerationSize3", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 26 */ {"TotalPromotedSize3", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 27 */ {"FinalizationPromotedSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 28 */ {"FinalizationPromotedCount", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 29 */ {"PinnedObjectCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 30 */ {"SinkBlockCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 31 */ {"GCHandleCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 32 */ {"GenerationSize0", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 33 */ {"TotalPromotedSize0", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 34 */ {"GenerationSize1", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 35 */ {"TotalPromotedSize1", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 36 */ {"GenerationSize2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 37 */ {"TotalPromotedSize2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 38 */ {"GenerationSize3", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 39 */ {"TotalPromotedSize3", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 40 */ {"FinalizationPromotedSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 41 */ {"FinalizationPromotedCount", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 42 */ {"PinnedObjectCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 43 */ {"SinkBlockCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 44 */ {"GCHandleCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 45 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 46 */ {"GenerationSize0", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 47 */ {"TotalPromotedSize0", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 48 */ {"GenerationSize1", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 49 */ {"TotalPromotedSize1", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 50 */ {"GenerationSize2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 51 */ {"TotalPromotedSize2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 52 */ {"GenerationSize3", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 53 */ {"TotalPromotedSize3", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 54 */ {"FinalizationPromotedSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 55 */ {"FinalizationPromotedCount", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 56 */ {"PinnedObjectCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 57 */ {"SinkBlockCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 58 */ {"GCHandleCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 59 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 60 */ {"GenerationSize4", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 61 */ {"TotalPromotedSize4", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 62 */ {"Address", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 63 */ {"Size", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 64 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 65 */ {"Address", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 66 */ {"Size", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 67 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 68 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 69 */ {"Address", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 70 */ {"Address", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 71 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 72 */ {"Reason", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 73 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 74 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 75 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 76 */ {"AllocationAmount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 77 */ {"AllocationKind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 78 */ {"AllocationAmount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 79 */ {"AllocationKind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 80 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 81 */ {"AllocationAmount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 82 */ {"AllocationKind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 83 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 84 */ {"AllocationAmount64", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 85 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 86 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 87 */ {"HeapIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 88 */ {"AllocationAmount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 89 */ {"AllocationKind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 90 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 91 */ {"AllocationAmount64", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 92 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 93 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 94 */ {"HeapIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 95 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 96 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 97 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 98 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 99 */ {"TypeParameters", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 100 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 101 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 102 */ {"TypeNameID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 103 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 104 */ {"CorElementType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 105 */ {"Name", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 106 */ {"TypeParameterCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 107 */ {"TypeParameters", NTX_TYPE_COUNTED_ARRAY, 6, &ntx_manifest_fields[99], NULL, 0},
    /* 108 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[100], 8},
    /* 109 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 110 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 111 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[108], NULL, 0},
    /* 112 */ {"RootedNodeAddress", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 113 */ {"GCRootKind", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 114 */ {"GCRootFlag", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 115 */ {"GCRootID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 116 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[112], 4},
    /* 117 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 118 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 119 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 120 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[116], NULL, 0},
    /* 121 */ {"GCKeyNodeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 122 */ {"GCValueNodeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 123 */ {"GCRootID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 124 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[121], 3},
    /* 125 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 126 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 127 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 128 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[124], NULL, 0},
    /* 129 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 130 */ {"Size", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 131 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 132 */ {"EdgeCount", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 133 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[129], 4},
    /* 134 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 135 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 136 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 137 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[133], NULL, 0},
    /* 138 */ {"Value", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 139 */ {"ReferencingFieldID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 140 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[138], 2},
    /* 141 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 142 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 143 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 144 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[140], NULL, 0},
    /* 145 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 146 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 147 */ {"ObjectCountForTypeSample", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 148 */ {"TotalSizeForTypeSample", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 149 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 150 */ {"RangeBase", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 151 */ {"RangeLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 152 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[150], 2},
    /* 153 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 154 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 155 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 156 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[152], NULL, 0},
    /* 157 */ {"OldRangeBase", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 158 */ {"NewRangeBase", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 159 */ {"RangeLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 160 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[157], 3},
    /* 161 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 162 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 163 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 164 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[160], NULL, 0},
    /* 165 */ {"Generation", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 166 */ {"RangeStart", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 167 */ {"RangeUsedLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 168 */ {"RangeReservedLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 169 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 170 */ {"HeapNum", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 171 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 172 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 173 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 174 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 175 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 176 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 177 */ {"Kind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 178 */ {"Generation", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 179 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 180 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 181 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 182 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 183 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 184 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 185 */ {"ObjectSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 186 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 187 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 188 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 189 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 190 */ {"GCRootID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 191 */ {"ObjectID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 192 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 193 */ {"IUnknown", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 194 */ {"RefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 195 */ {"PeggedRefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 196 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 197 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[190], 7},
    /* 198 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 199 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 200 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[197], NULL, 0},
    /* 201 */ {"ObjectID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 202 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 203 */ {"IUnknown", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 204 */ {"VTable", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 205 */ {"RefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 206 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 207 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[201], 6},
    /* 208 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 209 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 210 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[207], NULL, 0},
    /* 211 */ {"GCRootID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 212 */ {"ObjectID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 213 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 214 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 215 */ {"FieldName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 216 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[211], 5},
    /* 217 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 218 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 219 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 220 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[216], NULL, 0},
    /* 221 */ {"Data", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 222 */ {"Name", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 223 */ {"DataSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 224 */ {"Data", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[221], NULL, 0},
    /* 225 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 226 */ {"WorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 227 */ {"RetiredWorkerThreads", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 228 */ {"IOThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 229 */ {"RetiredIOThreads", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 230 */ {"IOThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 231 */ {"RetiredIOThreads", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 232 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 233 */ {"ClrThreadID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 234 */ {"CpuUtilization", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 235 */ {"ActiveWorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 236 */ {"RetiredWorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 237 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 238 */ {"Throughput", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 239 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 240 */ {"AverageThroughput", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 241 */ {"NewWorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 242 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 243 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 244 */ {"Duration", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 245 */ {"Throughput", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 246 */ {"ThreadWave", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 247 */ {"ThroughputWave", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 248 */ {"ThroughputErrorEstimate", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 249 */ {"AverageThroughputErrorEstimate", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 250 */ {"ThroughputRatio", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 251 */ {"Confidence", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 252 */ {"NewControlSetting", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 253 */ {"NewThreadWaveMagnitude", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 254 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 255 */ {"YieldsPerNormalizedYield", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 256 */ {"OptimalMaxNormalizedYieldsPerSpinIteration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 257 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 258 */ {"WorkID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 259 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 260 */ {"NativeOverlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 261 */ {"Overlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 262 */ {"MultiDequeues", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 263 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 264 */ {"NativeOverlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 265 */ {"Overlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 266 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 267 */ {"ID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 268 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 269 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 270 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 271 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 272 */ {"TypeParameterCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 273 */ {"LoaderModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 274 */ {"TypeParameters", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[99], NULL, 0},
    /* 275 */ {"TypeLoadStartID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 276 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 277 */ {"TypeLoadStartID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 278 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 279 */ {"LoadLevel", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 280 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 281 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 282 */ {"ExceptionType", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 283 */ {"ExceptionMessage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 284 */ {"ExceptionEIP", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 285 */ {"ExceptionHRESULT", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 286 */ {"ExceptionFlags", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 287 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 288 */ {"ContentionFlags", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 289 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 290 */ {"Stack", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 291 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 292 */ {"Reserved1", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 293 */ {"Reserved2", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 294 */ {"FrameCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 295 */ {"Stack", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[290], NULL, 0},
    /* 296 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 297 */ {"Allocated", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 298 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 299 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 300 */ {"Survived", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 301 */ {"ProcessSurvived", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 302 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 303 */ {"ManagedThreadID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 304 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 305 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 306 */ {"ManagedThreadIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 307 */ {"OSThreadID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 308 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 309 */ {"ManagedThreadID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 310 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 311 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 312 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 313 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 314 */ {"StubMethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 315 */ {"StubFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 316 */ {"ManagedInteropMethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 317 */ {"ManagedInteropMethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 318 */ {"ManagedInteropMethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 319 */ {"ManagedInteropMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 320 */ {"NativeMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 321 */ {"StubMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 322 */ {"StubMethodILCode", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 323 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 324 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 325 */ {"StubMethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 326 */ {"ManagedInteropMethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 327 */ {"ManagedInteropMethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 328 */ {"ManagedInteropMethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 329 */ {"ManagedInteropMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 330 */ {"ContentionFlags", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 331 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 332 */ {"DurationNs", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 333 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 334 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 335 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 336 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 337 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 338 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 339 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 340 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 341 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 342 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 343 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 344 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 345 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 346 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 347 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 348 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 349 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 350 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 351 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 352 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 353 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 354 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 355 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 356 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 357 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 358 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 359 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 360 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 361 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 362 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 363 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 364 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 365 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 366 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 367 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 368 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 369 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 370 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 371 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 372 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 373 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 374 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 375 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 376 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 377 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 378 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 379 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 380 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 381 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 382 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 383 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 384 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 385 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 386 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 387 */ {"MethodILSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 388 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 389 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 390 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 391 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 392 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 393 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 394 */ {"MethodILSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 395 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 396 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 397 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 398 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 399 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 400 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 401 */ {"JitHotCodeRequestSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 402 */ {"JitRODataRequestSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 403 */ {"AllocatedSizeForJitCode", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 404 */ {"JitAllocFlag", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 405 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 406 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 407 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 408 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 409 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 410 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 411 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 412 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 413 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 414 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 415 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 416 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 417 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 418 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 419 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 420 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 421 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 422 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 423 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 424 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 425 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 426 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 427 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 428 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 429 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 430 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 431 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 432 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 433 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 434 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 435 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 436 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 437 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 438 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 439 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 440 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 441 */ {"ManagedPdbSignature", NTIDX_TYPE_GUID, 0, NULL, NULL, 0},
    /* 442 */ {"ManagedPdbAge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 443 */ {"ManagedPdbBuildPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 444 */ {"NativePdbSignature", NTIDX_TYPE_GUID, 0, NULL, NULL, 0},
    /* 445 */ {"NativePdbAge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 446 */ {"NativePdbBuildPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 447 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 448 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 449 */ {"AssemblyFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 450 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 451 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 452 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 453 */ {"BindingID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 454 */ {"AssemblyFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 455 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 456 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 457 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 458 */ {"AppDomainFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 459 */ {"AppDomainName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 460 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 461 */ {"AppDomainFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 462 */ {"AppDomainName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 463 */ {"AppDomainIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 464 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 465 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 466 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 467 */ {"RangeBegin", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 468 */ {"RangeSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 469 */ {"RangeType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 470 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 471 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 472 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 473 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 474 */ {"EntryPoint", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 475 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 476 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 477 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 478 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 479 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 480 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 481 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 482 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 483 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 484 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 485 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 486 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 487 */ {"ModulePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 488 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 489 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 490 */ {"ModulePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 491 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 492 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 493 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 494 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 495 */ {"InlinerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 496 */ {"InlinerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 497 */ {"InlinerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 498 */ {"InlineeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 499 */ {"InlineeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 500 */ {"InlineeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 501 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 502 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 503 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 504 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 505 */ {"InlinerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 506 */ {"InlinerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 507 */ {"InlinerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 508 */ {"InlineeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 509 */ {"InlineeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 510 */ {"InlineeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 511 */ {"FailAlways", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 512 */ {"FailReason", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 513 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 514 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 515 */ {"Sku", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 516 */ {"BclMajorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 517 */ {"BclMinorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 518 */ {"BclBuildNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 519 */ {"BclQfeNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 520 */ {"VMMajorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 521 */ {"VMMinorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 522 */ {"VMBuildNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 523 */ {"VMQfeNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 524 */ {"StartupFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 525 */ {"StartupMode", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 526 */ {"CommandLine", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 527 */ {"ComObjectGuid", NTIDX_TYPE_GUID, 0, NULL, NULL, 0},
    /* 528 */ {"RuntimeDllPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 529 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 530 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 531 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 532 */ {"CallerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 533 */ {"CallerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 534 */ {"CallerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 535 */ {"CalleeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 536 */ {"CalleeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 537 */ {"CalleeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 538 */ {"TailPrefix", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 539 */ {"TailCallType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 540 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 541 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 542 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 543 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 544 */ {"CallerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 545 */ {"CallerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 546 */ {"CallerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 547 */ {"CalleeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 548 */ {"CalleeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 549 */ {"CalleeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 550 */ {"TailPrefix", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 551 */ {"FailReason", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 552 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 553 */ {"ILOffsets", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 554 */ {"NativeOffsets", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 555 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 556 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 557 */ {"MethodExtent", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 558 */ {"CountOfMapEntries", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 559 */ {"ILOffsets", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[553], NULL, 0},
    /* 560 */ {"NativeOffsets", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[554], NULL, 0},
    /* 561 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 562 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 563 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 564 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 565 */ {"CallerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 566 */ {"CallerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 567 */ {"CallerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 568 */ {"CalleeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 569 */ {"CalleeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 570 */ {"CalleeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 571 */ {"TailPrefix", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 572 */ {"FailReason", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 573 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 574 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 575 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 576 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 577 */ {"InlinerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 578 */ {"InlinerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 579 */ {"InlinerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 580 */ {"InlineeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 581 */ {"InlineeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 582 */ {"InlineeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 583 */ {"FailAlways", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 584 */ {"FailReason", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 585 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 586 */ {"BytesAllocated", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 587 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 588 */ {"BytesFreed", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 589 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 590 */ {"HeapNum", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 591 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 592 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 593 */ {"Bytes", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 594 */ {"Heap", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 595 */ {"JoinTime", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 596 */ {"JoinType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 597 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 598 */ {"JoinID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 599 */ {"SizeBefore", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 600 */ {"FreeListBefore", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 601 */ {"FreeObjBefore", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 602 */ {"SizeAfter", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 603 */ {"FreeListAfter", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 604 */ {"FreeObjAfter", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 605 */ {"In", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 606 */ {"PinnedSurv", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 607 */ {"NonePinnedSurv", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 608 */ {"NewAllocation", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 609 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[599], 10},
    /* 610 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 611 */ {"FreeListAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 612 */ {"FreeListRejected", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 613 */ {"EndOfSegAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 614 */ {"CondemnedAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 615 */ {"PinnedAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 616 */ {"PinnedAllocatedAdvance", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 617 */ {"RunningFreeListEfficiency", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 618 */ {"CondemnReasons0", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 619 */ {"CondemnReasons1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 620 */ {"CompactMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 621 */ {"ExpandMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 622 */ {"HeapIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 623 */ {"ExtraGen0Commit", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 624 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 625 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 14, &ntx_manifest_fields[609], NULL, 0},
    /* 626 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 627 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 628 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 629 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 630 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 631 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 632 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 633 */ {"PauseMode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 634 */ {"MemoryPressure", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 635 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 636 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 637 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 638 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 639 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 640 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 641 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 642 */ {"PauseMode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 643 */ {"MemoryPressure", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 644 */ {"CondemnReasons0", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 645 */ {"CondemnReasons1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 646 */ {"EntryEIP", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 647 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 648 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 649 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 650 */ {"Chunk", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 651 */ {"ModuleId", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 652 */ {"TotalChunks", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 653 */ {"ChunkNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 654 */ {"ChunkLength", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 655 */ {"Chunk", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[650], NULL, 0},
    /* 656 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 657 */ {"EventID", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 658 */ {"EventName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 659 */ {"EventSourceName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 660 */ {"Payload", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 661 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 662 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 663 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 664 */ {"NewMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 665 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 666 */ {"PendingMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 667 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 668 */ {"PendingMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 669 */ {"JittedMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 670 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 671 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 672 */ {"AssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 673 */ {"RequestingAssembly", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 674 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 675 */ {"RequestingAssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 676 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 677 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 678 */ {"AssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 679 */ {"RequestingAssembly", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 680 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 681 */ {"RequestingAssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 682 */ {"Success", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 683 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 684 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 685 */ {"Cached", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 686 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 687 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 688 */ {"Stage", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 689 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 690 */ {"Result", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 691 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 692 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 693 */ {"ErrorMessage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 694 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 695 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 696 */ {"HandlerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 697 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 698 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 699 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 700 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 701 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 702 */ {"HandlerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 703 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 704 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 705 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 706 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 707 */ {"IsTrackedLoad", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 708 */ {"RequestingAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 709 */ {"ComputedRequestedAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 710 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 711 */ {"FilePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 712 */ {"Source", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 713 */ {"Result", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 714 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 715 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 716 */ {"DataSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 717 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 718 */ {"Data", NTX_TYPE_COUNTED_ARRAY, 2, &ntx_manifest_fields[221], NULL, 0},
    /* 719 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 720 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 721 */ {"DataSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 722 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 723 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 724 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 725 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 726 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 727 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 728 */ {"Data", NTX_TYPE_COUNTED_ARRAY, 2, &ntx_manifest_fields[221], NULL, 0},
    /* 729 */ {"RangeBegin", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 730 */ {"RangeSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 731 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 732 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 733 */ {"RangeBegin", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[729], NULL, 0},
    /* 734 */ {"RangeSize", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[730], NULL, 0},
    /* 735 */ {"RangeType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 736 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 737 */ {"CheckpointName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 738 */ {"CheckpointTimestamp", NTIDX_TYPE_INT64, 0, NULL, NULL, 0},
    /* 739 */ {"DoCompact", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 740 */ {"DoCompact", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 741 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 742 */ {"SegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 743 */ {"LargeObjectSegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 744 */ {"ServerGC", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 745 */ {"SegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 746 */ {"LargeObjectSegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 747 */ {"ServerGC", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 748 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 749 */ {"DesiredAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 750 */ {"NewAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 751 */ {"GenerationNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 752 */ {"DesiredAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 753 */ {"NewAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 754 */ {"GenerationNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 755 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 756 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 757 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 758 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 759 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 760 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 761 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 762 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 763 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 764 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 765 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 766 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 767 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 768 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 769 */ {"Heap", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 770 */ {"JoinTime", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 771 */ {"JoinType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 772 */ {"Heap", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 773 */ {"JoinTime", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 774 */ {"JoinType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 775 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 776 */ {"HeapNum", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 777 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 778 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 779 */ {"Pages", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 780 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 781 */ {"IsLarge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 782 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 783 */ {"Min", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 784 */ {"Max", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 785 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 786 */ {"IsLarge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 787 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 788 */ {"Min", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 789 */ {"Max", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 790 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 791 */ {"IsLarge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 792 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 793 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 794 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 795 */ {"IsAlloc", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 796 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 797 */ {"IsAlloc", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 798 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 799 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 800 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 801 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 802 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 803 */ {"RangeBegin", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[729], NULL, 0},
    /* 804 */ {"RangeSize", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[730], NULL, 0},
    /* 805 */ {"RangeType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 806 */ {"IBCType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 807 */ {"SectionType", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 808 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 809 */ {"LoadContextID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 810 */ {"FromLoaderCache", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 811 */ {"DynamicLoad", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 812 */ {"AssemblyCodebase", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 813 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 814 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 815 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 816 */ {"AppDomain", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 817 */ {"ILImage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 818 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 819 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 820 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 821 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 822 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 823 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 824 */ {"IsAllCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 825 */ {"IsAllTransparent", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 826 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 827 */ {"IsOpportunisticallyCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 828 */ {"SecurityRuleSet", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 829 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 830 */ {"Type", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 831 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 832 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 833 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 834 */ {"Type", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 835 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 836 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 837 */ {"IsAllCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 838 */ {"IsAllTransparent", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 839 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 840 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 841 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 842 */ {"Method", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 843 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 844 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 845 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 846 */ {"Method", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 847 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 848 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 849 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 850 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 851 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 852 */ {"Field", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 853 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 854 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 855 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 856 */ {"Field", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 857 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 858 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 859 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 860 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 861 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 862 */ {"Token", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 863 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 864 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 865 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 866 */ {"Token", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 867 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 868 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 869 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 870 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 871 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 872 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 873 */ {"BindingID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 874 */ {"ReasonCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 875 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 876 */ {"FailFastUserMessage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 877 */ {"FailedEIP", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 878 */ {"OSExitCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 879 */ {"ClrExitCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 880 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 881 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 882 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 883 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 884 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 885 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 886 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 887 */ {"COMInterfacePointer", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 888 */ {"NewRefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 889 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 890 */ {"ClassName", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 891 */ {"NameSpace", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 892 */ {"Operation", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 893 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 894 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 895 */ {"Prepend", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 896 */ {"Message", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 897 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 898 */ {"Category", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 899 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 900 */ {"PlugStart", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 901 */ {"PlugEnd", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 902 */ {"GapBeforeSize", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 903 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 904 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 905 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 906 */ {"COMInterfacePointer", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 907 */ {"NewRefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 908 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 909 */ {"ClassName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 910 */ {"NameSpace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 911 */ {"Operation", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 912 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 913 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 914 */ {"String1", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 915 */ {"String2", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 916 */ {"Int1", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 917 */ {"Int2", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 918 */ {"Int3", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 919 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 920 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 921 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 922 */ {"LoaderHeapPtr", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 923 */ {"MemoryAddress", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 924 */ {"RequestSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 925 */ {"Unused1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 926 */ {"Unused2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 927 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 928 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 929 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 930 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 931 */ {"SecondTypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 932 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 933 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 934 */ {"InterfaceTypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 935 */ {"VariantInterfaceTypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 936 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 937 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 938 */ {"Int1", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 939 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 940 */ {"Facility", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 941 */ {"LogLevel", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 942 */ {"Message", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 943 */ {"Facility", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 944 */ {"LogLevel", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 945 */ {"Message", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 946 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 947 */ {"Type", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
};
const size_t ntx_manifest_field_count = 948;

/* {provider, version, event id, field count, no layout, name, fields} (manifest symbol),
 * sorted by provider, event id, version. */
const ntx_manifest_event ntx_manifest_events[] = {
    {0, 0, 1, 2, 0, "GC/Start", &ntx_manifest_fields[0]}, /* GCStart */
    {0, 1, 1, 5, 0, "GC/Start", &ntx_manifest_fields[2]}, /* GCStart_V1 */
    {0, 2, 1, 6, 0, "GC/Start", &ntx_manifest_fields[7]}, /* GCStart_V2 */
    {0, 0, 2, 2, 0, "GC/Stop", &ntx_manifest_fields[13]}, /* GCEnd */
    {0, 1, 2, 3, 0, "GC/Stop", &ntx_manifest_fields[15]}, /* GCEnd_V1 */
    {0, 0, 3, 0, 0, "GC/RestartEEStop", NULL}, /* GCRestartEEEnd */
    {0, 1, 3, 1, 0, "GC/RestartEEStop", &ntx_manifest_fields[18]}, /* GCRestartEEEnd_V1 */
    {0, 0, 4, 13, 0, "GC/HeapStats", &ntx_manifest_fields[19]}, /* GCHeapStats */
    {0, 1, 4, 14, 0, "GC/HeapStats", &ntx_manifest_fields[32]}, /* GCHeapStats_V1 */
    {0, 2, 4, 16, 0, "GC/HeapStats", &ntx_manifest_fields[46]}, /* GCHeapStats_V2 */
    {0, 0, 5, 3, 0, "GC/CreateSegment", &ntx_manifest_fields[62]}, /* GCCreateSegment */
    {0, 1, 5, 4, 0, "GC/CreateSegment", &ntx_manifest_fields[65]}, /* GCCreateSegment_V1 */
    {0, 0, 6, 1, 0, "GC/FreeSegment", &ntx_manifest_fields[69]}, /* GCFreeSegment */
    {0, 1, 6, 2, 0, "GC/FreeSegment", &ntx_manifest_fields[70]}, /* GCFreeSegment_V1 */
    {0, 0, 7, 0, 0, "GC/RestartEEStart", NULL}, /* GCRestartEEBegin */
    {0, 1, 7, 1, 0, "GC/RestartEEStart", &ntx_manifest_fields[18]}, /* GCRestartEEBegin_V1 */
    {0, 0, 8, 0, 0, "GC/SuspendEEStop", NULL}, /* GCSuspendEEEnd */
    {0, 1, 8, 1, 0, "GC/SuspendEEStop", &ntx_manifest_fields[18]}, /* GCSuspendEEEnd_V1 */
    {0, 0, 9, 1, 0, "GC/SuspendEEStart", &ntx_manifest_fields[72]}, /* GCSuspendEEBegin */
    {0, 1, 9, 3, 0, "GC/SuspendEEStart", &ntx_manifest_fields[73]}, /* GCSuspendEEBegin_V1 */
    {0, 0, 10, 2, 0, "GC/AllocationTick", &ntx_manifest_fields[76]}, /* GCAllocationTick */
    {0, 1, 10, 3, 0, "GC/AllocationTick", &ntx_manifest_fields[78]}, /* GCAllocationTick_V1 */
    {0, 2, 10, 7, 0, "GC/AllocationTick", &ntx_manifest_fields[81]}, /* GCAllocationTick_V2 */
    {0, 3, 10, 8, 0, "GC/AllocationTick", &ntx_manifest_fields[88]}, /* GCAllocationTick_V3 */
    {0, 0, 11, 0, 0, "GC/CreateConcurrentThread", NULL}, /* GCCreateConcurrentThread */
    {0, 1, 11, 1, 0, "GC/CreateConcurrentThread", &ntx_manifest_fields[18]}, /* GCCreateConcurrentThread_V1 */
    {0, 0, 12, 0, 0, "GC/TerminateConcurrentThread", NULL}, /* GCTerminateConcurrentThread */
    {0, 1, 12, 1, 0, "GC/TerminateConcurrentThread", &ntx_manifest_fields[18]}, /* GCTerminateConcurrentThread_V1 */
    {0, 0, 13, 1, 0, "GC/FinalizersStop", &ntx_manifest_fields[96]}, /* GCFinalizersEnd */
    {0, 1, 13, 2, 0, "GC/FinalizersStop", &ntx_manifest_fields[97]}, /* GCFinalizersEnd_V1 */
    {0, 0, 14, 0, 0, "GC/FinalizersStart", NULL}, /* GCFinalizersBegin */
    {0, 1, 14, 1, 0, "GC/FinalizersStart", &ntx_manifest_fields[18]}, /* GCFinalizersBegin_V1 */
    {0, 0, 15, 3, 0, "Type/BulkType", &ntx_manifest_fields[109]}, /* BulkType */
    {0, 0, 16, 4, 0, "GC/BulkRootEdge", &ntx_manifest_fields[117]}, /* GCBulkRootEdge */
    {0, 0, 17, 4, 0, "GC/BulkRootConditionalWeakTableElementEdge", &ntx_manifest_fields[125]}, /* GCBulkRootConditionalWeakTableElementEdge */
    {0, 0, 18, 4, 0, "GC/BulkNode", &ntx_manifest_fields[134]}, /* GCBulkNode */
    {0, 0, 19, 4, 0, "GC/BulkEdge", &ntx_manifest_fields[141]}, /* GCBulkEdge */
    {0, 0, 20, 5, 0, "GC/SampledObjectAllocation", &ntx_manifest_fields[145]}, /* GCSampledObjectAllocationHigh */
    {0, 0, 21, 4, 0, "GC/BulkSurvivingObjectRanges", &ntx_manifest_fields[153]}, /* GCBulkSurvivingObjectRanges */
    {0, 0, 22, 4, 0, "GC/BulkMovedObjectRanges", &ntx_manifest_fields[161]}, /* GCBulkMovedObjectRanges */
    {0, 0, 23, 5, 0, "GC/GenerationRange", &ntx_manifest_fields[165]}, /* GCGenerationRange */
    {0, 0, 25, 2, 0, "GC/MarkStackRoots", &ntx_manifest_fields[170]}, /* GCMarkStackRoots */
    {0, 0, 26, 2, 0, "GC/MarkFinalizeQueueRoots", &ntx_manifest_fields[170]}, /* GCMarkFinalizeQueueRoots */
    {0, 0, 27, 2, 0, "GC/MarkHandles", &ntx_manifest_fields[170]}, /* GCMarkHandles */
    {0, 0, 28, 2, 0, "GC/MarkCards", &ntx_manifest_fields[170]}, /* GCMarkOlderGenerationRoots */
    {0, 0, 29, 3, 0, "GC/FinalizeObject", &ntx_manifest_fields[172]}, /* FinalizeObject */
    {0, 0, 30, 6, 0, "GC/SetGCHandle", &ntx_manifest_fields[175]}, /* SetGCHandle */
    {0, 0, 31, 2, 0, "GC/DestoryGCHandle", &ntx_manifest_fields[181]}, /* DestroyGCHandle */
    {0, 0, 32, 5, 0, "GC/SampledObjectAllocation", &ntx_manifest_fields[145]}, /* GCSampledObjectAllocationLow */
    {0, 0, 33, 5, 0, "GC/PinObjectAtGCTime", &ntx_manifest_fields[183]}, /* PinObjectAtGCTime */
    {0, 0, 35, 2, 0, "GC/Triggered", &ntx_manifest_fields[188]}, /* GCTriggered */
    {0, 0, 36, 3, 0, "GC/BulkRootCCW", &ntx_manifest_fields[198]}, /* GCBulkRootCCW */
    {0, 0, 37, 3, 0, "GC/BulkRCW", &ntx_manifest_fields[208]}, /* GCBulkRCW */
    {0, 0, 38, 4, 0, "GC/BulkRootStaticVar", &ntx_manifest_fields[217]}, /* GCBulkRootStaticVar */
    {0, 0, 39, 4, 0, "GC/DynamicEvent", &ntx_manifest_fields[222]}, /* GCDynamicEvent */
    {0, 0, 40, 2, 0, "WorkerThreadCreationV2/Start", &ntx_manifest_fields[226]}, /* WorkerThreadCreate */
    {0, 0, 41, 2, 0, "WorkerThreadCreationV2/Stop", &ntx_manifest_fields[226]}, /* WorkerThreadTerminate */
    {0, 0, 42, 2, 0, "WorkerThreadRetirementV2/Start", &ntx_manifest_fields[226]}, /* WorkerThreadRetire */
    {0, 0, 43, 2, 0, "WorkerThreadRetirementV2/Stop", &ntx_manifest_fields[226]}, /* WorkerThreadUnretire */
    {0, 0, 44, 2, 0, "IOThreadCreation/Start", &ntx_manifest_fields[228]}, /* IOThreadCreate */
    {0, 1, 44, 3, 0, "IOThreadCreation/Start", &ntx_manifest_fields[230]}, /* IOThreadCreate_V1 */
    {0, 0, 45, 2, 0, "IOThreadCreation/Stop", &ntx_manifest_fields[228]}, /* IOThreadTerminate */
    {0, 1, 45, 3, 0, "IOThreadCreation/Stop", &ntx_manifest_fields[230]}, /* IOThreadTerminate_V1 */
    {0, 0, 46, 2, 0, "IOThreadRetirement/Start", &ntx_manifest_fields[228]}, /* IOThreadRetire */
    {0, 1, 46, 3, 0, "IOThreadRetirement/Start", &ntx_manifest_fields[230]}, /* IOThreadRetire_V1 */
    {0, 0, 47, 2, 0, "IOThreadRetirement/Stop", &ntx_manifest_fields[228]}, /* IOThreadUnretire */
    {0, 1, 47, 3, 0, "IOThreadRetirement/Stop", &ntx_manifest_fields[230]}, /* IOThreadUnretire_V1 */
    {0, 0, 48, 2, 0, "ThreadpoolSuspensionV2/Start", &ntx_manifest_fields[233]}, /* ThreadpoolSuspensionSuspendThread */
    {0, 0, 49, 2, 0, "ThreadpoolSuspensionV2/Stop", &ntx_manifest_fields[233]}, /* ThreadpoolSuspensionResumeThread */
    {0, 0, 50, 3, 0, "ThreadPoolWorkerThread/Start", &ntx_manifest_fields[235]}, /* ThreadPoolWorkerThreadStart */
    {0, 0, 51, 3, 0, "ThreadPoolWorkerThread/Stop", &ntx_manifest_fields[235]}, /* ThreadPoolWorkerThreadStop */
    {0, 0, 52, 3, 0, "ThreadPoolWorkerThreadRetirement/Start", &ntx_manifest_fields[235]}, /* ThreadPoolWorkerThreadRetirementStart */
    {0, 0, 53, 3, 0, "ThreadPoolWorkerThreadRetirement/Stop", &ntx_manifest_fields[235]}, /* ThreadPoolWorkerThreadRetirementStop */
    {0, 0, 54, 2, 0, "ThreadPoolWorkerThreadAdjustment/Sample", &ntx_manifest_fields[238]}, /* ThreadPoolWorkerThreadAdjustmentSample */
    {0, 0, 55, 4, 0, "ThreadPoolWorkerThreadAdjustment/Adjustment", &ntx_manifest_fields[240]}, /* ThreadPoolWorkerThreadAdjustmentAdjustment */
    {0, 0, 56, 11, 0, "ThreadPoolWorkerThreadAdjustment/Stats", &ntx_manifest_fields[244]}, /* ThreadPoolWorkerThreadAdjustmentStats */
    {0, 0, 57, 3, 0, "ThreadPoolWorkerThread/Wait", &ntx_manifest_fields[235]}, /* ThreadPoolWorkerThreadWait */
    {0, 0, 58, 3, 0, "YieldProcessorMeasurement", &ntx_manifest_fields[255]}, /* InitializeYieldProcessorNormalizedInfo */
    {0, 0, 60, 2, 0, "ThreadPoolWorkingThreadCount/Start", &ntx_manifest_fields[97]}, /* ThreadPoolWorkingThreadCount */
    {0, 0, 61, 2, 0, "ThreadPool/Enqueue", &ntx_manifest_fields[258]}, /* ThreadPoolEnqueue */
    {0, 0, 62, 2, 0, "ThreadPool/Dequeue", &ntx_manifest_fields[258]}, /* ThreadPoolDequeue */
    {0, 0, 63, 4, 0, "ThreadPool/IOEnqueue", &ntx_manifest_fields[260]}, /* ThreadPoolIOEnqueue */
    {0, 0, 64, 3, 0, "ThreadPool/IODequeue", &ntx_manifest_fields[264]}, /* ThreadPoolIODequeue */
    {0, 0, 65, 3, 0, "ThreadPool/IOPack", &ntx_manifest_fields[264]}, /* ThreadPoolIOPack */
    {0, 0, 70, 2, 0, "Thread/Creating", &ntx_manifest_fields[267]}, /* ThreadCreating */
    {0, 0, 71, 2, 0, "Thread/Running", &ntx_manifest_fields[267]}, /* ThreadRunning */
    {0, 0, 72, 6, 0, "Method/MethodDetails", &ntx_manifest_fields[269]}, /* MethodDetails */
    {0, 0, 73, 2, 0, "TypeLoad/Start", &ntx_manifest_fields[275]}, /* TypeLoadStart */
    {0, 0, 74, 5, 0, "TypeLoad/Stop", &ntx_manifest_fields[277]}, /* TypeLoadStop */
    {0, 0, 80, 0, 0, "Exception/Start", NULL}, /* ExceptionThrown */
    {0, 1, 80, 6, 0, "Exception/Start", &ntx_manifest_fields[282]}, /* ExceptionThrown_V1 */
    {0, 0, 81, 0, 0, "Contention/Start", NULL}, /* Contention */
    {0, 1, 81, 2, 0, "Contention/Start", &ntx_manifest_fields[288]}, /* ContentionStart_V1 */
    {0, 0, 82, 5, 0, "ClrStack/Walk", &ntx_manifest_fields[291]}, /* CLRStackWalk */
    {0, 0, 83, 3, 0, "AppDomainResourceManagement/MemAllocated", &ntx_manifest_fields[296]}, /* AppDomainMemAllocated */
    {0, 0, 84, 4, 0, "AppDomainResourceManagement/MemSurvived", &ntx_manifest_fields[299]}, /* AppDomainMemSurvived */
    {0, 0, 85, 6, 0, "AppDomainResourceManagement/ThreadCreated", &ntx_manifest_fields[303]}, /* ThreadCreated */
    {0, 0, 86, 3, 0, "AppDomainResourceManagement/ThreadTerminated", &ntx_manifest_fields[309]}, /* ThreadTerminated */
    {0, 0, 87, 3, 0, "AppDomainResourceManagement/DomainEnter", &ntx_manifest_fields[309]}, /* ThreadDomainEnter */
    {0, 0, 88, 11, 0, "ILStub/StubGenerated", &ntx_manifest_fields[312]}, /* ILStubGenerated */
    {0, 0, 89, 7, 0, "ILStub/StubCacheHit", &ntx_manifest_fields[323]}, /* ILStubCacheHit */
    {0, 0, 91, 2, 0, "Contention/Stop", &ntx_manifest_fields[288]}, /* ContentionStop */
    {0, 1, 91, 3, 0, "Contention/Stop", &ntx_manifest_fields[330]}, /* ContentionStop_V1 */
    {0, 0, 135, 0, 0, "Method/DCStartCompleteV2", NULL}, /* DCStartCompleteV2 */
    {0, 0, 136, 0, 0, "Method/DCStopCompleteV2", NULL}, /* DCEndCompleteV2 */
    {0, 0, 137, 6, 0, "Method/DCStartV2", &ntx_manifest_fields[333]}, /* MethodDCStartV2 */
    {0, 0, 138, 6, 0, "Method/DCStopV2", &ntx_manifest_fields[333]}, /* MethodDCEndV2 */
    {0, 0, 139, 9, 0, "Method/DCStartVerboseV2", &ntx_manifest_fields[339]}, /* MethodDCStartVerboseV2 */
    {0, 0, 140, 9, 0, "Method/DCStopVerboseV2", &ntx_manifest_fields[339]}, /* MethodDCEndVerboseV2 */
    {0, 0, 141, 6, 0, "Method/Load", &ntx_manifest_fields[333]}, /* MethodLoad */
    {0, 1, 141, 7, 0, "Method/Load", &ntx_manifest_fields[348]}, /* MethodLoad_V1 */
    {0, 2, 141, 8, 0, "Method/Load", &ntx_manifest_fields[355]}, /* MethodLoad_V2 */
    {0, 0, 142, 6, 0, "Method/Unload", &ntx_manifest_fields[333]}, /* MethodUnload */
    {0, 1, 142, 7, 0, "Method/Unload", &ntx_manifest_fields[348]}, /* MethodUnload_V1 */
    {0, 2, 142, 8, 0, "Method/Unload", &ntx_manifest_fields[355]}, /* MethodUnload_V2 */
    {0, 0, 143, 9, 0, "Method/LoadVerbose", &ntx_manifest_fields[339]}, /* MethodLoadVerbose */
    {0, 1, 143, 10, 0, "Method/LoadVerbose", &ntx_manifest_fields[363]}, /* MethodLoadVerbose_V1 */
    {0, 2, 143, 11, 0, "Method/LoadVerbose", &ntx_manifest_fields[373]}, /* MethodLoadVerbose_V2 */
    {0, 0, 144, 9, 0, "Method/UnloadVerbose", &ntx_manifest_fields[339]}, /* MethodUnloadVerbose */
    {0, 1, 144, 10, 0, "Method/UnloadVerbose", &ntx_manifest_fields[363]}, /* MethodUnloadVerbose_V1 */
    {0, 2, 144, 11, 0, "Method/UnloadVerbose", &ntx_manifest_fields[373]}, /* MethodUnloadVerbose_V2 */
    {0, 0, 145, 7, 0, "Method/JittingStarted", &ntx_manifest_fields[384]}, /* MethodJittingStarted */
    {0, 1, 145, 8, 0, "Method/JittingStarted", &ntx_manifest_fields[391]}, /* MethodJittingStarted_V1 */
    {0, 0, 146, 7, 0, "Method/MemoryAllocatedForJitCode", &ntx_manifest_fields[399]}, /* MethodJitMemoryAllocatedForCode */
    {0, 0, 149, 6, 0, "Loader/ModuleDCStartV2", &ntx_manifest_fields[406]}, /* ModuleDCStartV2 */
    {0, 0, 150, 6, 0, "Loader/ModuleDCStopV2", &ntx_manifest_fields[406]}, /* ModuleDCEndV2 */
    {0, 0, 151, 7, 0, "Loader/DomainModuleLoad", &ntx_manifest_fields[412]}, /* DomainModuleLoad */
    {0, 1, 151, 8, 0, "Loader/DomainModuleLoad", &ntx_manifest_fields[419]}, /* DomainModuleLoad_V1 */
    {0, 0, 152, 6, 0, "Loader/ModuleLoad", &ntx_manifest_fields[406]}, /* ModuleLoad */
    {0, 1, 152, 7, 0, "Loader/ModuleLoad", &ntx_manifest_fields[427]}, /* ModuleLoad_V1 */
    {0, 2, 152, 13, 0, "Loader/ModuleLoad", &ntx_manifest_fields[434]}, /* ModuleLoad_V2 */
    {0, 0, 153, 6, 0, "Loader/ModuleUnload", &ntx_manifest_fields[406]}, /* ModuleUnload */
    {0, 1, 153, 7, 0, "Loader/ModuleUnload", &ntx_manifest_fields[427]}, /* ModuleUnload_V1 */
    {0, 2, 153, 13, 0, "Loader/ModuleUnload", &ntx_manifest_fields[434]}, /* ModuleUnload_V2 */
    {0, 0, 154, 4, 0, "Loader/AssemblyLoad", &ntx_manifest_fields[447]}, /* AssemblyLoad */
    {0, 1, 154, 6, 0, "Loader/AssemblyLoad", &ntx_manifest_fields[451]}, /* AssemblyLoad_V1 */
    {0, 0, 155, 4, 0, "Loader/AssemblyUnload", &ntx_manifest_fields[447]}, /* AssemblyUnload */
    {0, 1, 155, 6, 0, "Loader/AssemblyUnload", &ntx_manifest_fields[451]}, /* AssemblyUnload_V1 */
    {0, 0, 156, 3, 0, "Loader/AppDomainLoad", &ntx_manifest_fields[457]}, /* AppDomainLoad */
    {0, 1, 156, 5, 0, "Loader/AppDomainLoad", &ntx_manifest_fields[460]}, /* AppDomainLoad_V1 */
    {0, 0, 157, 3, 0, "Loader/AppDomainUnload", &ntx_manifest_fields[457]}, /* AppDomainUnload */
    {0, 1, 157, 5, 0, "Loader/AppDomainUnload", &ntx_manifest_fields[460]}, /* AppDomainUnload_V1 */
    {0, 0, 158, 5, 0, "ClrPerfTrack/ModuleRangeLoad", &ntx_manifest_fields[465]}, /* ModuleRangeLoad */
    {0, 0, 159, 6, 0, "Method/R2RGetEntryPoint", &ntx_manifest_fields[470]}, /* R2RGetEntryPoint */
    {0, 0, 160, 2, 0, "Method/R2RGetEntryPointStart", &ntx_manifest_fields[476]}, /* R2RGetEntryPointStart */
    {0, 0, 181, 3, 0, "StrongNameVerification/Start", &ntx_manifest_fields[478]}, /* StrongNameVerificationStart */
    {0, 1, 181, 4, 0, "StrongNameVerification/Start", &ntx_manifest_fields[481]}, /* StrongNameVerificationStart_V1 */
    {0, 0, 182, 3, 0, "StrongNameVerification/Stop", &ntx_manifest_fields[478]}, /* StrongNameVerificationStop */
    {0, 1, 182, 4, 0, "StrongNameVerification/Stop", &ntx_manifest_fields[481]}, /* StrongNameVerificationStop_V1 */
    {0, 0, 183, 3, 0, "AuthenticodeVerification/Start", &ntx_manifest_fields[485]}, /* AuthenticodeVerificationStart */
    {0, 1, 183, 4, 0, "AuthenticodeVerification/Start", &ntx_manifest_fields[488]}, /* AuthenticodeVerificationStart_V1 */
    {0, 0, 184, 3, 0, "AuthenticodeVerification/Stop", &ntx_manifest_fields[485]}, /* AuthenticodeVerificationStop */
    {0, 1, 184, 4, 0, "AuthenticodeVerification/Stop", &ntx_manifest_fields[488]}, /* AuthenticodeVerificationStop_V1 */
    {0, 0, 185, 10, 0, "Method/InliningSucceeded", &ntx_manifest_fields[492]}, /* MethodJitInliningSucceeded */
    {0, 0, 186, 12, 0, "Method/InliningFailedAnsi", &ntx_manifest_fields[502]}, /* MethodJitInliningFailedAnsi */
    {0, 0, 187, 15, 0, "Runtime/Start", &ntx_manifest_fields[514]}, /* RuntimeInformationStart */
    {0, 0, 188, 12, 0, "Method/TailCallSucceeded", &ntx_manifest_fields[529]}, /* MethodJitTailCallSucceeded */
    {0, 0, 189, 12, 0, "Method/TailCallFailed", &ntx_manifest_fields[541]}, /* MethodJitTailCallFailedAnsi */
    {0, 0, 190, 7, 0, "Method/ILToNativeMap", &ntx_manifest_fields[555]}, /* MethodILToNativeMap */
    {0, 0, 191, 12, 0, "Method/TailCallFailed", &ntx_manifest_fields[562]}, /* MethodJitTailCallFailed */
    {0, 0, 192, 12, 0, "Method/InliningFailed", &ntx_manifest_fields[574]}, /* MethodJitInliningFailed */
    {0, 0, 200, 2, 0, "GC/IncreaseMemoryPressure", &ntx_manifest_fields[586]}, /* IncreaseMemoryPressure */
    {0, 0, 201, 2, 0, "GC/DecreaseMemoryPressure", &ntx_manifest_fields[588]}, /* DecreaseMemoryPressure */
    {0, 0, 202, 4, 0, "GC/MarkWithType", &ntx_manifest_fields[590]}, /* GCMarkWithType */
    {0, 2, 203, 5, 0, "GC/Join", &ntx_manifest_fields[594]}, /* GCJoin_V2 */
    {0, 3, 204, 16, 0, "GC/PerHeapHistory", &ntx_manifest_fields[610]}, /* GCPerHeapHistory_V3 */
    {0, 2, 205, 9, 0, "GC/GlobalHeapHistory", &ntx_manifest_fields[626]}, /* GCGlobalHeapHistory_V2 */
    {0, 3, 205, 11, 0, "GC/GlobalHeapHistory", &ntx_manifest_fields[635]}, /* GCGlobalHeapHistory_V3 */
    {0, 0, 206, 2, 0, "GC/GenAwareBegin", &ntx_manifest_fields[97]}, /* GenAwareBegin */
    {0, 0, 207, 2, 0, "GC/GenAwareEnd", &ntx_manifest_fields[97]}, /* GenAwareEnd */
    {0, 0, 240, 0, 0, "DebugIPCEvent/Start", NULL}, /* DebugIPCEventStart */
    {0, 0, 241, 0, 0, "DebugIPCEvent/Stop", NULL}, /* DebugIPCEventEnd */
    {0, 0, 242, 0, 0, "DebugExceptionProcessing/Start", NULL}, /* DebugExceptionProcessingStart */
    {0, 0, 243, 0, 0, "DebugExceptionProcessing/Stop", NULL}, /* DebugExceptionProcessingEnd */
    {0, 0, 250, 4, 0, "ExceptionCatch/Start", &ntx_manifest_fields[646]}, /* ExceptionCatchStart */
    {0, 0, 251, 0, 0, "ExceptionCatch/Stop", NULL}, /* ExceptionCatchStop */
    {0, 0, 252, 4, 0, "ExceptionFinally/Start", &ntx_manifest_fields[646]}, /* ExceptionFinallyStart */
    {0, 0, 253, 0, 0, "ExceptionFinally/Stop", NULL}, /* ExceptionFinallyStop */
    {0, 0, 254, 4, 0, "ExceptionFilter/Start", &ntx_manifest_fields[646]}, /* ExceptionFilterStart */
    {0, 0, 255, 0, 0, "ExceptionFilter/Stop", NULL}, /* ExceptionFilterStop */
    {0, 0, 256, 0, 0, "Exception/Stop", NULL}, /* ExceptionThrownStop */
    {0, 0, 260, 6, 0, "CodeSymbols/Start", &ntx_manifest_fields[651]}, /* CodeSymbols */
    {0, 0, 270, 4, 0, "EventSourceEvent", &ntx_manifest_fields[657]}, /* EventSource */
    {0, 0, 280, 2, 0, "TieredCompilation/Settings", &ntx_manifest_fields[661]}, /* TieredCompilationSettings */
    {0, 0, 281, 1, 0, "TieredCompilation/Pause", &ntx_manifest_fields[18]}, /* TieredCompilationPause */
    {0, 0, 282, 2, 0, "TieredCompilation/Resume", &ntx_manifest_fields[663]}, /* TieredCompilationResume */
    {0, 0, 283, 2, 0, "TieredCompilation/BackgroundJitStart", &ntx_manifest_fields[665]}, /* TieredCompilationBackgroundJitStart */
    {0, 0, 284, 3, 0, "TieredCompilation/BackgroundJitStop", &ntx_manifest_fields[667]}, /* TieredCompilationBackgroundJitStop */
    {0, 0, 290, 6, 0, "AssemblyLoader/Start", &ntx_manifest_fields[670]}, /* AssemblyLoadStart */
    {0, 0, 291, 10, 0, "AssemblyLoader/Stop", &ntx_manifest_fields[676]}, /* AssemblyLoadStop */
    {0, 0, 292, 8, 0, "AssemblyLoader/ResolutionAttempted", &ntx_manifest_fields[686]}, /* ResolutionAttempted */
    {0, 0, 293, 6, 0, "AssemblyLoader/AssemblyLoadContextResolvingHandlerInvoked", &ntx_manifest_fields[694]}, /* AssemblyLoadContextResolvingHandlerInvoked */
    {0, 0, 294, 5, 0, "AssemblyLoader/AppDomainAssemblyResolveHandlerInvoked", &ntx_manifest_fields[700]}, /* AppDomainAssemblyResolveHandlerInvoked */
    {0, 0, 295, 5, 0, "AssemblyLoader/AssemblyLoadFromResolveHandlerInvoked", &ntx_manifest_fields[705]}, /* AssemblyLoadFromResolveHandlerInvoked */
    {0, 0, 296, 4, 0, "AssemblyLoader/KnownPathProbed", &ntx_manifest_fields[710]}, /* KnownPathProbed */
    {0, 0, 297, 5, 0, "JitInstrumentationData/InstrumentationData", &ntx_manifest_fields[714]}, /* JitInstrumentationData */
    {0, 0, 298, 10, 0, "JitInstrumentationDataVerbose/InstrumentationData", &ntx_manifest_fields[719]}, /* JitInstrumentationDataVerbose */
    {1, 0, 0, 5, 0, "ClrStack/Walk", &ntx_manifest_fields[291]}, /* CLRStackWalkDCStart */
    {1, 0, 141, 6, 0, "Method/DCStart", &ntx_manifest_fields[333]}, /* MethodDCStart */
    {1, 1, 141, 7, 0, "Method/DCStart", &ntx_manifest_fields[348]}, /* MethodDCStart_V1 */
    {1, 2, 141, 8, 0, "Method/DCStart", &ntx_manifest_fields[355]}, /* MethodDCStart_V2 */
    {1, 0, 142, 6, 0, "Method/DCStop", &ntx_manifest_fields[333]}, /* MethodDCEnd */
    {1, 1, 142, 7, 0, "Method/DCStop", &ntx_manifest_fields[348]}, /* MethodDCEnd_V1 */
    {1, 2, 142, 8, 0, "Method/DCStop", &ntx_manifest_fields[355]}, /* MethodDCEnd_V2 */
    {1, 0, 143, 9, 0, "Method/DCStartVerbose", &ntx_manifest_fields[339]}, /* MethodDCStartVerbose */
    {1, 1, 143, 10, 0, "Method/DCStartVerbose", &ntx_manifest_fields[363]}, /* MethodDCStartVerbose_V1 */
    {1, 2, 143, 11, 0, "Method/DCStartVerbose", &ntx_manifest_fields[373]}, /* MethodDCStartVerbose_V2 */
    {1, 0, 144, 9, 0, "Method/DCStopVerbose", &ntx_manifest_fields[339]}, /* MethodDCEndVerbose */
    {1, 1, 144, 10, 0, "Method/DCStopVerbose", &ntx_manifest_fields[363]}, /* MethodDCEndVerbose_V1 */
    {1, 2, 144, 11, 0, "Method/DCStopVerbose", &ntx_manifest_fields[373]}, /* MethodDCEndVerbose_V2 */
    {1, 0, 145, 0, 0, "Method/DCStartComplete", NULL}, /* DCStartComplete */
    {1, 1, 145, 1, 0, "Method/DCStartComplete", &ntx_manifest_fields[18]}, /* DCStartComplete_V1 */
    {1, 0, 146, 0, 0, "Method/DCStopComplete", NULL}, /* DCEndComplete */
    {1, 1, 146, 1, 0, "Method/DCStopComplete", &ntx_manifest_fields[18]}, /* DCEndComplete_V1 */
    {1, 0, 147, 0, 0, "Method/DCStartInit", NULL}, /* DCStartInit */
    {1, 1, 147, 1, 0, "Method/DCStartInit", &ntx_manifest_fields[18]}, /* DCStartInit_V1 */
    {1, 0, 148, 0, 0, "Method/DCStopInit", NULL}, /* DCEndInit */
    {1, 1, 148, 1, 0, "Method/DCStopInit", &ntx_manifest_fields[18]}, /* DCEndInit_V1 */
    {1, 0, 149, 7, 0, "Method/ILToNativeMapDCStart", &ntx_manifest_fields[555]}, /* MethodDCStartILToNativeMap */
    {1, 0, 150, 7, 0, "Method/ILToNativeMapDCStop", &ntx_manifest_fields[555]}, /* MethodDCEndILToNativeMap */
    {1, 0, 151, 7, 0, "Loader/DomainModuleDCStart", &ntx_manifest_fields[412]}, /* DomainModuleDCStart */
    {1, 1, 151, 8, 0, "Loader/DomainModuleDCStart", &ntx_manifest_fields[419]}, /* DomainModuleDCStart_V1 */
    {1, 0, 152, 7, 0, "Loader/DomainModuleDCStop", &ntx_manifest_fields[412]}, /* DomainModuleDCEnd */
    {1, 1, 152, 8, 0, "Loader/DomainModuleDCStop", &ntx_manifest_fields[419]}, /* DomainModuleDCEnd_V1 */
    {1, 0, 153, 6, 0, "Loader/ModuleDCStart", &ntx_manifest_fields[406]}, /* ModuleDCStart */
    {1, 1, 153, 7, 0, "Loader/ModuleDCStart", &ntx_manifest_fields[427]}, /* ModuleDCStart_V1 */
    {1, 2, 153, 13, 0, "Loader/ModuleDCStart", &ntx_manifest_fields[434]}, /* ModuleDCStart_V2 */
    {1, 0, 154, 6, 0, "Loader/ModuleDCStop", &ntx_manifest_fields[406]}, /* ModuleDCEnd */
    {1, 1, 154, 7, 0, "Loader/ModuleDCStop", &ntx_manifest_fields[427]}, /* ModuleDCEnd_V1 */
    {1, 2, 154, 13, 0, "Loader/ModuleDCStop", &ntx_manifest_fields[434]}, /* ModuleDCEnd_V2 */
    {1, 0, 155, 4, 0, "Loader/AssemblyDCStart", &ntx_manifest_fields[447]}, /* AssemblyDCStart */
    {1, 1, 155, 6, 0, "Loader/AssemblyDCStart", &ntx_manifest_fields[451]}, /* AssemblyDCStart_V1 */
    {1, 0, 156, 4, 0, "Loader/AssemblyDCStop", &ntx_manifest_fields[447]}, /* AssemblyDCEnd */
    {1, 1, 156, 6, 0, "Loader/AssemblyDCStop", &ntx_manifest_fields[451]}, /* AssemblyDCEnd_V1 */
    {1, 0, 157, 3, 0, "Loader/AppDomainDCStart", &ntx_manifest_fields[457]}, /* AppDomainDCStart */
    {1, 1, 157, 5, 0, "Loader/AppDomainDCStart", &ntx_manifest_fields[460]}, /* AppDomainDCStart_V1 */
    {1, 0, 158, 3, 0, "Loader/AppDomainDCStop", &ntx_manifest_fields[457]}, /* AppDomainDCEnd */
    {1, 1, 158, 5, 0, "Loader/AppDomainDCStop", &ntx_manifest_fields[460]}, /* AppDomainDCEnd_V1 */
    {1, 0, 159, 6, 0, "Loader/ThreadDCStop", &ntx_manifest_fields[303]}, /* ThreadDC */
    {1, 0, 160, 5, 0, "ClrPerfTrack/ModuleRangeDCStart", &ntx_manifest_fields[731]}, /* ModuleRangeDCStart */
    {1, 0, 161, 5, 0, "ClrPerfTrack/ModuleRangeDCEnd", &ntx_manifest_fields[731]}, /* ModuleRangeDCEnd */
    {1, 0, 187, 15, 0, "Runtime/Start", &ntx_manifest_fields[514]}, /* RuntimeInformationDCStart */
    {1, 0, 280, 2, 0, "TieredCompilationRundown/SettingsDCStart", &ntx_manifest_fields[661]}, /* TieredCompilationSettingsDCStart */
    {1, 0, 300, 3, 0, "ExecutionCheckpointRundown/ExecutionCheckpointDCEnd", &ntx_manifest_fields[736]},
    {2, 0, 1, 1, 0, "GC/Decision", &ntx_manifest_fields[739]}, /* GCDecision */
    {2, 1, 1, 2, 0, "GC/Decision", &ntx_manifest_fields[740]}, /* GCDecision_V1 */
    {2, 0, 2, 3, 0, "GC/Settings", &ntx_manifest_fields[742]}, /* GCSettings */
    {2, 1, 2, 4, 0, "GC/Settings", &ntx_manifest_fields[745]}, /* GCSettings_V1 */
    {2, 0, 3, 3, 0, "GC/Optimized", &ntx_manifest_fields[749]}, /* GCOptimized */
    {2, 1, 3, 4, 0, "GC/Optimized", &ntx_manifest_fields[752]}, /* GCOptimized_V1 */
    {2, 1, 4, 1, 0, "GC/PerHeapHistory", &ntx_manifest_fields[18]}, /* GCPerHeapHistory_V1 */
    {2, 2, 4, 0, 0, "GC/PerHeapHistory", NULL}, /* GCPerHeapHistory */
    {2, 0, 5, 6, 0, "GC/GlobalHeapHistory", &ntx_manifest_fields[756]}, /* GCGlobalHeapHistory */
    {2, 1, 5, 7, 0, "GC/GlobalHeapHistory", &ntx_manifest_fields[762]}, /* GCGlobalHeapHistory_V1 */
    {2, 0, 6, 3, 0, "GC/Join", &ntx_manifest_fields[769]}, /* GCJoin */
    {2, 1, 6, 4, 0, "GC/Join", &ntx_manifest_fields[772]}, /* GCJoin_V1 */
    {2, 0, 7, 1, 0, "GC/MarkStackRoots", &ntx_manifest_fields[776]}, /* PrvGCMarkStackRoots */
    {2, 1, 7, 2, 0, "GC/MarkStackRoots", &ntx_manifest_fields[170]}, /* PrvGCMarkStackRoots_V1 */
    {2, 0, 8, 1, 0, "GC/MarkFinalizeQueueRoots", &ntx_manifest_fields[776]}, /* PrvGCMarkFinalizeQueueRoots */
    {2, 1, 8, 2, 0, "GC/MarkFinalizeQueueRoots", &ntx_manifest_fields[170]}, /* PrvGCMarkFinalizeQueueRoots_V1 */
    {2, 0, 9, 1, 0, "GC/MarkHandles", &ntx_manifest_fields[776]}, /* PrvGCMarkHandles */
    {2, 1, 9, 2, 0, "GC/MarkHandles", &ntx_manifest_fields[170]}, /* PrvGCMarkHandles_V1 */
    {2, 0, 10, 1, 0, "GC/MarkCards", &ntx_manifest_fields[776]}, /* PrvGCMarkCards */
    {2, 1, 10, 2, 0, "GC/MarkCards", &ntx_manifest_fields[170]}, /* PrvGCMarkCards_V1 */
    {2, 0, 11, 1, 0, "GC/BGCStart", &ntx_manifest_fields[18]}, /* BGCBegin */
    {2, 0, 12, 1, 0, "GC/BGC1stNonCondStop", &ntx_manifest_fields[18]}, /* BGC1stNonConEnd */
    {2, 0, 13, 1, 0, "GC/BGC1stConStop", &ntx_manifest_fields[18]}, /* BGC1stConEnd */
    {2, 0, 14, 1, 0, "GC/BGC2ndNonConStart", &ntx_manifest_fields[18]}, /* BGC2ndNonConBegin */
    {2, 0, 15, 1, 0, "GC/BGC2ndNonConStop", &ntx_manifest_fields[18]}, /* BGC2ndNonConEnd */
    {2, 0, 16, 1, 0, "GC/BGC2ndConStart", &ntx_manifest_fields[18]}, /* BGC2ndConBegin */
    {2, 0, 17, 1, 0, "GC/BGC2ndConStop", &ntx_manifest_fields[18]}, /* BGC2ndConEnd */
    {2, 0, 18, 1, 0, "GC/BGCPlanStop", &ntx_manifest_fields[18]}, /* BGCPlanEnd */
    {2, 0, 19, 1, 0, "GC/BGCSweepStop", &ntx_manifest_fields[18]}, /* BGCSweepEnd */
    {2, 0, 20, 2, 0, "GC/BGCDrainMark", &ntx_manifest_fields[777]}, /* BGCDrainMark */
    {2, 0, 21, 4, 0, "GC/BGCRevisit", &ntx_manifest_fields[779]}, /* BGCRevisit */
    {2, 0, 22, 5, 0, "GC/BGCOverflow", &ntx_manifest_fields[783]}, /* BGCOverflow */
    {2, 1, 22, 6, 0, "GC/BGCOverflow", &ntx_manifest_fields[788]}, /* BGCOverflow_V1 */
    {2, 0, 23, 2, 0, "GC/BGCAllocWaitStart", &ntx_manifest_fields[188]}, /* BGCAllocWaitBegin */
    {2, 0, 24, 2, 0, "GC/BGCAllocWaitStop", &ntx_manifest_fields[188]}, /* BGCAllocWaitEnd */
    {2, 0, 25, 2, 0, "GC/FullNotify", &ntx_manifest_fields[794]}, /* GCFullNotify */
    {2, 1, 25, 3, 0, "GC/FullNotify", &ntx_manifest_fields[796]}, /* GCFullNotify_V1 */
    {2, 0, 26, 2, 0, "GC/BGC1stSweepEnd", &ntx_manifest_fields[799]}, /* BGC1stSweepEnd */
    {2, 0, 80, 0, 0, "Startup/EEStartupStart", NULL}, /* EEStartupStart */
    {2, 1, 80, 1, 0, "Startup/EEStartupStart", &ntx_manifest_fields[18]}, /* EEStartupStart_V1 */
    {2, 0, 81, 0, 0, "Startup/EEStartupStop", NULL}, /* EEStartupEnd */
    {2, 1, 81, 1, 0, "Startup/EEStartupStop", &ntx_manifest_fields[18]}, /* EEStartupEnd_V1 */
    {2, 0, 82, 0, 0, "Startup/EEConfigSetupStart", NULL}, /* EEConfigSetup */
    {2, 1, 82, 1, 0, "Startup/EEConfigSetupStart", &ntx_manifest_fields[18]}, /* EEConfigSetup_V1 */
    {2, 0, 83, 0, 0, "Startup/EEConfigSetupStop", NULL}, /* EEConfigSetupEnd */
    {2, 1, 83, 1, 0, "Startup/EEConfigSetupStop", &ntx_manifest_fields[18]}, /* EEConfigSetupEnd_V1 */
    {2, 0, 84, 0, 0, "Startup/LoadSystemBasesStart", NULL}, /* LdSysBases */
    {2, 1, 84, 1, 0, "Startup/LoadSystemBasesStart", &ntx_manifest_fields[18]}, /* LdSysBases_V1 */
    {2, 0, 85, 0, 0, "Startup/LoadSystemBasesStop", NULL}, /* LdSysBasesEnd */
    {2, 1, 85, 1, 0, "Startup/LoadSystemBasesStop", &ntx_manifest_fields[18]}, /* LdSysBasesEnd_V1 */
    {2, 0, 86, 0, 0, "Startup/ExecExeStart", NULL}, /* ExecExe */
    {2, 1, 86, 1, 0, "Startup/ExecExeStart", &ntx_manifest_fields[18]}, /* ExecExe_V1 */
    {2, 0, 87, 0, 0, "Startup/ExecExeStop", NULL}, /* ExecExeEnd */
    {2, 1, 87, 1, 0, "Startup/ExecExeStop", &ntx_manifest_fields[18]}, /* ExecExeEnd_V1 */
    {2, 0, 88, 0, 0, "Startup/MainStart", NULL}, /* Main */
    {2, 1, 88, 1, 0, "Startup/MainStart", &ntx_manifest_fields[18]}, /* Main_V1 */
    {2, 0, 89, 0, 0, "Startup/MainStop", NULL}, /* MainEnd */
    {2, 1, 89, 1, 0, "Startup/MainStop", &ntx_manifest_fields[18]}, /* MainEnd_V1 */
    {2, 0, 90, 0, 0, "Startup/ApplyPolicyStart", NULL}, /* ApplyPolicyStart */
    {2, 1, 90, 1, 0, "Startup/ApplyPolicyStart", &ntx_manifest_fields[18]}, /* ApplyPolicyStart_V1 */
    {2, 0, 91, 0, 0, "Startup/ApplyPolicyStop", NULL}, /* ApplyPolicyEnd */
    {2, 1, 91, 1, 0, "Startup/ApplyPolicyStop", &ntx_manifest_fields[18]}, /* ApplyPolicyEnd_V1 */
    {2, 0, 92, 0, 0, "Startup/LdLibShFolderStart", NULL}, /* LdLibShFolder */
    {2, 1, 92, 1, 0, "Startup/LdLibShFolderStart", &ntx_manifest_fields[18]}, /* LdLibShFolder_V1 */
    {2, 0, 93, 0, 0, "Startup/LdLibShFolderStop", NULL}, /* LdLibShFolderEnd */
    {2, 1, 93, 1, 0, "Startup/LdLibShFolderStop", &ntx_manifest_fields[18]}, /* LdLibShFolderEnd_V1 */
    {2, 0, 94, 0, 0, "Startup/PrestubWorkerStart", NULL}, /* PrestubWorker */
    {2, 1, 94, 1, 0, "Startup/PrestubWorkerStart", &ntx_manifest_fields[18]}, /* PrestubWorker_V1 */
    {2, 0, 95, 0, 0, "Startup/PrestubWorkerStop", NULL}, /* PrestubWorkerEnd */
    {2, 1, 95, 1, 0, "Startup/PrestubWorkerStop", &ntx_manifest_fields[18]}, /* PrestubWorkerEnd_V1 */
    {2, 0, 96, 0, 0, "Startup/GetInstallationStart", NULL}, /* GetInstallationStart */
    {2, 1, 96, 1, 0, "Startup/GetInstallationStart", &ntx_manifest_fields[18]}, /* GetInstallationStart_V1 */
    {2, 0, 97, 0, 0, "Startup/GetInstallationStop", NULL}, /* GetInstallationEnd */
    {2, 1, 97, 1, 0, "Startup/GetInstallationStop", &ntx_manifest_fields[18]}, /* GetInstallationEnd_V1 */
    {2, 0, 98, 0, 0, "Startup/OpenHModuleStart", NULL}, /* OpenHModule */
    {2, 1, 98, 1, 0, "Startup/OpenHModuleStart", &ntx_manifest_fields[18]}, /* OpenHModule_V1 */
    {2, 0, 99, 0, 0, "Startup/OpenHModuleStop", NULL}, /* OpenHModuleEnd */
    {2, 1, 99, 1, 0, "Startup/OpenHModuleStop", &ntx_manifest_fields[18]}, /* OpenHModuleEnd_V1 */
    {2, 0, 100, 0, 0, "Startup/ExplicitBindStart", NULL}, /* ExplicitBindStart */
    {2, 1, 100, 1, 0, "Startup/ExplicitBindStart", &ntx_manifest_fields[18]}, /* ExplicitBindStart_V1 */
    {2, 0, 101, 0, 0, "Startup/ExplicitBindStop", NULL}, /* ExplicitBindEnd */
    {2, 1, 101, 1, 0, "Startup/ExplicitBindStop", &ntx_manifest_fields[18]}, /* ExplicitBindEnd_V1 */
    {2, 0, 102, 0, 0, "Startup/ParseXmlStart", NULL}, /* ParseXml */
    {2, 1, 102, 1, 0, "Startup/ParseXmlStart", &ntx_manifest_fields[18]}, /* ParseXml_V1 */
    {2, 0, 103, 0, 0, "Startup/ParseXmlStop", NULL}, /* ParseXmlEnd */
    {2, 1, 103, 1, 0, "Startup/ParseXmlStop", &ntx_manifest_fields[18]}, /* ParseXmlEnd_V1 */
    {2, 0, 104, 0, 0, "Startup/InitDefaultDomainStart", NULL}, /* InitDefaultDomain */
    {2, 1, 104, 1, 0, "Startup/InitDefaultDomainStart", &ntx_manifest_fields[18]}, /* InitDefaultDomain_V1 */
    {2, 0, 105, 0, 0, "Startup/InitDefaultDomainStop", NULL}, /* InitDefaultDomainEnd */
    {2, 1, 105, 1, 0, "Startup/InitDefaultDomainStop", &ntx_manifest_fields[18]}, /* InitDefaultDomainEnd_V1 */
    {2, 0, 106, 0, 0, "Startup/InitSecurityStart", NULL}, /* InitSecurity */
    {2, 1, 106, 1, 0, "Startup/InitSecurityStart", &ntx_manifest_fields[18]}, /* InitSecurity_V1 */
    {2, 0, 107, 0, 0, "Startup/InitSecurityStop", NULL}, /* InitSecurityEnd */
    {2, 1, 107, 1, 0, "Startup/InitSecurityStop", &ntx_manifest_fields[18]}, /* InitSecurityEnd_V1 */
    {2, 0, 108, 0, 0, "Startup/AllowBindingRedirsStart", NULL}, /* AllowBindingRedirs */
    {2, 1, 108, 1, 0, "Startup/AllowBindingRedirsStart", &ntx_manifest_fields[18]}, /* AllowBindingRedirs_V1 */
    {2, 0, 109, 0, 0, "Startup/AllowBindingRedirsStop", NULL}, /* AllowBindingRedirsEnd */
    {2, 1, 109, 1, 0, "Startup/AllowBindingRedirsStop", &ntx_manifest_fields[18]}, /* AllowBindingRedirsEnd_V1 */
    {2, 0, 110, 0, 0, "Startup/EEConfigSyncStart", NULL}, /* EEConfigSync */
    {2, 1, 110, 1, 0, "Startup/EEConfigSyncStart", &ntx_manifest_fields[18]}, /* EEConfigSync_V1 */
    {2, 0, 111, 0, 0, "Startup/EEConfigSyncStop", NULL}, /* EEConfigSyncEnd */
    {2, 1, 111, 1, 0, "Startup/EEConfigSyncStop", &ntx_manifest_fields[18]}, /* EEConfigSyncEnd_V1 */
    {2, 0, 112, 0, 0, "Startup/BindingStart", NULL}, /* FusionBinding */
    {2, 1, 112, 1, 0, "Startup/BindingStart", &ntx_manifest_fields[18]}, /* FusionBinding_V1 */
    {2, 0, 113, 0, 0, "Startup/BindingStop", NULL}, /* FusionBindingEnd */
    {2, 1, 113, 1, 0, "Startup/BindingStop", &ntx_manifest_fields[18]}, /* FusionBindingEnd_V1 */
    {2, 0, 114, 0, 0, "Startup/LoaderCatchCallStart", NULL}, /* LoaderCatchCall */
    {2, 1, 114, 1, 0, "Startup/LoaderCatchCallStart", &ntx_manifest_fields[18]}, /* LoaderCatchCall_V1 */
    {2, 0, 115, 0, 0, "Startup/LoaderCatchCallStop", NULL}, /* LoaderCatchCallEnd */
    {2, 1, 115, 1, 0, "Startup/LoaderCatchCallStop", &ntx_manifest_fields[18]}, /* LoaderCatchCallEnd_V1 */
    {2, 0, 116, 0, 0, "Startup/FusionInitStart", NULL}, /* FusionInit */
    {2, 1, 116, 1, 0, "Startup/FusionInitStart", &ntx_manifest_fields[18]}, /* FusionInit_V1 */
    {2, 0, 117, 0, 0, "Startup/FusionInitStop", NULL}, /* FusionInitEnd */
    {2, 1, 117, 1, 0, "Startup/FusionInitStop", &ntx_manifest_fields[18]}, /* FusionInitEnd_V1 */
    {2, 0, 118, 0, 0, "Startup/FusionAppCtxStart", NULL}, /* FusionAppCtx */
    {2, 1, 118, 1, 0, "Startup/FusionAppCtxStart", &ntx_manifest_fields[18]}, /* FusionAppCtx_V1 */
    {2, 0, 119, 0, 0, "Startup/FusionAppCtxStop", NULL}, /* FusionAppCtxEnd */
    {2, 1, 119, 1, 0, "Startup/FusionAppCtxStop", &ntx_manifest_fields[18]}, /* FusionAppCtxEnd_V1 */
    {2, 0, 120, 0, 0, "Startup/Fusion2EEStart", NULL}, /* Fusion2EE */
    {2, 1, 120, 1, 0, "Startup/Fusion2EEStart", &ntx_manifest_fields[18]}, /* Fusion2EE_V1 */
    {2, 0, 121, 0, 0, "Startup/Fusion2EEStop", NULL}, /* Fusion2EEEnd */
    {2, 1, 121, 1, 0, "Startup/Fusion2EEStop", &ntx_manifest_fields[18]}, /* Fusion2EEEnd_V1 */
    {2, 0, 122, 0, 0, "Startup/SecurityCatchCallStart", NULL}, /* SecurityCatchCall */
    {2, 1, 122, 1, 0, "Startup/SecurityCatchCallStart", &ntx_manifest_fields[18]}, /* SecurityCatchCall_V1 */
    {2, 0, 123, 0, 0, "Startup/SecurityCatchCallStop", NULL}, /* SecurityCatchCallEnd */
    {2, 1, 123, 1, 0, "Startup/SecurityCatchCallStop", &ntx_manifest_fields[18]}, /* SecurityCatchCallEnd_V1 */
    {2, 0, 151, 5, 0, "ClrStack/Walk", &ntx_manifest_fields[291]}, /* CLRStackWalkPrivate */
    {2, 0, 158, 7, 0, "ClrPerfTrack/ModuleRangeLoad", &ntx_manifest_fields[801]}, /* ModuleRangeLoadPrivate */
    {2, 0, 159, 7, 0, "Binding/PolicyPhaseStart", &ntx_manifest_fields[808]}, /* BindingPolicyPhaseStart */
    {2, 0, 160, 7, 0, "Binding/PolicyPhaseStop", &ntx_manifest_fields[808]}, /* BindingPolicyPhaseEnd */
    {2, 0, 161, 7, 0, "Binding/NgenPhaseStart", &ntx_manifest_fields[808]}, /* BindingNgenPhaseStart */
    {2, 0, 162, 7, 0, "Binding/NgenPhaseStop", &ntx_manifest_fields[808]}, /* BindingNgenPhaseEnd */
    {2, 0, 163, 7, 0, "Binding/LoopupAndProbingPhaseStart", &ntx_manifest_fields[808]}, /* BindingLookupAndProbingPhaseStart */
    {2, 0, 164, 7, 0, "Binding/LookupAndProbingPhaseStop", &ntx_manifest_fields[808]}, /* BindingLookupAndProbingPhaseEnd */
    {2, 0, 165, 7, 0, "Binding/LoaderPhaseStart", &ntx_manifest_fields[808]}, /* LoaderPhaseStart */
    {2, 0, 166, 7, 0, "Binding/LoaderPhaseStop", &ntx_manifest_fields[808]}, /* LoaderPhaseEnd */
    {2, 0, 167, 7, 0, "Binding/PhaseStart", &ntx_manifest_fields[808]}, /* BindingPhaseStart */
    {2, 0, 168, 7, 0, "Binding/PhaseStop", &ntx_manifest_fields[808]}, /* BindingPhaseEnd */
    {2, 0, 169, 7, 0, "Binding/DownloadPhaseStart", &ntx_manifest_fields[808]}, /* BindingDownloadPhaseStart */
    {2, 0, 170, 7, 0, "Binding/DownloadPhaseStop", &ntx_manifest_fields[808]}, /* BindingDownloadPhaseEnd */
    {2, 0, 171, 7, 0, "Binding/LoaderAssemblyInitPhaseStart", &ntx_manifest_fields[808]}, /* LoaderAssemblyInitPhaseStart */
    {2, 0, 172, 7, 0, "Binding/LoaderAssemblyInitPhaseStop", &ntx_manifest_fields[808]}, /* LoaderAssemblyInitPhaseEnd */
    {2, 0, 173, 7, 0, "Binding/LoaderMappingPhaseStart", &ntx_manifest_fields[808]}, /* LoaderMappingPhaseStart */
    {2, 0, 174, 7, 0, "Binding/LoaderMappingPhaseStop", &ntx_manifest_fields[808]}, /* LoaderMappingPhaseEnd */
    {2, 0, 175, 7, 0, "Binding/LoaderDeliverEventPhaseStart", &ntx_manifest_fields[808]}, /* LoaderDeliverEventsPhaseStart */
    {2, 0, 176, 7, 0, "Binding/LoaderDeliverEventsPhaseStop", &ntx_manifest_fields[808]}, /* LoaderDeliverEventsPhaseEnd */
    {2, 0, 177, 4, 0, "EvidenceGeneration/EvidenceGenerated", &ntx_manifest_fields[815]}, /* EvidenceGenerated */
    {2, 0, 178, 3, 0, "Transparency/ModuleTransparencyComputationStart", &ntx_manifest_fields[819]}, /* ModuleTransparencyComputationStart */
    {2, 0, 179, 8, 0, "Transparency/ModuleTransparencyComputationStop", &ntx_manifest_fields[822]}, /* ModuleTransparencyComputationEnd */
    {2, 0, 180, 4, 0, "Transparency/TypeTransparencyComputationStart", &ntx_manifest_fields[830]}, /* TypeTransparencyComputationStart */
    {2, 0, 181, 8, 0, "Transparency/TypeTransparencyComputationStop", &ntx_manifest_fields[834]}, /* TypeTransparencyComputationEnd */
    {2, 0, 182, 4, 0, "Transparency/MethodTransparencyComputationStart", &ntx_manifest_fields[842]}, /* MethodTransparencyComputationStart */
    {2, 0, 183, 6, 0, "Transparency/MethodTransparencyComputationStop", &ntx_manifest_fields[846]}, /* MethodTransparencyComputationEnd */
    {2, 0, 184, 4, 0, "Transparency/FieldTransparencyComputationStart", &ntx_manifest_fields[852]}, /* FieldTransparencyComputationStart */
    {2, 0, 185, 6, 0, "Transparency/FieldTransparencyComputationStop", &ntx_manifest_fields[856]}, /* FieldTransparencyComputationEnd */
    {2, 0, 186, 4, 0, "Transparency/TokenTransparencyComputationStart", &ntx_manifest_fields[862]}, /* TokenTransparencyComputationStart */
    {2, 0, 187, 6, 0, "Transparency/TokenTransparencyComputationStop", &ntx_manifest_fields[866]}, /* TokenTransparencyComputationEnd */
    {2, 0, 188, 4, 0, "NgenBinder/NgenBind", &ntx_manifest_fields[872]}, /* NgenBindEvent */
    {2, 0, 191, 5, 0, "FailFast/FailFast", &ntx_manifest_fields[876]}, /* FailFast */
    {2, 0, 192, 4, 0, "GC/FinalizeObject", &ntx_manifest_fields[881]}, /* PrvFinalizeObject */
    {2, 0, 193, 9, 0, "GC/CCWRefCountChange", &ntx_manifest_fields[885]}, /* CCWRefCountChangeAnsi */
    {2, 0, 194, 6, 0, "GC/SetGCHandle", &ntx_manifest_fields[175]}, /* PrvSetGCHandle */
    {2, 0, 195, 2, 0, "GC/DestoryGCHandle", &ntx_manifest_fields[181]}, /* PrvDestroyGCHandle */
    {2, 0, 196, 3, 0, "Binding/FusionMessage", &ntx_manifest_fields[894]}, /* FusionMessageEvent */
    {2, 0, 197, 3, 0, "Binding/FusionErrorCode", &ntx_manifest_fields[897]}, /* FusionErrorCodeEvent */
    {2, 0, 199, 4, 0, "GC/PinPlugAtGCTime", &ntx_manifest_fields[900]}, /* PinPlugAtGCTime */
    {2, 0, 200, 9, 0, "GC/CCWRefCountChange", &ntx_manifest_fields[904]}, /* CCWRefCountChange */
    {2, 0, 201, 6, 0, "ClrMulticoreJit/Common", &ntx_manifest_fields[913]}, /* MulticoreJit */
    {2, 0, 202, 3, 0, "ClrMulticoreJit/MethodCodeReturned", &ntx_manifest_fields[919]}, /* MulticoreJitMethodCodeReturned */
    {2, 0, 310, 6, 0, "LoaderHeap/LoaderHeapAllocRequest", &ntx_manifest_fields[922]}, /* AllocRequest */
    {2, 0, 400, 2, 0, "ClrDynamicTypeUsage/IInspectableRuntimeClassName", &ntx_manifest_fields[928]}, /* IInspectableRuntimeClassName */
    {2, 0, 401, 3, 0, "ClrDynamicTypeUsage/WinRTUnbox", &ntx_manifest_fields[930]}, /* WinRTUnbox */
    {2, 0, 402, 2, 0, "ClrDynamicTypeUsage/CreateRCW", &ntx_manifest_fields[928]}, /* CreateRCW */
    {2, 0, 403, 4, 0, "ClrDynamicTypeUsage/RCWVariance", &ntx_manifest_fields[933]}, /* RCWVariance */
    {2, 0, 404, 3, 0, "ClrDynamicTypeUsage/RCWIEnumerableCasting", &ntx_manifest_fields[930]}, /* RCWIEnumerableCasting */
    {2, 0, 405, 2, 0, "ClrDynamicTypeUsage/CreateCCW", &ntx_manifest_fields[928]}, /* CreateCCW */
    {2, 0, 406, 4, 0, "ClrDynamicTypeUsage/CCWVariance", &ntx_manifest_fields[933]}, /* CCWVariance */
    {2, 0, 407, 3, 0, "ClrDynamicTypeUsage/ObjectVariantMarshallingToNative", &ntx_manifest_fields[937]}, /* ObjectVariantMarshallingToNative */
    {2, 0, 408, 3, 0, "ClrDynamicTypeUsage/GetTypeFromGUID", &ntx_manifest_fields[930]}, /* GetTypeFromGUID */
    {2, 0, 409, 3, 0, "ClrDynamicTypeUsage/GetTypeFromProgID", &ntx_manifest_fields[930]}, /* GetTypeFromProgID */
    {2, 0, 410, 3, 0, "ClrDynamicTypeUsage/ConvertToCallbackEtw", &ntx_manifest_fields[930]}, /* ConvertToCallbackEtw */
    {2, 0, 411, 1, 0, "ClrDynamicTypeUsage/BeginCreateManagedReference", &ntx_manifest_fields[18]}, /* BeginCreateManagedReference */
    {2, 0, 412, 1, 0, "ClrDynamicTypeUsage/EndCreateManagedReference", &ntx_manifest_fields[18]}, /* EndCreateManagedReference */
    {2, 0, 413, 3, 0, "ClrDynamicTypeUsage/ObjectVariantMarshallingToManaged", &ntx_manifest_fields[937]}, /* ObjectVariantMarshallingToManaged */
    {3, 0, 0, 3, 0, "StressLog/Start", &ntx_manifest_fields[940]}, /* StressLogEvent */
    {3, 1, 0, 4, 0, "StressLog/Start", &ntx_manifest_fields[943]}, /* StressLogEvent_V1 */
    {3, 0, 1, 5, 0, "ClrStack/Walk", &ntx_manifest_fields[291]}, /* CLRStackWalkStress */
    {4, 0, 0, 1, 0, "Thread/Sample", &ntx_manifest_fields[947]},
    {4, 0, 1, 0, 1, "Thread/StackWalk", NULL},
};
const size_t ntx_manifest_event_count = 433;

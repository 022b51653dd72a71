/*
 * GENERATED FILE - do not edit. The .NET runtime's events: names as PerfView
 * and TraceEvent show them and payload layouts, from the runtime's manifest
 * ClrEtwAll.man (dotnet/runtime src/coreclr/vm/ClrEtwAll.man, MIT),
 * sha256 935d3293b9c0520c7c4254f169b59aa1616db7562a6e7f59820c4d5a2abf1bfd.
 *
 * Regenerate from the repository root with
 *     python3 tools/gen_manifest_tables.py tests/data/ClrEtwAll.man.xz \
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
    "Universal.System",
};
const size_t ntx_manifest_provider_count = 6;

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
    /* 96 */ {"AllocationAmount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 97 */ {"AllocationKind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 98 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 99 */ {"AllocationAmount64", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 100 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 101 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 102 */ {"HeapIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 103 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 104 */ {"ObjectSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 105 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 106 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 107 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 108 */ {"TypeParameters", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 109 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 110 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 111 */ {"TypeNameID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 112 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 113 */ {"CorElementType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 114 */ {"Name", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 115 */ {"TypeParameterCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 116 */ {"TypeParameters", NTX_TYPE_COUNTED_ARRAY, 6, &ntx_manifest_fields[108], NULL, 0},
    /* 117 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[109], 8},
    /* 118 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 119 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 120 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[117], NULL, 0},
    /* 121 */ {"RootedNodeAddress", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 122 */ {"GCRootKind", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 123 */ {"GCRootFlag", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 124 */ {"GCRootID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 125 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[121], 4},
    /* 126 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 127 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 128 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 129 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[125], NULL, 0},
    /* 130 */ {"GCKeyNodeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 131 */ {"GCValueNodeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 132 */ {"GCRootID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 133 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[130], 3},
    /* 134 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 135 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 136 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 137 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[133], NULL, 0},
    /* 138 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 139 */ {"Size", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 140 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 141 */ {"EdgeCount", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 142 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[138], 4},
    /* 143 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 144 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 145 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 146 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[142], NULL, 0},
    /* 147 */ {"Value", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 148 */ {"ReferencingFieldID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 149 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[147], 2},
    /* 150 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 151 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 152 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 153 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[149], NULL, 0},
    /* 154 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 155 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 156 */ {"ObjectCountForTypeSample", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 157 */ {"TotalSizeForTypeSample", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 158 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 159 */ {"RangeBase", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 160 */ {"RangeLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 161 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[159], 2},
    /* 162 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 163 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 164 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 165 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[161], NULL, 0},
    /* 166 */ {"OldRangeBase", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 167 */ {"NewRangeBase", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 168 */ {"RangeLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 169 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[166], 3},
    /* 170 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 171 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 172 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 173 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[169], NULL, 0},
    /* 174 */ {"Generation", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 175 */ {"RangeStart", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 176 */ {"RangeUsedLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 177 */ {"RangeReservedLength", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 178 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 179 */ {"HeapNum", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 180 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 181 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 182 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 183 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 184 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 185 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 186 */ {"Kind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 187 */ {"Generation", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 188 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 189 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 190 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 191 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 192 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 193 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 194 */ {"ObjectSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 195 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 196 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 197 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 198 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 199 */ {"GCRootID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 200 */ {"ObjectID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 201 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 202 */ {"IUnknown", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 203 */ {"RefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 204 */ {"PeggedRefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 205 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 206 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[199], 7},
    /* 207 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 208 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 209 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[206], NULL, 0},
    /* 210 */ {"ObjectID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 211 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 212 */ {"IUnknown", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 213 */ {"VTable", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 214 */ {"RefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 215 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 216 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[210], 6},
    /* 217 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 218 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 219 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[216], NULL, 0},
    /* 220 */ {"GCRootID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 221 */ {"ObjectID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 222 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 223 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 224 */ {"FieldName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 225 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[220], 5},
    /* 226 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 227 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 228 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 229 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 0, &ntx_manifest_fields[225], NULL, 0},
    /* 230 */ {"Data", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 231 */ {"Name", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 232 */ {"DataSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 233 */ {"Data", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[230], NULL, 0},
    /* 234 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 235 */ {"WorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 236 */ {"RetiredWorkerThreads", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 237 */ {"IOThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 238 */ {"RetiredIOThreads", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 239 */ {"IOThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 240 */ {"RetiredIOThreads", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 241 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 242 */ {"ClrThreadID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 243 */ {"CpuUtilization", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 244 */ {"ActiveWorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 245 */ {"RetiredWorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 246 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 247 */ {"Throughput", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 248 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 249 */ {"AverageThroughput", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 250 */ {"NewWorkerThreadCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 251 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 252 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 253 */ {"Duration", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 254 */ {"Throughput", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 255 */ {"ThreadWave", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 256 */ {"ThroughputWave", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 257 */ {"ThroughputErrorEstimate", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 258 */ {"AverageThroughputErrorEstimate", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 259 */ {"ThroughputRatio", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 260 */ {"Confidence", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 261 */ {"NewControlSetting", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 262 */ {"NewThreadWaveMagnitude", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 263 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 264 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 265 */ {"NsPerYield", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 266 */ {"EstablishedNsPerYield", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 267 */ {"MinWorkerThreads", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 268 */ {"MaxWorkerThreads", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 269 */ {"MinIOCompletionThreads", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 270 */ {"MaxIOCompletionThreads", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 271 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 272 */ {"WorkID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 273 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 274 */ {"NativeOverlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 275 */ {"Overlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 276 */ {"MultiDequeues", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 277 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 278 */ {"NativeOverlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 279 */ {"Overlapped", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 280 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 281 */ {"ID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 282 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 283 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 284 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 285 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 286 */ {"TypeParameterCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 287 */ {"LoaderModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 288 */ {"TypeParameters", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[108], NULL, 0},
    /* 289 */ {"TypeLoadStartID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 290 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 291 */ {"TypeLoadStartID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 292 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 293 */ {"LoadLevel", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 294 */ {"TypeID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 295 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 296 */ {"ExceptionType", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 297 */ {"ExceptionMessage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 298 */ {"ExceptionEIP", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 299 */ {"ExceptionHRESULT", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 300 */ {"ExceptionFlags", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 301 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 302 */ {"ContentionFlags", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 303 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 304 */ {"ContentionFlags", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 305 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 306 */ {"LockID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 307 */ {"AssociatedObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 308 */ {"LockOwnerThreadID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 309 */ {"Stack", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 310 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 311 */ {"Reserved1", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 312 */ {"Reserved2", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 313 */ {"FrameCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 314 */ {"Stack", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[309], NULL, 0},
    /* 315 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 316 */ {"Allocated", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 317 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 318 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 319 */ {"Survived", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 320 */ {"ProcessSurvived", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 321 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 322 */ {"ManagedThreadID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 323 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 324 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 325 */ {"ManagedThreadIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 326 */ {"OSThreadID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 327 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 328 */ {"ManagedThreadID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 329 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 330 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 331 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 332 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 333 */ {"StubMethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 334 */ {"StubFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 335 */ {"ManagedInteropMethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 336 */ {"ManagedInteropMethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 337 */ {"ManagedInteropMethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 338 */ {"ManagedInteropMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 339 */ {"NativeMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 340 */ {"StubMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 341 */ {"StubMethodILCode", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 342 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 343 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 344 */ {"StubMethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 345 */ {"ManagedInteropMethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 346 */ {"ManagedInteropMethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 347 */ {"ManagedInteropMethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 348 */ {"ManagedInteropMethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 349 */ {"LockID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 350 */ {"AssociatedObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 351 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 352 */ {"ContentionFlags", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 353 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 354 */ {"DurationNs", NTIDX_TYPE_DOUBLE, 0, NULL, NULL, 0},
    /* 355 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 356 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 357 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 358 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 359 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 360 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 361 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 362 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 363 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 364 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 365 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 366 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 367 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 368 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 369 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 370 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 371 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 372 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 373 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 374 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 375 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 376 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 377 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 378 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 379 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 380 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 381 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 382 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 383 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 384 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 385 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 386 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 387 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 388 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 389 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 390 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 391 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 392 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 393 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 394 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 395 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 396 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 397 */ {"MethodStartAddress", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 398 */ {"MethodSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 399 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 400 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 401 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 402 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 403 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 404 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 405 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 406 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 407 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 408 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 409 */ {"MethodILSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 410 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 411 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 412 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 413 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 414 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 415 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 416 */ {"MethodILSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 417 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 418 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 419 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 420 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 421 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 422 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 423 */ {"JitHotCodeRequestSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 424 */ {"JitRODataRequestSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 425 */ {"AllocatedSizeForJitCode", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 426 */ {"JitAllocFlag", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 427 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 428 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 429 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 430 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 431 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 432 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 433 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 434 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 435 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 436 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 437 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 438 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 439 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 440 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 441 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 442 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 443 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 444 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 445 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 446 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 447 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 448 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 449 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 450 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 451 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 452 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 453 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 454 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 455 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 456 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 457 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 458 */ {"ModuleFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 459 */ {"Reserved1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 460 */ {"ModuleILPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 461 */ {"ModuleNativePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 462 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 463 */ {"ManagedPdbSignature", NTIDX_TYPE_GUID, 0, NULL, NULL, 0},
    /* 464 */ {"ManagedPdbAge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 465 */ {"ManagedPdbBuildPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 466 */ {"NativePdbSignature", NTIDX_TYPE_GUID, 0, NULL, NULL, 0},
    /* 467 */ {"NativePdbAge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 468 */ {"NativePdbBuildPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 469 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 470 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 471 */ {"AssemblyFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 472 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 473 */ {"AssemblyID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 474 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 475 */ {"BindingID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 476 */ {"AssemblyFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 477 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 478 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 479 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 480 */ {"AppDomainFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 481 */ {"AppDomainName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 482 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 483 */ {"AppDomainFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 484 */ {"AppDomainName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 485 */ {"AppDomainIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 486 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 487 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 488 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 489 */ {"RangeBegin", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 490 */ {"RangeSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 491 */ {"RangeType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 492 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 493 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 494 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 495 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 496 */ {"EntryPoint", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 497 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 498 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 499 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 500 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 501 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 502 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 503 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 504 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 505 */ {"FullyQualifiedAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 506 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 507 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 508 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 509 */ {"ModulePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 510 */ {"VerificationFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 511 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 512 */ {"ModulePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 513 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 514 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 515 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 516 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 517 */ {"InlinerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 518 */ {"InlinerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 519 */ {"InlinerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 520 */ {"InlineeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 521 */ {"InlineeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 522 */ {"InlineeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 523 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 524 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 525 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 526 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 527 */ {"InlinerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 528 */ {"InlinerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 529 */ {"InlinerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 530 */ {"InlineeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 531 */ {"InlineeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 532 */ {"InlineeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 533 */ {"FailAlways", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 534 */ {"FailReason", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 535 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 536 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 537 */ {"Sku", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 538 */ {"BclMajorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 539 */ {"BclMinorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 540 */ {"BclBuildNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 541 */ {"BclQfeNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 542 */ {"VMMajorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 543 */ {"VMMinorVersion", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 544 */ {"VMBuildNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 545 */ {"VMQfeNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 546 */ {"StartupFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 547 */ {"StartupMode", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 548 */ {"CommandLine", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 549 */ {"ComObjectGuid", NTIDX_TYPE_GUID, 0, NULL, NULL, 0},
    /* 550 */ {"RuntimeDllPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 551 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 552 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 553 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 554 */ {"CallerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 555 */ {"CallerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 556 */ {"CallerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 557 */ {"CalleeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 558 */ {"CalleeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 559 */ {"CalleeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 560 */ {"TailPrefix", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 561 */ {"TailCallType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 562 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 563 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 564 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 565 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 566 */ {"CallerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 567 */ {"CallerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 568 */ {"CallerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 569 */ {"CalleeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 570 */ {"CalleeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 571 */ {"CalleeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 572 */ {"TailPrefix", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 573 */ {"FailReason", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 574 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 575 */ {"ILOffsets", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 576 */ {"NativeOffsets", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 577 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 578 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 579 */ {"MethodExtent", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 580 */ {"CountOfMapEntries", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 581 */ {"ILOffsets", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[575], NULL, 0},
    /* 582 */ {"NativeOffsets", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[576], NULL, 0},
    /* 583 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 584 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 585 */ {"ReJITID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 586 */ {"MethodExtent", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 587 */ {"CountOfMapEntries", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 588 */ {"ILOffsets", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[575], NULL, 0},
    /* 589 */ {"NativeOffsets", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[576], NULL, 0},
    /* 590 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 591 */ {"ILVersionID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 592 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 593 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 594 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 595 */ {"CallerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 596 */ {"CallerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 597 */ {"CallerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 598 */ {"CalleeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 599 */ {"CalleeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 600 */ {"CalleeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 601 */ {"TailPrefix", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 602 */ {"FailReason", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 603 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 604 */ {"MethodBeingCompiledNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 605 */ {"MethodBeingCompiledName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 606 */ {"MethodBeingCompiledNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 607 */ {"InlinerNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 608 */ {"InlinerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 609 */ {"InlinerNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 610 */ {"InlineeNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 611 */ {"InlineeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 612 */ {"InlineeNameSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 613 */ {"FailAlways", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 614 */ {"FailReason", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 615 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 616 */ {"BytesAllocated", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 617 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 618 */ {"BytesFreed", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 619 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 620 */ {"HeapNum", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 621 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 622 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 623 */ {"Bytes", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 624 */ {"Heap", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 625 */ {"JoinTime", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 626 */ {"JoinType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 627 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 628 */ {"JoinID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 629 */ {"SizeBefore", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 630 */ {"FreeListBefore", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 631 */ {"FreeObjBefore", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 632 */ {"SizeAfter", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 633 */ {"FreeListAfter", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 634 */ {"FreeObjAfter", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 635 */ {"In", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 636 */ {"PinnedSurv", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 637 */ {"NonePinnedSurv", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 638 */ {"NewAllocation", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 639 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[629], 10},
    /* 640 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 641 */ {"FreeListAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 642 */ {"FreeListRejected", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 643 */ {"EndOfSegAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 644 */ {"CondemnedAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 645 */ {"PinnedAllocated", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 646 */ {"PinnedAllocatedAdvance", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 647 */ {"RunningFreeListEfficiency", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 648 */ {"CondemnReasons0", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 649 */ {"CondemnReasons1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 650 */ {"CompactMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 651 */ {"ExpandMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 652 */ {"HeapIndex", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 653 */ {"ExtraGen0Commit", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 654 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 655 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 14, &ntx_manifest_fields[639], NULL, 0},
    /* 656 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 657 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 658 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 659 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 660 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 661 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 662 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 663 */ {"PauseMode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 664 */ {"MemoryPressure", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 665 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 666 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 667 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 668 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 669 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 670 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 671 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 672 */ {"PauseMode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 673 */ {"MemoryPressure", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 674 */ {"CondemnReasons0", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 675 */ {"CondemnReasons1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 676 */ {"Time", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 677 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[676], 1},
    /* 678 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 679 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 680 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 681 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 682 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 683 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 684 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 685 */ {"PauseMode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 686 */ {"MemoryPressure", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 687 */ {"CondemnReasons0", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 688 */ {"CondemnReasons1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 689 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 690 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 11, &ntx_manifest_fields[677], NULL, 0},
    /* 691 */ {"TimePlan", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 692 */ {"TimeCompact", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 693 */ {"TimeRelocate", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 694 */ {"TotalRefs", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 695 */ {"ZeroRefs", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 696 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[691], 5},
    /* 697 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 698 */ {"Count", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 699 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 1, &ntx_manifest_fields[696], NULL, 0},
    /* 700 */ {"Index", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 701 */ {"Count", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 702 */ {"Size", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 703 */ {"Values", NTIDX_TYPE_OBJECT, 0, NULL, &ntx_manifest_fields[700], 3},
    /* 704 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 705 */ {"BucketKind", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 706 */ {"TotalSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 707 */ {"Count", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 708 */ {"Values", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[703], NULL, 0},
    /* 709 */ {"EntryEIP", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 710 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 711 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 712 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 713 */ {"Chunk", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 714 */ {"ModuleId", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 715 */ {"TotalChunks", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 716 */ {"ChunkNumber", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 717 */ {"ChunkLength", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 718 */ {"Chunk", NTX_TYPE_COUNTED_ARRAY, 3, &ntx_manifest_fields[713], NULL, 0},
    /* 719 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 720 */ {"EventID", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 721 */ {"EventName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 722 */ {"EventSourceName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 723 */ {"Payload", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 724 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 725 */ {"Flags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 726 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 727 */ {"NewMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 728 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 729 */ {"PendingMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 730 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 731 */ {"PendingMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 732 */ {"JittedMethodCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 733 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 734 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 735 */ {"AssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 736 */ {"RequestingAssembly", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 737 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 738 */ {"RequestingAssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 739 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 740 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 741 */ {"AssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 742 */ {"RequestingAssembly", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 743 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 744 */ {"RequestingAssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 745 */ {"Success", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 746 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 747 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 748 */ {"Cached", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 749 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 750 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 751 */ {"Stage", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 752 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 753 */ {"Result", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 754 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 755 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 756 */ {"ErrorMessage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 757 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 758 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 759 */ {"HandlerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 760 */ {"AssemblyLoadContext", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 761 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 762 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 763 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 764 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 765 */ {"HandlerName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 766 */ {"ResultAssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 767 */ {"ResultAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 768 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 769 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 770 */ {"IsTrackedLoad", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 771 */ {"RequestingAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 772 */ {"ComputedRequestedAssemblyPath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 773 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 774 */ {"FilePath", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 775 */ {"Source", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 776 */ {"Result", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 777 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 778 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 779 */ {"DataSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 780 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 781 */ {"Data", NTX_TYPE_COUNTED_ARRAY, 2, &ntx_manifest_fields[230], NULL, 0},
    /* 782 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 783 */ {"MethodFlags", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 784 */ {"DataSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 785 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 786 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 787 */ {"MethodToken", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 788 */ {"MethodNamespace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 789 */ {"MethodName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 790 */ {"MethodSignature", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 791 */ {"Data", NTX_TYPE_COUNTED_ARRAY, 2, &ntx_manifest_fields[230], NULL, 0},
    /* 792 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 793 */ {"CheckpointName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 794 */ {"CheckpointTimestamp", NTIDX_TYPE_INT64, 0, NULL, NULL, 0},
    /* 795 */ {"WaitSource", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 796 */ {"AssociatedObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 797 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 798 */ {"AllocationKind", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 799 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 800 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 801 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 802 */ {"Address", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 803 */ {"ObjectSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 804 */ {"SampledByteOffset", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 805 */ {"HardLimit", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 806 */ {"LOHThreshold", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 807 */ {"PhysicalMemoryConfig", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 808 */ {"Gen0MinBudgetConfig", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 809 */ {"Gen0MaxBudgetConfig", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 810 */ {"HighMemPercentConfig", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 811 */ {"BitSettings", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 812 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 813 */ {"RangeBegin", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 814 */ {"RangeSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 815 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 816 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 817 */ {"RangeBegin", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[813], NULL, 0},
    /* 818 */ {"RangeSize", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[814], NULL, 0},
    /* 819 */ {"RangeType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 820 */ {"DoCompact", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 821 */ {"DoCompact", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 822 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 823 */ {"SegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 824 */ {"LargeObjectSegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 825 */ {"ServerGC", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 826 */ {"SegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 827 */ {"LargeObjectSegmentSize", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 828 */ {"ServerGC", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 829 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 830 */ {"DesiredAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 831 */ {"NewAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 832 */ {"GenerationNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 833 */ {"DesiredAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 834 */ {"NewAllocation", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 835 */ {"GenerationNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 836 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 837 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 838 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 839 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 840 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 841 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 842 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 843 */ {"FinalYoungestDesired", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 844 */ {"NumHeaps", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 845 */ {"CondemnedGeneration", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 846 */ {"Gen0ReductionCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 847 */ {"Reason", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 848 */ {"GlobalMechanisms", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 849 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 850 */ {"Heap", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 851 */ {"JoinTime", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 852 */ {"JoinType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 853 */ {"Heap", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 854 */ {"JoinTime", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 855 */ {"JoinType", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 856 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 857 */ {"HeapNum", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 858 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 859 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 860 */ {"Pages", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 861 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 862 */ {"IsLarge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 863 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 864 */ {"Min", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 865 */ {"Max", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 866 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 867 */ {"IsLarge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 868 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 869 */ {"Min", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 870 */ {"Max", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 871 */ {"Objects", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 872 */ {"IsLarge", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 873 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 874 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 875 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 876 */ {"IsAlloc", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 877 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 878 */ {"IsAlloc", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 879 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 880 */ {"GenNumber", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 881 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 882 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 883 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 884 */ {"RangeBegin", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[813], NULL, 0},
    /* 885 */ {"RangeSize", NTIDX_TYPE_FIXED_ARRAY, 1, &ntx_manifest_fields[814], NULL, 0},
    /* 886 */ {"RangeType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 887 */ {"IBCType", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 888 */ {"SectionType", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 889 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 890 */ {"LoadContextID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 891 */ {"FromLoaderCache", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 892 */ {"DynamicLoad", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 893 */ {"AssemblyCodebase", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 894 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 895 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 896 */ {"Type", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 897 */ {"AppDomain", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 898 */ {"ILImage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 899 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 900 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 901 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 902 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 903 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 904 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 905 */ {"IsAllCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 906 */ {"IsAllTransparent", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 907 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 908 */ {"IsOpportunisticallyCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 909 */ {"SecurityRuleSet", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 910 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 911 */ {"Type", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 912 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 913 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 914 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 915 */ {"Type", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 916 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 917 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 918 */ {"IsAllCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 919 */ {"IsAllTransparent", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 920 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 921 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 922 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 923 */ {"Method", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 924 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 925 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 926 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 927 */ {"Method", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 928 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 929 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 930 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 931 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 932 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 933 */ {"Field", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 934 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 935 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 936 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 937 */ {"Field", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 938 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 939 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 940 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 941 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 942 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 943 */ {"Token", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 944 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 945 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 946 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 947 */ {"Token", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 948 */ {"Module", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 949 */ {"AppDomainID", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 950 */ {"IsCritical", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 951 */ {"IsTreatAsSafe", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 952 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 953 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 954 */ {"BindingID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 955 */ {"ReasonCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 956 */ {"AssemblyName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 957 */ {"FailFastUserMessage", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 958 */ {"FailedEIP", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 959 */ {"OSExitCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 960 */ {"ClrExitCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 961 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 962 */ {"TypeID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 963 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 964 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 965 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 966 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 967 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 968 */ {"COMInterfacePointer", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 969 */ {"NewRefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 970 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 971 */ {"ClassName", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 972 */ {"NameSpace", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 973 */ {"Operation", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 974 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 975 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 976 */ {"Prepend", NTIDX_TYPE_BOOLEAN32, 0, NULL, NULL, 0},
    /* 977 */ {"Message", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 978 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 979 */ {"Category", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 980 */ {"ErrorCode", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 981 */ {"PlugStart", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 982 */ {"PlugEnd", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 983 */ {"GapBeforeSize", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 984 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 985 */ {"HandleID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 986 */ {"ObjectID", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 987 */ {"COMInterfacePointer", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 988 */ {"NewRefCount", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 989 */ {"AppDomainID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 990 */ {"ClassName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 991 */ {"NameSpace", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 992 */ {"Operation", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 993 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 994 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 995 */ {"String1", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 996 */ {"String2", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 997 */ {"Int1", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 998 */ {"Int2", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 999 */ {"Int3", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 1000 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1001 */ {"ModuleID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 1002 */ {"MethodID", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 1003 */ {"LoaderHeapPtr", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 1004 */ {"MemoryAddress", NTX_TYPE_POINTER, 0, NULL, NULL, 0},
    /* 1005 */ {"RequestSize", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 1006 */ {"Unused1", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 1007 */ {"Unused2", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0},
    /* 1008 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1009 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1010 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1011 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1012 */ {"SecondTypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1013 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1014 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1015 */ {"InterfaceTypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1016 */ {"VariantInterfaceTypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1017 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1018 */ {"TypeName", NTIDX_TYPE_UTF16_STRING, 0, NULL, NULL, 0},
    /* 1019 */ {"Int1", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 1020 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1021 */ {"Facility", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 1022 */ {"LogLevel", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 1023 */ {"Message", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 1024 */ {"Facility", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0},
    /* 1025 */ {"LogLevel", NTIDX_TYPE_BYTE, 0, NULL, NULL, 0},
    /* 1026 */ {"Message", NTX_TYPE_ANSI_STRING, 0, NULL, NULL, 0},
    /* 1027 */ {"ClrInstanceID", NTIDX_TYPE_UINT16, 0, NULL, NULL, 0},
    /* 1028 */ {"Type", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
    /* 1029 */ {"Name", NTIDX_TYPE_UTF8_CODE_UNIT, 0, NULL, NULL, 0},
    /* 1030 */ {"NamespaceName", NTIDX_TYPE_UTF8_CODE_UNIT, 0, NULL, NULL, 0},
    /* 1031 */ {"NamespaceId", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1032 */ {"Name", NTIDX_TYPE_ARRAY, 0, &ntx_manifest_fields[1029], NULL, 0},
    /* 1033 */ {"NamespaceName", NTIDX_TYPE_ARRAY, 0, &ntx_manifest_fields[1030], NULL, 0},
    /* 1034 */ {"FileName", NTIDX_TYPE_UTF8_CODE_UNIT, 0, NULL, NULL, 0},
    /* 1035 */ {"Id", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1036 */ {"StartAddress", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1037 */ {"EndAddress", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1038 */ {"FileOffset", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1039 */ {"FileName", NTIDX_TYPE_ARRAY, 0, &ntx_manifest_fields[1034], NULL, 0},
    /* 1040 */ {"MetadataId", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1041 */ {"Id", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1042 */ {"MappingId", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1043 */ {"StartAddress", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1044 */ {"EndAddress", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1045 */ {"Name", NTIDX_TYPE_ARRAY, 0, &ntx_manifest_fields[1029], NULL, 0},
    /* 1046 */ {"SymbolMetadata", NTIDX_TYPE_UTF8_CODE_UNIT, 0, NULL, NULL, 0},
    /* 1047 */ {"VersionMetadata", NTIDX_TYPE_UTF8_CODE_UNIT, 0, NULL, NULL, 0},
    /* 1048 */ {"Id", NTIDX_TYPE_VARUINT, 0, NULL, NULL, 0},
    /* 1049 */ {"SymbolMetadata", NTIDX_TYPE_ARRAY, 0, &ntx_manifest_fields[1046], NULL, 0},
    /* 1050 */ {"VersionMetadata", NTIDX_TYPE_ARRAY, 0, &ntx_manifest_fields[1047], NULL, 0},
};
const size_t ntx_manifest_field_count = 1051;

/* {provider, version, event id, field count, no layout, opcode, name, fields} (manifest symbol),
 * sorted by provider, event id, version. */
const ntx_manifest_event ntx_manifest_events[] = {
    {0, 0, 1, 2, 0, 1, "GC/Start", &ntx_manifest_fields[0]}, /* GCStart */
    {0, 1, 1, 5, 0, 1, "GC/Start", &ntx_manifest_fields[2]}, /* GCStart_V1 */
    {0, 2, 1, 6, 0, 1, "GC/Start", &ntx_manifest_fields[7]}, /* GCStart_V2 */
    {0, 0, 2, 2, 0, 2, "GC/Stop", &ntx_manifest_fields[13]}, /* GCEnd */
    {0, 1, 2, 3, 0, 2, "GC/Stop", &ntx_manifest_fields[15]}, /* GCEnd_V1 */
    {0, 0, 3, 0, 0, 132, "GC/RestartEEStop", NULL}, /* GCRestartEEEnd */
    {0, 1, 3, 1, 0, 132, "GC/RestartEEStop", &ntx_manifest_fields[18]}, /* GCRestartEEEnd_V1 */
    {0, 0, 4, 13, 0, 133, "GC/HeapStats", &ntx_manifest_fields[19]}, /* GCHeapStats */
    {0, 1, 4, 14, 0, 133, "GC/HeapStats", &ntx_manifest_fields[32]}, /* GCHeapStats_V1 */
    {0, 2, 4, 16, 0, 133, "GC/HeapStats", &ntx_manifest_fields[46]}, /* GCHeapStats_V2 */
    {0, 0, 5, 3, 0, 134, "GC/CreateSegment", &ntx_manifest_fields[62]}, /* GCCreateSegment */
    {0, 1, 5, 4, 0, 134, "GC/CreateSegment", &ntx_manifest_fields[65]}, /* GCCreateSegment_V1 */
    {0, 0, 6, 1, 0, 135, "GC/FreeSegment", &ntx_manifest_fields[69]}, /* GCFreeSegment */
    {0, 1, 6, 2, 0, 135, "GC/FreeSegment", &ntx_manifest_fields[70]}, /* GCFreeSegment_V1 */
    {0, 0, 7, 0, 0, 136, "GC/RestartEEStart", NULL}, /* GCRestartEEBegin */
    {0, 1, 7, 1, 0, 136, "GC/RestartEEStart", &ntx_manifest_fields[18]}, /* GCRestartEEBegin_V1 */
    {0, 0, 8, 0, 0, 137, "GC/SuspendEEStop", NULL}, /* GCSuspendEEEnd */
    {0, 1, 8, 1, 0, 137, "GC/SuspendEEStop", &ntx_manifest_fields[18]}, /* GCSuspendEEEnd_V1 */
    {0, 0, 9, 1, 0, 10, "GC/SuspendEEStart", &ntx_manifest_fields[72]}, /* GCSuspendEEBegin */
    {0, 1, 9, 3, 0, 10, "GC/SuspendEEStart", &ntx_manifest_fields[73]}, /* GCSuspendEEBegin_V1 */
    {0, 0, 10, 2, 0, 11, "GC/AllocationTick", &ntx_manifest_fields[76]}, /* GCAllocationTick */
    {0, 1, 10, 3, 0, 11, "GC/AllocationTick", &ntx_manifest_fields[78]}, /* GCAllocationTick_V1 */
    {0, 2, 10, 7, 0, 11, "GC/AllocationTick", &ntx_manifest_fields[81]}, /* GCAllocationTick_V2 */
    {0, 3, 10, 8, 0, 11, "GC/AllocationTick", &ntx_manifest_fields[88]}, /* GCAllocationTick_V3 */
    {0, 4, 10, 9, 0, 11, "GC/AllocationTick", &ntx_manifest_fields[96]},
    {0, 0, 11, 0, 0, 12, "GC/CreateConcurrentThread", NULL}, /* GCCreateConcurrentThread */
    {0, 1, 11, 1, 0, 12, "GC/CreateConcurrentThread", &ntx_manifest_fields[18]}, /* GCCreateConcurrentThread_V1 */
    {0, 0, 12, 0, 0, 13, "GC/TerminateConcurrentThread", NULL}, /* GCTerminateConcurrentThread */
    {0, 1, 12, 1, 0, 13, "GC/TerminateConcurrentThread", &ntx_manifest_fields[18]}, /* GCTerminateConcurrentThread_V1 */
    {0, 0, 13, 1, 0, 15, "GC/FinalizersStop", &ntx_manifest_fields[105]}, /* GCFinalizersEnd */
    {0, 1, 13, 2, 0, 15, "GC/FinalizersStop", &ntx_manifest_fields[106]}, /* GCFinalizersEnd_V1 */
    {0, 0, 14, 0, 0, 19, "GC/FinalizersStart", NULL}, /* GCFinalizersBegin */
    {0, 1, 14, 1, 0, 19, "GC/FinalizersStart", &ntx_manifest_fields[18]}, /* GCFinalizersBegin_V1 */
    {0, 0, 15, 3, 0, 10, "Type/BulkType", &ntx_manifest_fields[118]}, /* BulkType */
    {0, 0, 16, 4, 0, 20, "GC/BulkRootEdge", &ntx_manifest_fields[126]}, /* GCBulkRootEdge */
    {0, 0, 17, 4, 0, 21, "GC/BulkRootConditionalWeakTableElementEdge", &ntx_manifest_fields[134]}, /* GCBulkRootConditionalWeakTableElementEdge */
    {0, 0, 18, 4, 0, 22, "GC/BulkNode", &ntx_manifest_fields[143]}, /* GCBulkNode */
    {0, 0, 19, 4, 0, 23, "GC/BulkEdge", &ntx_manifest_fields[150]}, /* GCBulkEdge */
    {0, 0, 20, 5, 0, 24, "GC/SampledObjectAllocation", &ntx_manifest_fields[154]}, /* GCSampledObjectAllocationHigh */
    {0, 0, 21, 4, 0, 25, "GC/BulkSurvivingObjectRanges", &ntx_manifest_fields[162]}, /* GCBulkSurvivingObjectRanges */
    {0, 0, 22, 4, 0, 26, "GC/BulkMovedObjectRanges", &ntx_manifest_fields[170]}, /* GCBulkMovedObjectRanges */
    {0, 0, 23, 5, 0, 27, "GC/GenerationRange", &ntx_manifest_fields[174]}, /* GCGenerationRange */
    {0, 0, 25, 2, 0, 28, "GC/MarkStackRoots", &ntx_manifest_fields[179]}, /* GCMarkStackRoots */
    {0, 0, 26, 2, 0, 29, "GC/MarkFinalizeQueueRoots", &ntx_manifest_fields[179]}, /* GCMarkFinalizeQueueRoots */
    {0, 0, 27, 2, 0, 30, "GC/MarkHandles", &ntx_manifest_fields[179]}, /* GCMarkHandles */
    {0, 0, 28, 2, 0, 31, "GC/MarkCards", &ntx_manifest_fields[179]}, /* GCMarkOlderGenerationRoots */
    {0, 0, 29, 3, 0, 32, "GC/FinalizeObject", &ntx_manifest_fields[181]}, /* FinalizeObject */
    {0, 0, 30, 6, 0, 33, "GC/SetGCHandle", &ntx_manifest_fields[184]}, /* SetGCHandle */
    {0, 0, 31, 2, 0, 34, "GC/DestoryGCHandle", &ntx_manifest_fields[190]}, /* DestroyGCHandle */
    {0, 0, 32, 5, 0, 24, "GC/SampledObjectAllocation", &ntx_manifest_fields[154]}, /* GCSampledObjectAllocationLow */
    {0, 0, 33, 5, 0, 36, "GC/PinObjectAtGCTime", &ntx_manifest_fields[192]}, /* PinObjectAtGCTime */
    {0, 0, 34, 0, 1, 37, "GC/PinPlugAtGCTime", NULL},
    {0, 0, 35, 2, 0, 35, "GC/Triggered", &ntx_manifest_fields[197]}, /* GCTriggered */
    {0, 0, 36, 3, 0, 38, "GC/BulkRootCCW", &ntx_manifest_fields[207]}, /* GCBulkRootCCW */
    {0, 0, 37, 3, 0, 39, "GC/BulkRCW", &ntx_manifest_fields[217]}, /* GCBulkRCW */
    {0, 0, 38, 4, 0, 40, "GC/BulkRootStaticVar", &ntx_manifest_fields[226]}, /* GCBulkRootStaticVar */
    {0, 0, 39, 4, 0, 41, "GC/DynamicEvent", &ntx_manifest_fields[231]}, /* GCDynamicEvent */
    {0, 0, 40, 2, 0, 1, "", &ntx_manifest_fields[235]}, /* WorkerThreadCreate */
    {0, 0, 41, 2, 0, 2, "", &ntx_manifest_fields[235]}, /* WorkerThreadTerminate */
    {0, 0, 42, 2, 0, 1, "", &ntx_manifest_fields[235]}, /* WorkerThreadRetire */
    {0, 0, 43, 2, 0, 2, "", &ntx_manifest_fields[235]}, /* WorkerThreadUnretire */
    {0, 0, 44, 2, 0, 1, "IOThreadCreation/Start", &ntx_manifest_fields[237]}, /* IOThreadCreate */
    {0, 1, 44, 3, 0, 1, "IOThreadCreation/Start", &ntx_manifest_fields[239]}, /* IOThreadCreate_V1 */
    {0, 0, 45, 2, 0, 2, "IOThreadCreation/Stop", &ntx_manifest_fields[237]}, /* IOThreadTerminate */
    {0, 1, 45, 3, 0, 2, "IOThreadCreation/Stop", &ntx_manifest_fields[239]}, /* IOThreadTerminate_V1 */
    {0, 0, 46, 2, 0, 1, "IOThreadRetirement/Start", &ntx_manifest_fields[237]}, /* IOThreadRetire */
    {0, 1, 46, 3, 0, 1, "IOThreadRetirement/Start", &ntx_manifest_fields[239]}, /* IOThreadRetire_V1 */
    {0, 0, 47, 2, 0, 2, "IOThreadRetirement/Stop", &ntx_manifest_fields[237]}, /* IOThreadUnretire */
    {0, 1, 47, 3, 0, 2, "IOThreadRetirement/Stop", &ntx_manifest_fields[239]}, /* IOThreadUnretire_V1 */
    {0, 0, 48, 2, 0, 1, "", &ntx_manifest_fields[242]}, /* ThreadpoolSuspensionSuspendThread */
    {0, 0, 49, 2, 0, 2, "", &ntx_manifest_fields[242]}, /* ThreadpoolSuspensionResumeThread */
    {0, 0, 50, 3, 0, 1, "ThreadPoolWorkerThread/Start", &ntx_manifest_fields[244]}, /* ThreadPoolWorkerThreadStart */
    {0, 0, 51, 3, 0, 2, "ThreadPoolWorkerThread/Stop", &ntx_manifest_fields[244]}, /* ThreadPoolWorkerThreadStop */
    {0, 0, 52, 3, 0, 1, "ThreadPoolWorkerThreadRetirement/Start", &ntx_manifest_fields[244]}, /* ThreadPoolWorkerThreadRetirementStart */
    {0, 0, 53, 3, 0, 2, "ThreadPoolWorkerThreadRetirement/Stop", &ntx_manifest_fields[244]}, /* ThreadPoolWorkerThreadRetirementStop */
    {0, 0, 54, 2, 0, 100, "ThreadPoolWorkerThreadAdjustment/Sample", &ntx_manifest_fields[247]}, /* ThreadPoolWorkerThreadAdjustmentSample */
    {0, 0, 55, 4, 0, 101, "ThreadPoolWorkerThreadAdjustment/Adjustment", &ntx_manifest_fields[249]}, /* ThreadPoolWorkerThreadAdjustmentAdjustment */
    {0, 0, 56, 11, 0, 102, "ThreadPoolWorkerThreadAdjustment/Stats", &ntx_manifest_fields[253]}, /* ThreadPoolWorkerThreadAdjustmentStats */
    {0, 0, 57, 3, 0, 90, "ThreadPoolWorkerThread/Wait", &ntx_manifest_fields[244]}, /* ThreadPoolWorkerThreadWait */
    {0, 0, 58, 3, 0, 0, "YieldProcessorMeasurement", &ntx_manifest_fields[264]}, /* InitializeYieldProcessorNormalizedInfo */
    {0, 0, 59, 5, 0, 0, "ThreadPoolMinMaxThreads", &ntx_manifest_fields[267]},
    {0, 0, 60, 2, 0, 1, "ThreadPoolWorkingThreadCount/Start", &ntx_manifest_fields[106]}, /* ThreadPoolWorkingThreadCount */
    {0, 0, 61, 2, 0, 11, "ThreadPool/Enqueue", &ntx_manifest_fields[272]}, /* ThreadPoolEnqueue */
    {0, 0, 62, 2, 0, 12, "ThreadPool/Dequeue", &ntx_manifest_fields[272]}, /* ThreadPoolDequeue */
    {0, 0, 63, 4, 0, 13, "ThreadPool/IOEnqueue", &ntx_manifest_fields[274]}, /* ThreadPoolIOEnqueue */
    {0, 0, 64, 3, 0, 14, "ThreadPool/IODequeue", &ntx_manifest_fields[278]}, /* ThreadPoolIODequeue */
    {0, 0, 65, 3, 0, 15, "ThreadPool/IOPack", &ntx_manifest_fields[278]}, /* ThreadPoolIOPack */
    {0, 0, 70, 2, 0, 11, "Thread/Creating", &ntx_manifest_fields[281]}, /* ThreadCreating */
    {0, 0, 71, 2, 0, 12, "Thread/Running", &ntx_manifest_fields[281]}, /* ThreadRunning */
    {0, 0, 72, 6, 0, 43, "Method/MethodDetails", &ntx_manifest_fields[283]}, /* MethodDetails */
    {0, 0, 73, 2, 0, 1, "TypeLoad/Start", &ntx_manifest_fields[289]}, /* TypeLoadStart */
    {0, 0, 74, 5, 0, 2, "TypeLoad/Stop", &ntx_manifest_fields[291]}, /* TypeLoadStop */
    {0, 0, 80, 0, 0, 1, "Exception/Start", NULL}, /* ExceptionThrown */
    {0, 1, 80, 6, 0, 1, "Exception/Start", &ntx_manifest_fields[296]}, /* ExceptionThrown_V1 */
    {0, 0, 81, 0, 0, 1, "Contention/Start", NULL}, /* Contention */
    {0, 1, 81, 2, 0, 1, "Contention/Start", &ntx_manifest_fields[302]}, /* ContentionStart_V1 */
    {0, 2, 81, 5, 0, 1, "Contention/Start", &ntx_manifest_fields[304]},
    {0, 0, 82, 5, 0, 82, "ClrStack/Walk", &ntx_manifest_fields[310]}, /* CLRStackWalk */
    {0, 0, 83, 3, 0, 48, "AppDomainResourceManagement/MemAllocated", &ntx_manifest_fields[315]}, /* AppDomainMemAllocated */
    {0, 0, 84, 4, 0, 49, "AppDomainResourceManagement/MemSurvived", &ntx_manifest_fields[318]}, /* AppDomainMemSurvived */
    {0, 0, 85, 6, 0, 50, "AppDomainResourceManagement/ThreadCreated", &ntx_manifest_fields[322]}, /* ThreadCreated */
    {0, 0, 86, 3, 0, 51, "AppDomainResourceManagement/ThreadTerminated", &ntx_manifest_fields[328]}, /* ThreadTerminated */
    {0, 0, 87, 3, 0, 52, "AppDomainResourceManagement/DomainEnter", &ntx_manifest_fields[328]}, /* ThreadDomainEnter */
    {0, 0, 88, 11, 0, 88, "ILStub/StubGenerated", &ntx_manifest_fields[331]}, /* ILStubGenerated */
    {0, 0, 89, 7, 0, 89, "ILStub/StubCacheHit", &ntx_manifest_fields[342]}, /* ILStubCacheHit */
    {0, 0, 90, 3, 0, 11, "Contention/LockCreated", &ntx_manifest_fields[349]},
    {0, 0, 91, 2, 0, 2, "Contention/Stop", &ntx_manifest_fields[302]}, /* ContentionStop */
    {0, 1, 91, 3, 0, 2, "Contention/Stop", &ntx_manifest_fields[352]}, /* ContentionStop_V1 */
    {0, 0, 135, 0, 0, 14, "Method/DCStartCompleteV2", NULL}, /* DCStartCompleteV2 */
    {0, 0, 136, 0, 0, 15, "Method/DCStopCompleteV2", NULL}, /* DCEndCompleteV2 */
    {0, 0, 137, 6, 0, 35, "Method/DCStartV2", &ntx_manifest_fields[355]}, /* MethodDCStartV2 */
    {0, 0, 138, 6, 0, 36, "Method/DCStopV2", &ntx_manifest_fields[355]}, /* MethodDCEndV2 */
    {0, 0, 139, 9, 0, 39, "Method/DCStartVerboseV2", &ntx_manifest_fields[361]}, /* MethodDCStartVerboseV2 */
    {0, 0, 140, 9, 0, 40, "Method/DCStopVerboseV2", &ntx_manifest_fields[361]}, /* MethodDCEndVerboseV2 */
    {0, 0, 141, 6, 0, 33, "Method/Load", &ntx_manifest_fields[355]}, /* MethodLoad */
    {0, 1, 141, 7, 0, 33, "Method/Load", &ntx_manifest_fields[370]}, /* MethodLoad_V1 */
    {0, 2, 141, 8, 0, 33, "Method/Load", &ntx_manifest_fields[377]}, /* MethodLoad_V2 */
    {0, 0, 142, 6, 0, 34, "Method/Unload", &ntx_manifest_fields[355]}, /* MethodUnload */
    {0, 1, 142, 7, 0, 34, "Method/Unload", &ntx_manifest_fields[370]}, /* MethodUnload_V1 */
    {0, 2, 142, 8, 0, 34, "Method/Unload", &ntx_manifest_fields[377]}, /* MethodUnload_V2 */
    {0, 0, 143, 9, 0, 37, "Method/LoadVerbose", &ntx_manifest_fields[361]}, /* MethodLoadVerbose */
    {0, 1, 143, 10, 0, 37, "Method/LoadVerbose", &ntx_manifest_fields[385]}, /* MethodLoadVerbose_V1 */
    {0, 2, 143, 11, 0, 37, "Method/LoadVerbose", &ntx_manifest_fields[395]}, /* MethodLoadVerbose_V2 */
    {0, 0, 144, 9, 0, 38, "Method/UnloadVerbose", &ntx_manifest_fields[361]}, /* MethodUnloadVerbose */
    {0, 1, 144, 10, 0, 38, "Method/UnloadVerbose", &ntx_manifest_fields[385]}, /* MethodUnloadVerbose_V1 */
    {0, 2, 144, 11, 0, 38, "Method/UnloadVerbose", &ntx_manifest_fields[395]}, /* MethodUnloadVerbose_V2 */
    {0, 0, 145, 7, 0, 42, "Method/JittingStarted", &ntx_manifest_fields[406]}, /* MethodJittingStarted */
    {0, 1, 145, 8, 0, 42, "Method/JittingStarted", &ntx_manifest_fields[413]}, /* MethodJittingStarted_V1 */
    {0, 0, 146, 7, 0, 103, "Method/MemoryAllocatedForJitCode", &ntx_manifest_fields[421]}, /* MethodJitMemoryAllocatedForCode */
    {0, 0, 149, 6, 0, 35, "Loader/ModuleDCStartV2", &ntx_manifest_fields[428]}, /* ModuleDCStartV2 */
    {0, 0, 150, 6, 0, 36, "Loader/ModuleDCStopV2", &ntx_manifest_fields[428]}, /* ModuleDCEndV2 */
    {0, 0, 151, 7, 0, 45, "Loader/DomainModuleLoad", &ntx_manifest_fields[434]}, /* DomainModuleLoad */
    {0, 1, 151, 8, 0, 45, "Loader/DomainModuleLoad", &ntx_manifest_fields[441]}, /* DomainModuleLoad_V1 */
    {0, 0, 152, 6, 0, 33, "Loader/ModuleLoad", &ntx_manifest_fields[428]}, /* ModuleLoad */
    {0, 1, 152, 7, 0, 33, "Loader/ModuleLoad", &ntx_manifest_fields[449]}, /* ModuleLoad_V1 */
    {0, 2, 152, 13, 0, 33, "Loader/ModuleLoad", &ntx_manifest_fields[456]}, /* ModuleLoad_V2 */
    {0, 0, 153, 6, 0, 34, "Loader/ModuleUnload", &ntx_manifest_fields[428]}, /* ModuleUnload */
    {0, 1, 153, 7, 0, 34, "Loader/ModuleUnload", &ntx_manifest_fields[449]}, /* ModuleUnload_V1 */
    {0, 2, 153, 13, 0, 34, "Loader/ModuleUnload", &ntx_manifest_fields[456]}, /* ModuleUnload_V2 */
    {0, 0, 154, 4, 0, 37, "Loader/AssemblyLoad", &ntx_manifest_fields[469]}, /* AssemblyLoad */
    {0, 1, 154, 6, 0, 37, "Loader/AssemblyLoad", &ntx_manifest_fields[473]}, /* AssemblyLoad_V1 */
    {0, 0, 155, 4, 0, 38, "Loader/AssemblyUnload", &ntx_manifest_fields[469]}, /* AssemblyUnload */
    {0, 1, 155, 6, 0, 38, "Loader/AssemblyUnload", &ntx_manifest_fields[473]}, /* AssemblyUnload_V1 */
    {0, 0, 156, 3, 0, 41, "Loader/AppDomainLoad", &ntx_manifest_fields[479]}, /* AppDomainLoad */
    {0, 1, 156, 5, 0, 41, "Loader/AppDomainLoad", &ntx_manifest_fields[482]}, /* AppDomainLoad_V1 */
    {0, 0, 157, 3, 0, 42, "Loader/AppDomainUnload", &ntx_manifest_fields[479]}, /* AppDomainUnload */
    {0, 1, 157, 5, 0, 42, "Loader/AppDomainUnload", &ntx_manifest_fields[482]}, /* AppDomainUnload_V1 */
    {0, 0, 158, 5, 0, 10, "", &ntx_manifest_fields[487]}, /* ModuleRangeLoad */
    {0, 0, 159, 6, 0, 33, "Method/R2RGetEntryPoint", &ntx_manifest_fields[492]}, /* R2RGetEntryPoint */
    {0, 0, 160, 2, 0, 33, "Method/R2RGetEntryPointStart", &ntx_manifest_fields[498]}, /* R2RGetEntryPointStart */
    {0, 0, 181, 3, 0, 1, "StrongNameVerification/Start", &ntx_manifest_fields[500]}, /* StrongNameVerificationStart */
    {0, 1, 181, 4, 0, 1, "StrongNameVerification/Start", &ntx_manifest_fields[503]}, /* StrongNameVerificationStart_V1 */
    {0, 0, 182, 3, 0, 2, "StrongNameVerification/Stop", &ntx_manifest_fields[500]}, /* StrongNameVerificationStop */
    {0, 1, 182, 4, 0, 2, "StrongNameVerification/Stop", &ntx_manifest_fields[503]}, /* StrongNameVerificationStop_V1 */
    {0, 0, 183, 3, 0, 1, "AuthenticodeVerification/Start", &ntx_manifest_fields[507]}, /* AuthenticodeVerificationStart */
    {0, 1, 183, 4, 0, 1, "AuthenticodeVerification/Start", &ntx_manifest_fields[510]}, /* AuthenticodeVerificationStart_V1 */
    {0, 0, 184, 3, 0, 2, "AuthenticodeVerification/Stop", &ntx_manifest_fields[507]}, /* AuthenticodeVerificationStop */
    {0, 1, 184, 4, 0, 2, "AuthenticodeVerification/Stop", &ntx_manifest_fields[510]}, /* AuthenticodeVerificationStop_V1 */
    {0, 0, 185, 10, 0, 83, "Method/InliningSucceeded", &ntx_manifest_fields[514]}, /* MethodJitInliningSucceeded */
    {0, 0, 186, 12, 0, 84, "Method/InliningFailedAnsi", &ntx_manifest_fields[524]}, /* MethodJitInliningFailedAnsi */
    {0, 0, 187, 15, 0, 1, "Runtime/Start", &ntx_manifest_fields[536]}, /* RuntimeInformationStart */
    {0, 0, 188, 12, 0, 85, "Method/TailCallSucceeded", &ntx_manifest_fields[551]}, /* MethodJitTailCallSucceeded */
    {0, 0, 189, 12, 0, 86, "Method/TailCallFailed", &ntx_manifest_fields[563]}, /* MethodJitTailCallFailedAnsi */
    {0, 0, 190, 7, 0, 87, "Method/ILToNativeMap", &ntx_manifest_fields[577]}, /* MethodILToNativeMap */
    {0, 1, 190, 8, 0, 87, "Method/ILToNativeMap", &ntx_manifest_fields[584]},
    {0, 0, 191, 12, 0, 86, "", &ntx_manifest_fields[592]}, /* MethodJitTailCallFailed */
    {0, 0, 192, 12, 0, 84, "Method/InliningFailed", &ntx_manifest_fields[604]}, /* MethodJitInliningFailed */
    {0, 0, 200, 2, 0, 200, "", &ntx_manifest_fields[616]}, /* IncreaseMemoryPressure */
    {0, 0, 201, 2, 0, 201, "", &ntx_manifest_fields[618]}, /* DecreaseMemoryPressure */
    {0, 0, 202, 4, 0, 202, "GC/MarkWithType", &ntx_manifest_fields[620]}, /* GCMarkWithType */
    {0, 2, 203, 5, 0, 203, "GC/Join", &ntx_manifest_fields[624]}, /* GCJoin_V2 */
    {0, 3, 204, 16, 0, 204, "GC/PerHeapHistory", &ntx_manifest_fields[640]}, /* GCPerHeapHistory_V3 */
    {0, 2, 205, 9, 0, 205, "GC/GlobalHeapHistory", &ntx_manifest_fields[656]}, /* GCGlobalHeapHistory_V2 */
    {0, 3, 205, 11, 0, 205, "GC/GlobalHeapHistory", &ntx_manifest_fields[665]}, /* GCGlobalHeapHistory_V3 */
    {0, 4, 205, 13, 0, 205, "GC/GlobalHeapHistory", &ntx_manifest_fields[678]},
    {0, 0, 206, 2, 0, 206, "GC/GenAwareBegin", &ntx_manifest_fields[106]}, /* GenAwareBegin */
    {0, 0, 207, 2, 0, 207, "GC/GenAwareEnd", &ntx_manifest_fields[106]}, /* GenAwareEnd */
    {0, 0, 208, 3, 0, 208, "GC/LOHCompact", &ntx_manifest_fields[697]},
    {0, 0, 209, 5, 0, 209, "GC/FitBucketInfo", &ntx_manifest_fields[704]},
    {0, 0, 240, 0, 0, 1, "", NULL}, /* DebugIPCEventStart */
    {0, 0, 241, 0, 0, 2, "", NULL}, /* DebugIPCEventEnd */
    {0, 0, 242, 0, 0, 1, "", NULL}, /* DebugExceptionProcessingStart */
    {0, 0, 243, 0, 0, 2, "", NULL}, /* DebugExceptionProcessingEnd */
    {0, 0, 250, 4, 0, 1, "ExceptionCatch/Start", &ntx_manifest_fields[709]}, /* ExceptionCatchStart */
    {0, 0, 251, 0, 0, 2, "ExceptionCatch/Stop", NULL}, /* ExceptionCatchStop */
    {0, 0, 252, 4, 0, 1, "ExceptionFinally/Start", &ntx_manifest_fields[709]}, /* ExceptionFinallyStart */
    {0, 0, 253, 0, 0, 2, "ExceptionFinally/Stop", NULL}, /* ExceptionFinallyStop */
    {0, 0, 254, 4, 0, 1, "ExceptionFilter/Start", &ntx_manifest_fields[709]}, /* ExceptionFilterStart */
    {0, 0, 255, 0, 0, 2, "ExceptionFilter/Stop", NULL}, /* ExceptionFilterStop */
    {0, 0, 256, 0, 0, 2, "Exception/Stop", NULL}, /* ExceptionThrownStop */
    {0, 0, 260, 6, 0, 1, "CodeSymbols/Start", &ntx_manifest_fields[714]}, /* CodeSymbols */
    {0, 0, 270, 4, 0, 0, "EventSourceEvent", &ntx_manifest_fields[720]}, /* EventSource */
    {0, 0, 280, 2, 0, 11, "TieredCompilation/Settings", &ntx_manifest_fields[724]}, /* TieredCompilationSettings */
    {0, 0, 281, 1, 0, 12, "TieredCompilation/Pause", &ntx_manifest_fields[18]}, /* TieredCompilationPause */
    {0, 0, 282, 2, 0, 13, "TieredCompilation/Resume", &ntx_manifest_fields[726]}, /* TieredCompilationResume */
    {0, 0, 283, 2, 0, 1, "TieredCompilation/BackgroundJitStart", &ntx_manifest_fields[728]}, /* TieredCompilationBackgroundJitStart */
    {0, 0, 284, 3, 0, 2, "TieredCompilation/BackgroundJitStop", &ntx_manifest_fields[730]}, /* TieredCompilationBackgroundJitStop */
    {0, 0, 290, 6, 0, 1, "AssemblyLoader/Start", &ntx_manifest_fields[733]}, /* AssemblyLoadStart */
    {0, 0, 291, 10, 0, 2, "AssemblyLoader/Stop", &ntx_manifest_fields[739]}, /* AssemblyLoadStop */
    {0, 0, 292, 8, 0, 11, "AssemblyLoader/ResolutionAttempted", &ntx_manifest_fields[749]}, /* ResolutionAttempted */
    {0, 0, 293, 6, 0, 12, "AssemblyLoader/AssemblyLoadContextResolvingHandlerInvoked", &ntx_manifest_fields[757]}, /* AssemblyLoadContextResolvingHandlerInvoked */
    {0, 0, 294, 5, 0, 13, "AssemblyLoader/AppDomainAssemblyResolveHandlerInvoked", &ntx_manifest_fields[763]}, /* AppDomainAssemblyResolveHandlerInvoked */
    {0, 0, 295, 5, 0, 14, "AssemblyLoader/AssemblyLoadFromResolveHandlerInvoked", &ntx_manifest_fields[768]}, /* AssemblyLoadFromResolveHandlerInvoked */
    {0, 0, 296, 4, 0, 15, "AssemblyLoader/KnownPathProbed", &ntx_manifest_fields[773]}, /* KnownPathProbed */
    {0, 0, 297, 5, 0, 11, "JitInstrumentationData/InstrumentationData", &ntx_manifest_fields[777]}, /* JitInstrumentationData */
    {0, 0, 298, 10, 0, 12, "JitInstrumentationDataVerbose/InstrumentationData", &ntx_manifest_fields[782]}, /* JitInstrumentationDataVerbose */
    {0, 0, 300, 3, 0, 11, "ExecutionCheckpoint/ExecutionCheckpoint", &ntx_manifest_fields[792]},
    {0, 0, 301, 3, 0, 1, "WaitHandleWait/Start", &ntx_manifest_fields[795]},
    {0, 0, 302, 1, 0, 2, "WaitHandleWait/Stop", &ntx_manifest_fields[18]},
    {0, 0, 303, 7, 0, 0, "AllocationSampling", &ntx_manifest_fields[798]},
    {1, 0, 0, 5, 0, 82, "ClrStack/Walk", &ntx_manifest_fields[310]}, /* CLRStackWalkDCStart */
    {1, 0, 10, 8, 0, 10, "GC/SettingsRundown", &ntx_manifest_fields[805]},
    {1, 0, 141, 6, 0, 35, "Method/DCStart", &ntx_manifest_fields[355]}, /* MethodDCStart */
    {1, 1, 141, 7, 0, 35, "Method/DCStart", &ntx_manifest_fields[370]}, /* MethodDCStart_V1 */
    {1, 2, 141, 8, 0, 35, "Method/DCStart", &ntx_manifest_fields[377]}, /* MethodDCStart_V2 */
    {1, 0, 142, 6, 0, 36, "Method/DCStop", &ntx_manifest_fields[355]}, /* MethodDCEnd */
    {1, 1, 142, 7, 0, 36, "Method/DCStop", &ntx_manifest_fields[370]}, /* MethodDCEnd_V1 */
    {1, 2, 142, 8, 0, 36, "Method/DCStop", &ntx_manifest_fields[377]}, /* MethodDCEnd_V2 */
    {1, 0, 143, 9, 0, 39, "Method/DCStartVerbose", &ntx_manifest_fields[361]}, /* MethodDCStartVerbose */
    {1, 1, 143, 10, 0, 39, "Method/DCStartVerbose", &ntx_manifest_fields[385]}, /* MethodDCStartVerbose_V1 */
    {1, 2, 143, 11, 0, 39, "Method/DCStartVerbose", &ntx_manifest_fields[395]}, /* MethodDCStartVerbose_V2 */
    {1, 0, 144, 9, 0, 40, "Method/DCStopVerbose", &ntx_manifest_fields[361]}, /* MethodDCEndVerbose */
    {1, 1, 144, 10, 0, 40, "Method/DCStopVerbose", &ntx_manifest_fields[385]}, /* MethodDCEndVerbose_V1 */
    {1, 2, 144, 11, 0, 40, "Method/DCStopVerbose", &ntx_manifest_fields[395]}, /* MethodDCEndVerbose_V2 */
    {1, 0, 145, 0, 0, 14, "Method/DCStartComplete", NULL}, /* DCStartComplete */
    {1, 1, 145, 1, 0, 14, "Method/DCStartComplete", &ntx_manifest_fields[18]}, /* DCStartComplete_V1 */
    {1, 0, 146, 0, 0, 15, "Method/DCStopComplete", NULL}, /* DCEndComplete */
    {1, 1, 146, 1, 0, 15, "Method/DCStopComplete", &ntx_manifest_fields[18]}, /* DCEndComplete_V1 */
    {1, 0, 147, 0, 0, 16, "Method/DCStartInit", NULL}, /* DCStartInit */
    {1, 1, 147, 1, 0, 16, "Method/DCStartInit", &ntx_manifest_fields[18]}, /* DCStartInit_V1 */
    {1, 0, 148, 0, 0, 17, "Method/DCStopInit", NULL}, /* DCEndInit */
    {1, 1, 148, 1, 0, 17, "Method/DCStopInit", &ntx_manifest_fields[18]}, /* DCEndInit_V1 */
    {1, 0, 149, 7, 0, 41, "Method/ILToNativeMapDCStart", &ntx_manifest_fields[577]}, /* MethodDCStartILToNativeMap */
    {1, 0, 150, 7, 0, 42, "Method/ILToNativeMapDCStop", &ntx_manifest_fields[577]}, /* MethodDCEndILToNativeMap */
    {1, 1, 150, 8, 0, 42, "Method/ILToNativeMapDCStop", &ntx_manifest_fields[584]},
    {1, 0, 151, 7, 0, 46, "Loader/DomainModuleDCStart", &ntx_manifest_fields[434]}, /* DomainModuleDCStart */
    {1, 1, 151, 8, 0, 46, "Loader/DomainModuleDCStart", &ntx_manifest_fields[441]}, /* DomainModuleDCStart_V1 */
    {1, 0, 152, 7, 0, 47, "Loader/DomainModuleDCStop", &ntx_manifest_fields[434]}, /* DomainModuleDCEnd */
    {1, 1, 152, 8, 0, 47, "Loader/DomainModuleDCStop", &ntx_manifest_fields[441]}, /* DomainModuleDCEnd_V1 */
    {1, 0, 153, 6, 0, 35, "Loader/ModuleDCStart", &ntx_manifest_fields[428]}, /* ModuleDCStart */
    {1, 1, 153, 7, 0, 35, "Loader/ModuleDCStart", &ntx_manifest_fields[449]}, /* ModuleDCStart_V1 */
    {1, 2, 153, 13, 0, 35, "Loader/ModuleDCStart", &ntx_manifest_fields[456]}, /* ModuleDCStart_V2 */
    {1, 0, 154, 6, 0, 36, "Loader/ModuleDCStop", &ntx_manifest_fields[428]}, /* ModuleDCEnd */
    {1, 1, 154, 7, 0, 36, "Loader/ModuleDCStop", &ntx_manifest_fields[449]}, /* ModuleDCEnd_V1 */
    {1, 2, 154, 13, 0, 36, "Loader/ModuleDCStop", &ntx_manifest_fields[456]}, /* ModuleDCEnd_V2 */
    {1, 0, 155, 4, 0, 39, "Loader/AssemblyDCStart", &ntx_manifest_fields[469]}, /* AssemblyDCStart */
    {1, 1, 155, 6, 0, 39, "Loader/AssemblyDCStart", &ntx_manifest_fields[473]}, /* AssemblyDCStart_V1 */
    {1, 0, 156, 4, 0, 40, "Loader/AssemblyDCStop", &ntx_manifest_fields[469]}, /* AssemblyDCEnd */
    {1, 1, 156, 6, 0, 40, "Loader/AssemblyDCStop", &ntx_manifest_fields[473]}, /* AssemblyDCEnd_V1 */
    {1, 0, 157, 3, 0, 43, "Loader/AppDomainDCStart", &ntx_manifest_fields[479]}, /* AppDomainDCStart */
    {1, 1, 157, 5, 0, 43, "Loader/AppDomainDCStart", &ntx_manifest_fields[482]}, /* AppDomainDCStart_V1 */
    {1, 0, 158, 3, 0, 44, "Loader/AppDomainDCStop", &ntx_manifest_fields[479]}, /* AppDomainDCEnd */
    {1, 1, 158, 5, 0, 44, "Loader/AppDomainDCStop", &ntx_manifest_fields[482]}, /* AppDomainDCEnd_V1 */
    {1, 0, 159, 6, 0, 48, "Loader/ThreadDCStop", &ntx_manifest_fields[322]}, /* ThreadDC */
    {1, 0, 160, 5, 0, 10, "", &ntx_manifest_fields[815]}, /* ModuleRangeDCStart */
    {1, 0, 161, 5, 0, 11, "", &ntx_manifest_fields[815]}, /* ModuleRangeDCEnd */
    {1, 0, 187, 15, 0, 1, "Runtime/Start", &ntx_manifest_fields[536]}, /* RuntimeInformationDCStart */
    {1, 0, 188, 6, 0, 1, "CodeSymbolsRundown/Start", &ntx_manifest_fields[714]},
    {1, 0, 280, 2, 0, 11, "TieredCompilationRundown/SettingsDCStart", &ntx_manifest_fields[724]}, /* TieredCompilationSettingsDCStart */
    {1, 0, 300, 3, 0, 11, "ExecutionCheckpointRundown/ExecutionCheckpointDCEnd", &ntx_manifest_fields[792]},
    {2, 0, 1, 1, 0, 132, "GC/Decision", &ntx_manifest_fields[820]}, /* GCDecision */
    {2, 1, 1, 2, 0, 132, "GC/Decision", &ntx_manifest_fields[821]}, /* GCDecision_V1 */
    {2, 0, 2, 3, 0, 14, "GC/Settings", &ntx_manifest_fields[823]}, /* GCSettings */
    {2, 1, 2, 4, 0, 14, "GC/Settings", &ntx_manifest_fields[826]}, /* GCSettings_V1 */
    {2, 0, 3, 3, 0, 16, "GC/Optimized", &ntx_manifest_fields[830]}, /* GCOptimized */
    {2, 1, 3, 4, 0, 16, "GC/Optimized", &ntx_manifest_fields[833]}, /* GCOptimized_V1 */
    {2, 1, 4, 1, 0, 17, "GC/PerHeapHistory", &ntx_manifest_fields[18]}, /* GCPerHeapHistory_V1 */
    {2, 2, 4, 0, 0, 17, "GC/PerHeapHistory", NULL}, /* GCPerHeapHistory */
    {2, 0, 5, 6, 0, 18, "GC/GlobalHeapHistory", &ntx_manifest_fields[837]}, /* GCGlobalHeapHistory */
    {2, 1, 5, 7, 0, 18, "GC/GlobalHeapHistory", &ntx_manifest_fields[843]}, /* GCGlobalHeapHistory_V1 */
    {2, 0, 6, 3, 0, 20, "GC/Join", &ntx_manifest_fields[850]}, /* GCJoin */
    {2, 1, 6, 4, 0, 20, "GC/Join", &ntx_manifest_fields[853]}, /* GCJoin_V1 */
    {2, 0, 7, 1, 0, 21, "GC/MarkStackRoots", &ntx_manifest_fields[857]}, /* PrvGCMarkStackRoots */
    {2, 1, 7, 2, 0, 21, "GC/MarkStackRoots", &ntx_manifest_fields[179]}, /* PrvGCMarkStackRoots_V1 */
    {2, 0, 8, 1, 0, 22, "GC/MarkFinalizeQueueRoots", &ntx_manifest_fields[857]}, /* PrvGCMarkFinalizeQueueRoots */
    {2, 1, 8, 2, 0, 22, "GC/MarkFinalizeQueueRoots", &ntx_manifest_fields[179]}, /* PrvGCMarkFinalizeQueueRoots_V1 */
    {2, 0, 9, 1, 0, 23, "GC/MarkHandles", &ntx_manifest_fields[857]}, /* PrvGCMarkHandles */
    {2, 1, 9, 2, 0, 23, "GC/MarkHandles", &ntx_manifest_fields[179]}, /* PrvGCMarkHandles_V1 */
    {2, 0, 10, 1, 0, 24, "GC/MarkCards", &ntx_manifest_fields[857]}, /* PrvGCMarkCards */
    {2, 1, 10, 2, 0, 24, "GC/MarkCards", &ntx_manifest_fields[179]}, /* PrvGCMarkCards_V1 */
    {2, 0, 11, 1, 0, 25, "GC/BGCStart", &ntx_manifest_fields[18]}, /* BGCBegin */
    {2, 0, 12, 1, 0, 26, "GC/BGC1stNonCondStop", &ntx_manifest_fields[18]}, /* BGC1stNonConEnd */
    {2, 0, 13, 1, 0, 27, "GC/BGC1stConStop", &ntx_manifest_fields[18]}, /* BGC1stConEnd */
    {2, 0, 14, 1, 0, 28, "GC/BGC2ndNonConStart", &ntx_manifest_fields[18]}, /* BGC2ndNonConBegin */
    {2, 0, 15, 1, 0, 29, "GC/BGC2ndNonConStop", &ntx_manifest_fields[18]}, /* BGC2ndNonConEnd */
    {2, 0, 16, 1, 0, 30, "GC/BGC2ndConStart", &ntx_manifest_fields[18]}, /* BGC2ndConBegin */
    {2, 0, 17, 1, 0, 31, "GC/BGC2ndConStop", &ntx_manifest_fields[18]}, /* BGC2ndConEnd */
    {2, 0, 18, 1, 0, 32, "GC/BGCPlanStop", &ntx_manifest_fields[18]}, /* BGCPlanEnd */
    {2, 0, 19, 1, 0, 33, "GC/BGCSweepStop", &ntx_manifest_fields[18]}, /* BGCSweepEnd */
    {2, 0, 20, 2, 0, 34, "GC/BGCDrainMark", &ntx_manifest_fields[858]}, /* BGCDrainMark */
    {2, 0, 21, 4, 0, 35, "GC/BGCRevisit", &ntx_manifest_fields[860]}, /* BGCRevisit */
    {2, 0, 22, 5, 0, 36, "GC/BGCOverflow", &ntx_manifest_fields[864]}, /* BGCOverflow */
    {2, 1, 22, 6, 0, 36, "GC/BGCOverflow", &ntx_manifest_fields[869]}, /* BGCOverflow_V1 */
    {2, 0, 23, 2, 0, 37, "GC/BGCAllocWaitStart", &ntx_manifest_fields[197]}, /* BGCAllocWaitBegin */
    {2, 0, 24, 2, 0, 38, "GC/BGCAllocWaitStop", &ntx_manifest_fields[197]}, /* BGCAllocWaitEnd */
    {2, 0, 25, 2, 0, 19, "GC/FullNotify", &ntx_manifest_fields[875]}, /* GCFullNotify */
    {2, 1, 25, 3, 0, 19, "GC/FullNotify", &ntx_manifest_fields[877]}, /* GCFullNotify_V1 */
    {2, 0, 26, 2, 0, 45, "", &ntx_manifest_fields[880]}, /* BGC1stSweepEnd */
    {2, 0, 80, 0, 0, 128, "Startup/EEStartupStart", NULL}, /* EEStartupStart */
    {2, 1, 80, 1, 0, 128, "Startup/EEStartupStart", &ntx_manifest_fields[18]}, /* EEStartupStart_V1 */
    {2, 0, 81, 0, 0, 129, "Startup/EEStartupStop", NULL}, /* EEStartupEnd */
    {2, 1, 81, 1, 0, 129, "Startup/EEStartupStop", &ntx_manifest_fields[18]}, /* EEStartupEnd_V1 */
    {2, 0, 82, 0, 0, 130, "Startup/EEConfigSetupStart", NULL}, /* EEConfigSetup */
    {2, 1, 82, 1, 0, 130, "Startup/EEConfigSetupStart", &ntx_manifest_fields[18]}, /* EEConfigSetup_V1 */
    {2, 0, 83, 0, 0, 131, "Startup/EEConfigSetupStop", NULL}, /* EEConfigSetupEnd */
    {2, 1, 83, 1, 0, 131, "Startup/EEConfigSetupStop", &ntx_manifest_fields[18]}, /* EEConfigSetupEnd_V1 */
    {2, 0, 84, 0, 0, 132, "Startup/LoadSystemBasesStart", NULL}, /* LdSysBases */
    {2, 1, 84, 1, 0, 132, "Startup/LoadSystemBasesStart", &ntx_manifest_fields[18]}, /* LdSysBases_V1 */
    {2, 0, 85, 0, 0, 133, "Startup/LoadSystemBasesStop", NULL}, /* LdSysBasesEnd */
    {2, 1, 85, 1, 0, 133, "Startup/LoadSystemBasesStop", &ntx_manifest_fields[18]}, /* LdSysBasesEnd_V1 */
    {2, 0, 86, 0, 0, 134, "Startup/ExecExeStart", NULL}, /* ExecExe */
    {2, 1, 86, 1, 0, 134, "Startup/ExecExeStart", &ntx_manifest_fields[18]}, /* ExecExe_V1 */
    {2, 0, 87, 0, 0, 135, "Startup/ExecExeStop", NULL}, /* ExecExeEnd */
    {2, 1, 87, 1, 0, 135, "Startup/ExecExeStop", &ntx_manifest_fields[18]}, /* ExecExeEnd_V1 */
    {2, 0, 88, 0, 0, 136, "Startup/MainStart", NULL}, /* Main */
    {2, 1, 88, 1, 0, 136, "Startup/MainStart", &ntx_manifest_fields[18]}, /* Main_V1 */
    {2, 0, 89, 0, 0, 137, "Startup/MainStop", NULL}, /* MainEnd */
    {2, 1, 89, 1, 0, 137, "Startup/MainStop", &ntx_manifest_fields[18]}, /* MainEnd_V1 */
    {2, 0, 90, 0, 0, 10, "Startup/ApplyPolicyStart", NULL}, /* ApplyPolicyStart */
    {2, 1, 90, 1, 0, 10, "Startup/ApplyPolicyStart", &ntx_manifest_fields[18]}, /* ApplyPolicyStart_V1 */
    {2, 0, 91, 0, 0, 11, "Startup/ApplyPolicyStop", NULL}, /* ApplyPolicyEnd */
    {2, 1, 91, 1, 0, 11, "Startup/ApplyPolicyStop", &ntx_manifest_fields[18]}, /* ApplyPolicyEnd_V1 */
    {2, 0, 92, 0, 0, 12, "Startup/LdLibShFolderStart", NULL}, /* LdLibShFolder */
    {2, 1, 92, 1, 0, 12, "Startup/LdLibShFolderStart", &ntx_manifest_fields[18]}, /* LdLibShFolder_V1 */
    {2, 0, 93, 0, 0, 13, "Startup/LdLibShFolderStop", NULL}, /* LdLibShFolderEnd */
    {2, 1, 93, 1, 0, 13, "Startup/LdLibShFolderStop", &ntx_manifest_fields[18]}, /* LdLibShFolderEnd_V1 */
    {2, 0, 94, 0, 0, 14, "Startup/PrestubWorkerStart", NULL}, /* PrestubWorker */
    {2, 1, 94, 1, 0, 14, "Startup/PrestubWorkerStart", &ntx_manifest_fields[18]}, /* PrestubWorker_V1 */
    {2, 0, 95, 0, 0, 15, "Startup/PrestubWorkerStop", NULL}, /* PrestubWorkerEnd */
    {2, 1, 95, 1, 0, 15, "Startup/PrestubWorkerStop", &ntx_manifest_fields[18]}, /* PrestubWorkerEnd_V1 */
    {2, 0, 96, 0, 0, 16, "Startup/GetInstallationStart", NULL}, /* GetInstallationStart */
    {2, 1, 96, 1, 0, 16, "Startup/GetInstallationStart", &ntx_manifest_fields[18]}, /* GetInstallationStart_V1 */
    {2, 0, 97, 0, 0, 17, "Startup/GetInstallationStop", NULL}, /* GetInstallationEnd */
    {2, 1, 97, 1, 0, 17, "Startup/GetInstallationStop", &ntx_manifest_fields[18]}, /* GetInstallationEnd_V1 */
    {2, 0, 98, 0, 0, 18, "Startup/OpenHModuleStart", NULL}, /* OpenHModule */
    {2, 1, 98, 1, 0, 18, "Startup/OpenHModuleStart", &ntx_manifest_fields[18]}, /* OpenHModule_V1 */
    {2, 0, 99, 0, 0, 19, "Startup/OpenHModuleStop", NULL}, /* OpenHModuleEnd */
    {2, 1, 99, 1, 0, 19, "Startup/OpenHModuleStop", &ntx_manifest_fields[18]}, /* OpenHModuleEnd_V1 */
    {2, 0, 100, 0, 0, 20, "Startup/ExplicitBindStart", NULL}, /* ExplicitBindStart */
    {2, 1, 100, 1, 0, 20, "Startup/ExplicitBindStart", &ntx_manifest_fields[18]}, /* ExplicitBindStart_V1 */
    {2, 0, 101, 0, 0, 21, "Startup/ExplicitBindStop", NULL}, /* ExplicitBindEnd */
    {2, 1, 101, 1, 0, 21, "Startup/ExplicitBindStop", &ntx_manifest_fields[18]}, /* ExplicitBindEnd_V1 */
    {2, 0, 102, 0, 0, 22, "Startup/ParseXmlStart", NULL}, /* ParseXml */
    {2, 1, 102, 1, 0, 22, "Startup/ParseXmlStart", &ntx_manifest_fields[18]}, /* ParseXml_V1 */
    {2, 0, 103, 0, 0, 23, "Startup/ParseXmlStop", NULL}, /* ParseXmlEnd */
    {2, 1, 103, 1, 0, 23, "Startup/ParseXmlStop", &ntx_manifest_fields[18]}, /* ParseXmlEnd_V1 */
    {2, 0, 104, 0, 0, 24, "Startup/InitDefaultDomainStart", NULL}, /* InitDefaultDomain */
    {2, 1, 104, 1, 0, 24, "Startup/InitDefaultDomainStart", &ntx_manifest_fields[18]}, /* InitDefaultDomain_V1 */
    {2, 0, 105, 0, 0, 25, "Startup/InitDefaultDomainStop", NULL}, /* InitDefaultDomainEnd */
    {2, 1, 105, 1, 0, 25, "Startup/InitDefaultDomainStop", &ntx_manifest_fields[18]}, /* InitDefaultDomainEnd_V1 */
    {2, 0, 106, 0, 0, 26, "Startup/InitSecurityStart", NULL}, /* InitSecurity */
    {2, 1, 106, 1, 0, 26, "Startup/InitSecurityStart", &ntx_manifest_fields[18]}, /* InitSecurity_V1 */
    {2, 0, 107, 0, 0, 27, "Startup/InitSecurityStop", NULL}, /* InitSecurityEnd */
    {2, 1, 107, 1, 0, 27, "Startup/InitSecurityStop", &ntx_manifest_fields[18]}, /* InitSecurityEnd_V1 */
    {2, 0, 108, 0, 0, 28, "Startup/AllowBindingRedirsStart", NULL}, /* AllowBindingRedirs */
    {2, 1, 108, 1, 0, 28, "Startup/AllowBindingRedirsStart", &ntx_manifest_fields[18]}, /* AllowBindingRedirs_V1 */
    {2, 0, 109, 0, 0, 29, "Startup/AllowBindingRedirsStop", NULL}, /* AllowBindingRedirsEnd */
    {2, 1, 109, 1, 0, 29, "Startup/AllowBindingRedirsStop", &ntx_manifest_fields[18]}, /* AllowBindingRedirsEnd_V1 */
    {2, 0, 110, 0, 0, 30, "Startup/EEConfigSyncStart", NULL}, /* EEConfigSync */
    {2, 1, 110, 1, 0, 30, "Startup/EEConfigSyncStart", &ntx_manifest_fields[18]}, /* EEConfigSync_V1 */
    {2, 0, 111, 0, 0, 31, "Startup/EEConfigSyncStop", NULL}, /* EEConfigSyncEnd */
    {2, 1, 111, 1, 0, 31, "Startup/EEConfigSyncStop", &ntx_manifest_fields[18]}, /* EEConfigSyncEnd_V1 */
    {2, 0, 112, 0, 0, 32, "Startup/BindingStart", NULL}, /* FusionBinding */
    {2, 1, 112, 1, 0, 32, "Startup/BindingStart", &ntx_manifest_fields[18]}, /* FusionBinding_V1 */
    {2, 0, 113, 0, 0, 33, "Startup/BindingStop", NULL}, /* FusionBindingEnd */
    {2, 1, 113, 1, 0, 33, "Startup/BindingStop", &ntx_manifest_fields[18]}, /* FusionBindingEnd_V1 */
    {2, 0, 114, 0, 0, 34, "Startup/LoaderCatchCallStart", NULL}, /* LoaderCatchCall */
    {2, 1, 114, 1, 0, 34, "Startup/LoaderCatchCallStart", &ntx_manifest_fields[18]}, /* LoaderCatchCall_V1 */
    {2, 0, 115, 0, 0, 35, "Startup/LoaderCatchCallStop", NULL}, /* LoaderCatchCallEnd */
    {2, 1, 115, 1, 0, 35, "Startup/LoaderCatchCallStop", &ntx_manifest_fields[18]}, /* LoaderCatchCallEnd_V1 */
    {2, 0, 116, 0, 0, 36, "Startup/FusionInitStart", NULL}, /* FusionInit */
    {2, 1, 116, 1, 0, 36, "Startup/FusionInitStart", &ntx_manifest_fields[18]}, /* FusionInit_V1 */
    {2, 0, 117, 0, 0, 37, "Startup/FusionInitStop", NULL}, /* FusionInitEnd */
    {2, 1, 117, 1, 0, 37, "Startup/FusionInitStop", &ntx_manifest_fields[18]}, /* FusionInitEnd_V1 */
    {2, 0, 118, 0, 0, 38, "Startup/FusionAppCtxStart", NULL}, /* FusionAppCtx */
    {2, 1, 118, 1, 0, 38, "Startup/FusionAppCtxStart", &ntx_manifest_fields[18]}, /* FusionAppCtx_V1 */
    {2, 0, 119, 0, 0, 39, "Startup/FusionAppCtxStop", NULL}, /* FusionAppCtxEnd */
    {2, 1, 119, 1, 0, 39, "Startup/FusionAppCtxStop", &ntx_manifest_fields[18]}, /* FusionAppCtxEnd_V1 */
    {2, 0, 120, 0, 0, 40, "Startup/Fusion2EEStart", NULL}, /* Fusion2EE */
    {2, 1, 120, 1, 0, 40, "Startup/Fusion2EEStart", &ntx_manifest_fields[18]}, /* Fusion2EE_V1 */
    {2, 0, 121, 0, 0, 41, "Startup/Fusion2EEStop", NULL}, /* Fusion2EEEnd */
    {2, 1, 121, 1, 0, 41, "Startup/Fusion2EEStop", &ntx_manifest_fields[18]}, /* Fusion2EEEnd_V1 */
    {2, 0, 122, 0, 0, 42, "Startup/SecurityCatchCallStart", NULL}, /* SecurityCatchCall */
    {2, 1, 122, 1, 0, 42, "Startup/SecurityCatchCallStart", &ntx_manifest_fields[18]}, /* SecurityCatchCall_V1 */
    {2, 0, 123, 0, 0, 43, "Startup/SecurityCatchCallStop", NULL}, /* SecurityCatchCallEnd */
    {2, 1, 123, 1, 0, 43, "Startup/SecurityCatchCallStop", &ntx_manifest_fields[18]}, /* SecurityCatchCallEnd_V1 */
    {2, 0, 151, 5, 0, 82, "ClrStack/Walk", &ntx_manifest_fields[310]}, /* CLRStackWalkPrivate */
    {2, 0, 158, 7, 0, 10, "ClrPerfTrack/ModuleRangeLoad", &ntx_manifest_fields[882]}, /* ModuleRangeLoadPrivate */
    {2, 0, 159, 7, 0, 51, "Binding/PolicyPhaseStart", &ntx_manifest_fields[889]}, /* BindingPolicyPhaseStart */
    {2, 0, 160, 7, 0, 52, "Binding/PolicyPhaseStop", &ntx_manifest_fields[889]}, /* BindingPolicyPhaseEnd */
    {2, 0, 161, 7, 0, 53, "Binding/NgenPhaseStart", &ntx_manifest_fields[889]}, /* BindingNgenPhaseStart */
    {2, 0, 162, 7, 0, 54, "Binding/NgenPhaseStop", &ntx_manifest_fields[889]}, /* BindingNgenPhaseEnd */
    {2, 0, 163, 7, 0, 55, "Binding/LoopupAndProbingPhaseStart", &ntx_manifest_fields[889]}, /* BindingLookupAndProbingPhaseStart */
    {2, 0, 164, 7, 0, 56, "Binding/LookupAndProbingPhaseStop", &ntx_manifest_fields[889]}, /* BindingLookupAndProbingPhaseEnd */
    {2, 0, 165, 7, 0, 57, "Binding/LoaderPhaseStart", &ntx_manifest_fields[889]}, /* LoaderPhaseStart */
    {2, 0, 166, 7, 0, 58, "Binding/LoaderPhaseStop", &ntx_manifest_fields[889]}, /* LoaderPhaseEnd */
    {2, 0, 167, 7, 0, 59, "Binding/PhaseStart", &ntx_manifest_fields[889]}, /* BindingPhaseStart */
    {2, 0, 168, 7, 0, 60, "Binding/PhaseStop", &ntx_manifest_fields[889]}, /* BindingPhaseEnd */
    {2, 0, 169, 7, 0, 61, "Binding/DownloadPhaseStart", &ntx_manifest_fields[889]}, /* BindingDownloadPhaseStart */
    {2, 0, 170, 7, 0, 62, "Binding/DownloadPhaseStop", &ntx_manifest_fields[889]}, /* BindingDownloadPhaseEnd */
    {2, 0, 171, 7, 0, 63, "Binding/LoaderAssemblyInitPhaseStart", &ntx_manifest_fields[889]}, /* LoaderAssemblyInitPhaseStart */
    {2, 0, 172, 7, 0, 64, "Binding/LoaderAssemblyInitPhaseStop", &ntx_manifest_fields[889]}, /* LoaderAssemblyInitPhaseEnd */
    {2, 0, 173, 7, 0, 65, "Binding/LoaderMappingPhaseStart", &ntx_manifest_fields[889]}, /* LoaderMappingPhaseStart */
    {2, 0, 174, 7, 0, 66, "Binding/LoaderMappingPhaseStop", &ntx_manifest_fields[889]}, /* LoaderMappingPhaseEnd */
    {2, 0, 175, 7, 0, 67, "Binding/LoaderDeliverEventPhaseStart", &ntx_manifest_fields[889]}, /* LoaderDeliverEventsPhaseStart */
    {2, 0, 176, 7, 0, 68, "Binding/LoaderDeliverEventsPhaseStop", &ntx_manifest_fields[889]}, /* LoaderDeliverEventsPhaseEnd */
    {2, 0, 177, 4, 0, 10, "EvidenceGeneration/EvidenceGenerated", &ntx_manifest_fields[896]}, /* EvidenceGenerated */
    {2, 0, 178, 3, 0, 83, "Transparency/ModuleTransparencyComputationStart", &ntx_manifest_fields[900]}, /* ModuleTransparencyComputationStart */
    {2, 0, 179, 8, 0, 84, "Transparency/ModuleTransparencyComputationStop", &ntx_manifest_fields[903]}, /* ModuleTransparencyComputationEnd */
    {2, 0, 180, 4, 0, 85, "Transparency/TypeTransparencyComputationStart", &ntx_manifest_fields[911]}, /* TypeTransparencyComputationStart */
    {2, 0, 181, 8, 0, 86, "Transparency/TypeTransparencyComputationStop", &ntx_manifest_fields[915]}, /* TypeTransparencyComputationEnd */
    {2, 0, 182, 4, 0, 87, "Transparency/MethodTransparencyComputationStart", &ntx_manifest_fields[923]}, /* MethodTransparencyComputationStart */
    {2, 0, 183, 6, 0, 88, "Transparency/MethodTransparencyComputationStop", &ntx_manifest_fields[927]}, /* MethodTransparencyComputationEnd */
    {2, 0, 184, 4, 0, 89, "Transparency/FieldTransparencyComputationStart", &ntx_manifest_fields[933]}, /* FieldTransparencyComputationStart */
    {2, 0, 185, 6, 0, 90, "Transparency/FieldTransparencyComputationStop", &ntx_manifest_fields[937]}, /* FieldTransparencyComputationEnd */
    {2, 0, 186, 4, 0, 91, "Transparency/TokenTransparencyComputationStart", &ntx_manifest_fields[943]}, /* TokenTransparencyComputationStart */
    {2, 0, 187, 6, 0, 92, "Transparency/TokenTransparencyComputationStop", &ntx_manifest_fields[947]}, /* TokenTransparencyComputationEnd */
    {2, 0, 188, 4, 0, 69, "NgenBinder/NgenBind", &ntx_manifest_fields[953]}, /* NgenBindEvent */
    {2, 0, 191, 5, 0, 52, "FailFast", &ntx_manifest_fields[957]}, /* FailFast */
    {2, 0, 192, 4, 0, 39, "GC/FinalizeObject", &ntx_manifest_fields[962]}, /* PrvFinalizeObject */
    {2, 0, 193, 9, 0, 40, "GC/CCWRefCountChangeAnsi", &ntx_manifest_fields[966]}, /* CCWRefCountChangeAnsi */
    {2, 0, 194, 6, 0, 42, "GC/SetGCHandle", &ntx_manifest_fields[184]}, /* PrvSetGCHandle */
    {2, 0, 195, 2, 0, 43, "GC/DestroyGCHandle", &ntx_manifest_fields[190]}, /* PrvDestroyGCHandle */
    {2, 0, 196, 3, 0, 70, "Binding/FusionMessage", &ntx_manifest_fields[975]}, /* FusionMessageEvent */
    {2, 0, 197, 3, 0, 71, "", &ntx_manifest_fields[978]}, /* FusionErrorCodeEvent */
    {2, 0, 198, 0, 1, 44, "GC/PinObjectAtGCTime", NULL},
    {2, 0, 199, 4, 0, 45, "GC/PinPlugAtGCTime", &ntx_manifest_fields[981]}, /* PinPlugAtGCTime */
    {2, 0, 200, 9, 0, 40, "GC/CCWRefCountChange", &ntx_manifest_fields[985]}, /* CCWRefCountChange */
    {2, 0, 201, 6, 0, 10, "ClrMulticoreJit/Common", &ntx_manifest_fields[994]}, /* MulticoreJit */
    {2, 0, 202, 3, 0, 11, "ClrMulticoreJit/MethodCodeReturned", &ntx_manifest_fields[1000]}, /* MulticoreJitMethodCodeReturned */
    {2, 0, 300, 0, 1, 1, "ThreadPoolWorkingThreadCount/Start", NULL},
    {2, 0, 301, 0, 1, 11, "ThreadPool/Enqueue", NULL},
    {2, 0, 302, 0, 1, 12, "ThreadPool/Dequeue", NULL},
    {2, 0, 303, 0, 1, 13, "ThreadPool/IOEnqueue", NULL},
    {2, 0, 304, 0, 1, 14, "ThreadPool/IODequeue", NULL},
    {2, 0, 305, 0, 1, 15, "ThreadPool/IOPack", NULL},
    {2, 0, 310, 6, 0, 97, "LoaderHeap/AllocRequest", &ntx_manifest_fields[1003]}, /* AllocRequest */
    {2, 0, 400, 2, 0, 11, "ClrDynamicTypeUsage/IInspectableRuntimeClassName", &ntx_manifest_fields[1009]}, /* IInspectableRuntimeClassName */
    {2, 0, 401, 3, 0, 12, "ClrDynamicTypeUsage/WinRTUnbox", &ntx_manifest_fields[1011]}, /* WinRTUnbox */
    {2, 0, 402, 2, 0, 13, "ClrDynamicTypeUsage/CreateRCW", &ntx_manifest_fields[1009]}, /* CreateRCW */
    {2, 0, 403, 4, 0, 14, "ClrDynamicTypeUsage/RCWVariance", &ntx_manifest_fields[1014]}, /* RCWVariance */
    {2, 0, 404, 3, 0, 15, "ClrDynamicTypeUsage/RCWIEnumerableCasting", &ntx_manifest_fields[1011]}, /* RCWIEnumerableCasting */
    {2, 0, 405, 2, 0, 16, "ClrDynamicTypeUsage/CreateCCW", &ntx_manifest_fields[1009]}, /* CreateCCW */
    {2, 0, 406, 4, 0, 17, "ClrDynamicTypeUsage/CCWVariance", &ntx_manifest_fields[1014]}, /* CCWVariance */
    {2, 0, 407, 3, 0, 18, "ClrDynamicTypeUsage/ObjectVariantMarshallingToNative", &ntx_manifest_fields[1018]}, /* ObjectVariantMarshallingToNative */
    {2, 0, 408, 3, 0, 19, "ClrDynamicTypeUsage/GetTypeFromGUID", &ntx_manifest_fields[1011]}, /* GetTypeFromGUID */
    {2, 0, 409, 3, 0, 20, "ClrDynamicTypeUsage/GetTypeFromProgID", &ntx_manifest_fields[1011]}, /* GetTypeFromProgID */
    {2, 0, 410, 3, 0, 21, "ClrDynamicTypeUsage/ConvertToCallbackEtw", &ntx_manifest_fields[1011]}, /* ConvertToCallbackEtw */
    {2, 0, 411, 1, 0, 22, "ClrDynamicTypeUsage/BeginCreateManagedReference", &ntx_manifest_fields[18]}, /* BeginCreateManagedReference */
    {2, 0, 412, 1, 0, 23, "ClrDynamicTypeUsage/EndCreateManagedReference", &ntx_manifest_fields[18]}, /* EndCreateManagedReference */
    {2, 0, 413, 3, 0, 24, "ClrDynamicTypeUsage/ObjectVariantMarshallingToManaged", &ntx_manifest_fields[1018]}, /* ObjectVariantMarshallingToManaged */
    {3, 0, 0, 3, 0, 1, "StressLog/Start", &ntx_manifest_fields[1021]}, /* StressLogEvent */
    {3, 1, 0, 4, 0, 1, "StressLog/Start", &ntx_manifest_fields[1024]}, /* StressLogEvent_V1 */
    {3, 0, 1, 5, 0, 82, "ClrStack/Walk", &ntx_manifest_fields[310]}, /* CLRStackWalkStress */
    {4, 0, 0, 1, 0, 1, "Thread/Sample", &ntx_manifest_fields[1028]},
    {4, 0, 1, 0, 1, 2, "Thread/StackWalk", NULL},
    {5, 0, 0, 3, 0, 0, "ExistingProcess", &ntx_manifest_fields[1031]},
    {5, 0, 1, 3, 0, 0, "ProcessCreate", &ntx_manifest_fields[1031]},
    {5, 0, 2, 0, 0, 0, "ProcessExit", NULL},
    {5, 0, 3, 6, 0, 0, "ProcessMapping", &ntx_manifest_fields[1035]},
    {5, 0, 4, 5, 0, 0, "ProcessSymbol", &ntx_manifest_fields[1041]},
    {5, 0, 5, 3, 0, 0, "ProcessMappingMetadata", &ntx_manifest_fields[1048]},
};
const size_t ntx_manifest_event_count = 462;

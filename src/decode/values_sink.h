/*
 * What the payload decoder (values.c) and its two sinks share: which sink a
 * decode writes to, and how a field's bytes are read (an op). The decoder
 * walks a payload by its layout, checks every byte and says what is wrong;
 * a sink only receives values: the value tree of the public API
 * (values_tree.h, ntidx_values) or the JSON and text formatter
 * (fields_format.h). The decoder calls a sink per value through a switch
 * on the sink's kind, which its hot loops (a plan's fields) resolve when
 * they are compiled, one copy per sink.
 */
#ifndef NTX_DECODE_VALUES_SINK_H
#define NTX_DECODE_VALUES_SINK_H

#include <stdint.h>

enum { NTX_SINK_TREE, NTX_SINK_FORMAT };

/* How a field is read: a fixed-size scalar by its kind of load (the ops before NTX_OP_STRING), a UTF-16
   string, an object or array a plan reads itself, or anything else (the decoder's interpreter). */
enum {
    NTX_OP_U8, NTX_OP_S8, NTX_OP_B8, NTX_OP_U16, NTX_OP_S16, NTX_OP_U32, NTX_OP_S32, NTX_OP_B32, NTX_OP_U64,
    NTX_OP_S64, NTX_OP_F32, NTX_OP_F64,
    NTX_OP_BYTES16,    /* GUID, DECIMAL (the value's kind tells): the bytes */
    NTX_OP_FILETIME,   /* DATETIME before V6 */
    NTX_OP_SYSTEMTIME, /* DATETIME in V6 */
    NTX_OP_STRING,     /* UTF-16, NUL-terminated */
    NTX_OP_OBJECT,     /* a plan's object of `count` scalars or strings: their ops from ops[rest] */
    NTX_OP_ARRAY,      /* a plan's uint16-counted array of a fixed-size scalar other than bytes: its op at ops[rest] */
    NTX_OP_OTHER       /* the interpreter */
};

/* A field's op: for a scalar, what a sink needs to show it (kind, type code, size) besides its bytes. */
typedef struct ntx_op {
    uint8_t kind;   /* NTIDX_VALUE_* of a scalar or a string, */
    uint8_t type;   /* the field's type code: in ntidx_value's order (kind, type_code), stored as one */
    uint8_t op;     /* NTX_OP_* */
    uint8_t size;   /* bytes of a fixed-size scalar */
    uint8_t omit;   /* a plan's manifest string, absent when exactly `rest` bytes are left (ntx_string_omitted()) */
    uint16_t count; /* NTX_OP_OBJECT: its fields */
    uint32_t rest;  /* NTX_OP_STRING: see omit; NTX_OP_OBJECT, NTX_OP_ARRAY: where their fields' or element's ops are */
} ntx_op;

#endif

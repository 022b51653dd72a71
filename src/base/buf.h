/* Appending to an ntidx_buf (the formatters' output). */
#ifndef NTIDX_BUF_H
#define NTIDX_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "ntidx/ntidx.h"

/* 0 or -1 when out of memory (the buffer then stays as it was). */
int ntx_buf_reserve(ntidx_buf *b, size_t extra);
int ntx_buf_put(ntidx_buf *b, const void *p, size_t n);
int ntx_buf_puts(ntidx_buf *b, const char *s);
int ntx_buf_printf(ntidx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* JSON string literal with quotes; invalid UTF-8 bytes become U+FFFD. */
int ntx_buf_json_str(ntidx_buf *b, const char *s, size_t n);

#endif

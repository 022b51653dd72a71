/*
 * A double as the analyses' outputs write it: the shortest of printf's
 * "%.15g", "%.16g" and "%.17g" that reads back as the same double (exact,
 * and 20.036 rather than 20.036000000000001). The commands' jsonl, csv and
 * json and the report's JSON write millions of them (two per activity), and
 * trying each precision with snprintf() and reading it back with strtod()
 * was most of their time; this makes the same bytes without printf. The
 * text tables' fixed decimals ("%.3f") likewise.
 */
#ifndef NTIDX_TOOLS_DOUBLE_TEXT_H
#define NTIDX_TOOLS_DOUBLE_TEXT_H

#include <stddef.h>

/* Room for any double's text, NUL included. */
#define DOUBLE_TEXT_MAX 32

/* v's text as above into buf (DOUBLE_TEXT_MAX bytes); returns its length. NaN and infinities as printf
   writes them ("nan", "-inf"). */
size_t double_text(char *buf, double v);

/* v with `decimals` digits after the point (0 to 9), the same bytes as snprintf(buf, n, "%.*f", decimals, v)
   (the text tables' numbers), without printf where it can; returns what snprintf() returns. */
int fixed_text(char *buf, size_t n, double v, int decimals);

#endif

/*
 * Names compared as EventPipe compares providers: without regard to ASCII
 * case, whatever the locale (strcasecmp() follows it: Turkish folds I to a
 * dotless i), and how far apart two names are, for "did you mean" lists.
 */
#ifndef NTX_BASE_TEXT_H
#define NTX_BASE_TEXT_H

#include <stddef.h>

/* ASCII A-Z as a-z; every other byte as it is. */
static inline unsigned char ntx_ascii_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }

/* Equal without regard to ASCII case. */
int ntx_ascii_ieq(const char *a, const char *b);

/* Where `needle` first occurs in `hay` without regard to ASCII case, or NULL ("" occurs at the start). */
const char *ntx_ascii_istr(const char *hay, const char *needle);

/*
 * The edit distance of a and b without regard to ASCII case: the fewest
 * insertions, deletions, substitutions and swaps of neighbouring bytes
 * that turn one into the other (optimal string alignment). Above `cap` the
 * answer is cap + 1 (the work stops early); strings longer than 255 bytes
 * count as that far from anything they differ from.
 */
size_t ntx_edit_distance(const char *a, const char *b, size_t cap);

#endif

#include "text.h"

#include <string.h>

int ntx_ascii_ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        if (ntx_ascii_lower((unsigned char)*a) != ntx_ascii_lower((unsigned char)*b))
            return 0;
        if (!*a)
            return 1;
    }
}

const char *ntx_ascii_istr(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; ; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && ntx_ascii_lower((unsigned char)hay[i]) == ntx_ascii_lower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return hay;
        if (!*hay)
            return NULL;
    }
}

size_t ntx_edit_distance(const char *a, const char *b, size_t cap)
{
    enum { MAX = 255 };
    size_t n = strlen(a), m = strlen(b);
    if (n > MAX || m > MAX)
        return ntx_ascii_ieq(a, b) ? 0 : cap + 1;
    if ((n > m ? n - m : m - n) > cap)
        return cap + 1; /* the lengths alone are that far apart */
    /* three rows of the table: two back for a swap, the one before, this one */
    size_t rows[3][MAX + 1];
    size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        size_t best = cur[0];
        unsigned char ai = ntx_ascii_lower((unsigned char)a[i - 1]);
        for (size_t j = 1; j <= m; j++) {
            unsigned char bj = ntx_ascii_lower((unsigned char)b[j - 1]);
            size_t d = prev[j - 1] + (ai != bj);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ai == ntx_ascii_lower((unsigned char)b[j - 2]) &&
                ntx_ascii_lower((unsigned char)a[i - 2]) == bj && pp[j - 2] + 1 < d)
                d = pp[j - 2] + 1;
            cur[j] = d;
            if (d < best)
                best = d;
        }
        if (best > cap)
            return cap + 1; /* every later row is at least this far */
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[m] > cap ? cap + 1 : prev[m];
}

/*
 * The page of `ntidx report`: report.html with report.css and report.js
 * inlined at build time (embed.py), cut in two where the data goes. The
 * command writes the head, the data (JSON, report_json.h), then the tail.
 */
#ifndef NTIDX_TOOLS_REPORT_PAGE_H
#define NTIDX_TOOLS_REPORT_PAGE_H

#include <stddef.h>

extern const unsigned char report_page_head[], report_page_tail[];
extern const size_t report_page_head_size, report_page_tail_size;

#endif

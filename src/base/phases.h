/*
 * The parallel part of a run, measured for the benchmarks (issue 29: how much
 * of a command stays serial, and so what more cores can give it).
 *
 * With NTIDX_PHASES set in the environment, each parallel section (from the
 * start of its workers to their join: the part that more threads divide)
 * adds its wall seconds to a sum for the process, written to stderr at exit
 * as "ntidx phases: parallel SECONDS s in N sections" (the analysis commands
 * write a line of their own for their output, formatted on threads: the
 * benchmark adds them up). A benchmark runs a
 * command on one thread and takes the rest of its wall time for the serial
 * part: starting, planning, the scan before the workers start, merging,
 * writing. Without the variable, nothing is measured or written.
 */
#ifndef NTIDX_PHASES_H
#define NTIDX_PHASES_H

/* The start of a parallel section: a time, or 0 when nothing is measured. */
double ntx_phase_begin(void);
/* Its end, `began` being what ntx_phase_begin() returned. */
void ntx_phase_end(double began);
/* Seconds since `began` (0 when nothing is measured). */
double ntx_phase_since(double began);
/* Serial work done inside a parallel section (one thread at a time, under a lock: a merge the workers take
   turns at), taken out of the parallel sum: more threads do not divide it. */
void ntx_phase_serial(double secs);

#endif

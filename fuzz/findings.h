/* findings.h — what an engine process does with an escape, the same for every fuzz target
 * (fuzz_gate.c, fuzz_source.c).
 *
 * Owns: the signatures the process treats as found (the campaign's --skip-known files, and
 * those it saved itself), and the saved input of --escapes=record.  A campaign's jobs run
 * with both: a known signature is neither a finding nor a corpus entry, and a new one is
 * saved as -artifact_prefix's crash-HASH (what libFuzzer names a crash input, so the
 * campaign's scan finds it) while the job goes on, where a crash would end the job and its
 * next one pay a process's start-up. */
#ifndef GATECRASH_FINDINGS_H
#define GATECRASH_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

/* Each non-empty line of path is a known signature (an unreadable file: none). */
void gc_findings_load(const char *path);
int gc_findings_known(const char *signature);
void gc_findings_add(const char *signature);

/* The input saved as PREFIXcrash-HASH (HASH: 64-bit FNV-1a of the bytes; temp file and
 * rename); 0, or -1 with a line printed. */
int gc_findings_save(const char *prefix, const uint8_t *data, size_t size);

#endif

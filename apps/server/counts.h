/* counts.h: counts per client address (connections, tables), for the
 * limits. A small hash table; an address whose count falls to zero is
 * forgotten. */
#ifndef CARC_SERVER_COUNTS_H
#define CARC_SERVER_COUNTS_H

enum { COUNTS_BUCKETS = 1 << 12 };

typedef struct addr_count {
    char addr[48];
    int count;
    struct addr_count *next;
} addr_count;

typedef struct addr_counts {
    addr_count *buckets[COUNTS_BUCKETS];
} addr_counts;

/* The count of `addr` (0 when unknown). */
int counts_get(addr_counts *m, const char *addr);
/* Adds `delta` to the count of `addr`; returns the new count, or -1 when
 * out of memory. */
int counts_add(addr_counts *m, const char *addr, int delta);
/* Forgets every address. */
void counts_clear(addr_counts *m);

#endif

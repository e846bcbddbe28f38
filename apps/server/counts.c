/* counts.c: counts per client address. */
#include "counts.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static addr_count **slot_of(addr_counts *m, const char *addr)
{
    uint32_t h = 2166136261u;
    for (const char *p = addr; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    addr_count **slot = &m->buckets[h & (COUNTS_BUCKETS - 1)];
    while (*slot && strcmp((*slot)->addr, addr) != 0)
        slot = &(*slot)->next;
    return slot;
}

int counts_get(addr_counts *m, const char *addr)
{
    addr_count **slot = slot_of(m, addr);
    return *slot ? (*slot)->count : 0;
}

int counts_add(addr_counts *m, const char *addr, int delta)
{
    addr_count **slot = slot_of(m, addr);
    if (!*slot) {
        if (delta <= 0)
            return 0;
        *slot = calloc(1, sizeof **slot);
        if (!*slot)
            return -1;
        snprintf((*slot)->addr, sizeof(*slot)->addr, "%s", addr);
    }
    int count = (*slot)->count += delta;
    if (count <= 0) {
        addr_count *gone = *slot;
        *slot = gone->next;
        free(gone);
        return 0;
    }
    return count;
}

void counts_clear(addr_counts *m)
{
    for (int i = 0; i < COUNTS_BUCKETS; i++)
        while (m->buckets[i]) {
            addr_count *next = m->buckets[i]->next;
            free(m->buckets[i]);
            m->buckets[i] = next;
        }
}

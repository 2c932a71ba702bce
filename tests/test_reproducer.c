/* test_reproducer.c — the runner's tables (_tables.py, as gatecrash writes it) are the
 * effect oracle's: every event of oracle.c's table is in the table of its capability (write
 * events with the indices of their path arguments; the events the harness refuses in
 * HARNESS_EVENTS; oracle_table.c's modules, in its order, in HARNESS_MODULES), and the tables
 * hold nothing else.  No interpreter: the tables are only written.  (tests/escapes_pytest.sh
 * checks that the escapes/_tables.py in the repository is what gatecrash writes.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reproducer.h"

/* The text of the script's "NAME = {...}" table, or "" when it has none. */
static const char *table(const char *script, const char *name, char *buf, size_t len)
{
    char head[64];
    snprintf(head, sizeof head, "\n%s = {", name);
    const char *s = strstr(script, head);
    const char *e = s ? strchr(s, '}') : NULL;
    snprintf(buf, len, "%.*s", s && e ? (int)(e - s - strlen(head)) : 0, s && e ? s + strlen(head) : "");
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

int main(void)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_reproducer_tables(&sb);

    static const struct {
        const char *name;
        gc_cap cap;
    } tables[] = {{"SPAWN_EVENTS", GC_CAP_SPAWN}, {"NET_EVENTS", GC_CAP_NETWORK}, {"WRITE_EVENTS", GC_CAP_WRITE},
                  {"HARNESS_EVENTS", GC_CAP_HARNESS}};
    char buf[8192], item[256];
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
        table(sb.data, tables[k].name, buf, sizeof buf);
        int n = 0;
        const char *ev;
        gc_cap cap;
        int p[2];
        for (size_t i = 0; gc_oracle_event(i, &ev, &cap, p) == 0; i++) {
            if (cap != tables[k].cap)
                continue;
            n++;
            if (cap != GC_CAP_WRITE)
                snprintf(item, sizeof item, "'%s'", ev);
            else if (p[1] < 0)
                snprintf(item, sizeof item, "'%s': (%d,)", ev, p[0]);
            else
                snprintf(item, sizeof item, "'%s': (%d, %d)", ev, p[0], p[1]);
            CHECK(strstr(buf, item) != NULL, "%s of the reproducer lacks %s (oracle.c has it)", tables[k].name, item);
        }
        int items = count(buf, "'") / 2;
        CHECK(items == n, "%s of the reproducer has %d events, oracle.c %d", tables[k].name, items, n);
    }
    /* HARNESS_MODULES: every module of oracle_table.c once, the harness's import order kept */
    const char *m = strstr(sb.data, "\nHARNESS_MODULES = (");
    const char *me = m ? strchr(m, ')') : NULL;
    snprintf(buf, sizeof buf, "%.*s", m && me ? (int)(me - m) : 0, m ? m : "");
    int distinct = 0;
    const char *last = buf;
    for (size_t i = 0; i < gc_prim_table_len; i++) {
        size_t j = 0;
        while (j < i && strcmp(gc_prim_table[j].module, gc_prim_table[i].module) != 0)
            j++;
        if (j < i)
            continue;
        distinct++;
        snprintf(item, sizeof item, "'%s'", gc_prim_table[i].module);
        const char *at = strstr(buf, item);
        CHECK(at != NULL, "HARNESS_MODULES lacks %s (oracle_table.c imports it)", item);
        CHECK(!at || at > last, "HARNESS_MODULES has %s out of oracle_table.c's order", item);
        last = at ? at : last;
    }
    CHECK(count(buf, "'") / 2 == distinct, "HARNESS_MODULES has %d modules, oracle_table.c %d", count(buf, "'") / 2,
          distinct);
    gc_sb_free(&sb);
    return check_summary();
}

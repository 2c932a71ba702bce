/* test_facility.c — the facility table (harness/runtime/facility_table.c) names every
 * primitive oracle_table.c gives to source mode as a facility (GC_PRIM_FACILITY), by the
 * name the docs use ("signal.alarm": a "_signal" row is the C function under signal's
 * wrapper), and each row that checks something can put it back. */
#include <string.h>

#include "check.h"
#include "facility.h"
#include "oracle.h"

static int named(const char *module, const char *attr)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", module[0] == '_' ? module + 1 : module, attr);
    size_t n = strlen(name);
    for (size_t i = 0; i < gc_facility_table_len; i++)
        for (const char *g = gc_facility_table[i].given; (g = strstr(g, name)); g += n)
            if (!((g[n] >= 'a' && g[n] <= 'z') || g[n] == '_' || (g[n] >= '0' && g[n] <= '9')))
                return 1;
    return 0;
}

int main(void)
{
    int facilities = 0;
    for (size_t i = 0; i < gc_prim_table_len; i++) {
        const gc_prim_spec *s = &gc_prim_table[i];
        if (!(s->flags & GC_PRIM_FACILITY))
            continue;
        facilities++;
        CHECK(s->cap == GC_CAP_HARNESS, "%s.%s: a facility is a harness row (refused in chains)", s->module, s->attr);
        CHECK(named(s->module, s->attr), "%s.%s is given as a facility but no row of facility_table.c names it",
              s->module, s->attr);
    }
    CHECK(facilities > 0, "oracle_table.c has facility rows");
    for (size_t i = 0; i < gc_facility_table_len; i++) {
        const gc_facility *f = &gc_facility_table[i];
        CHECK(f->name && f->given && f->put_back, "row %zu: named, what gives it, how it is put back", i);
        CHECK(!f->changed == !f->repair, "%s: a check has a repair", f->name);
    }
    return check_summary();
}

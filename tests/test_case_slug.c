/* test_case_slug.c — a case's file name made from a signature (triage.c, gc_case_slug): a
 * signature is target data (a source target's primitive and bridge names come from its own
 * modules), so its name keeps letters, digits and . _ - + only, never starts a hidden file or
 * an option, and a long one is cut to GC_SLUG_MAX bytes ending in the signature's hash, so
 * that two long signatures that share their first 200 bytes stay two files.  Before,
 * a 400-byte signature made a 294-byte stem, and "<stem>.repro.py" was past NAME_MAX (255). */
#include <string.h>

#include "check.h"
#include "triage.h"

#ifndef GC_SLUG_MAX /* (the build before the bound) */
#define GC_SLUG_MAX 200
#endif

static int safe(const char *s)
{
    if (!s[0] || s[0] == '.' || s[0] == '-')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr("._-+", *s)))
            return 0;
    return 1;
}

int main(void)
{
    char a[300], b[300], sig[1000];
    gc_case_slug("reach:spawn:os.system:modattr", a, sizeof a);
    CHECK(strcmp(a, "reach-spawn-os.system-via-modattr") == 0, "plain signature: %s", a);
    gc_case_slug("reach:write:../../etc/passwd:a/b\n\x1b", a, sizeof a);
    CHECK(safe(a) && !strstr(a, "/"), "a signature with / and control bytes: %s", a);
    gc_case_slug("../x:y:z:w", a, sizeof a);
    CHECK(safe(a), "a signature starting with '.': %s", a);
    memset(sig, 'p', sizeof sig - 1);
    sig[sizeof sig - 1] = '\0';
    memcpy(sig, "reach:spawn:", 12);
    gc_case_slug(sig, a, sizeof a);
    sig[sizeof sig - 2] = 'q';
    gc_case_slug(sig, b, sizeof b);
    CHECK(strlen(a) <= GC_SLUG_MAX && strlen(b) <= GC_SLUG_MAX, "long stems cut: %zu, %zu", strlen(a), strlen(b));
    CHECK(strlen(a) + strlen(".repro.py") + 30 < 255, "a long stem leaves room for the suffixes and temp names");
    CHECK(strcmp(a, b) != 0, "two long signatures, one stem: %s", a);
    CHECK(safe(a) && safe(b), "long stems safe");
    return check_summary();
}

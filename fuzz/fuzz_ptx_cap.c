/* Fuzz target: the register cap written into PTX (clscan__ptx_with_cap, src/core/ptx.c), which reads
 * whatever binary a driver hands back. The first input byte picks the cap (0 asks for none), the rest
 * is the binary. An answer must be the input with `.maxnreg N` put before the body of each entry the
 * text holds (up to its first NUL, which a driver's PTX ends with) and nothing else changed; the input
 * is only read, and a read past its end is ASan's to catch (the copy is exactly its size). */
#include "prims/prims.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ".entry " in the text before its first NUL (what the cap may rewrite). */
static size_t entries(const uint8_t *p, size_t size)
{
    const uint8_t *nul = memchr(p, '\0', size);
    const size_t text = nul ? (size_t)(nul - p) : size;
    size_t n = 0;
    for (size_t i = 0; i + 7 <= text; i++)
        n += memcmp(p + i, ".entry ", 7) == 0;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned regs = data[0];
    const size_t len = size - 1;
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return 0;
    memcpy(copy, data + 1, len);
    size_t out_size = 0;
    uint8_t *out = clscan__ptx_with_cap(copy, len, regs, &out_size);
    if (out) {
        char directive[32];
        const size_t dlen = (size_t)snprintf(directive, sizeof directive, ".maxnreg %u\n", regs);
        const size_t want = entries(copy, len);
        if (regs == 0 || want == 0 || out_size != len + want * dlen)
            abort();
        /* The input back from the answer: every difference is a whole directive before a '{'. */
        size_t i = 0, o = 0, inserted = 0;
        while (o < out_size) {
            if (i < len && out[o] == copy[i]) {
                i++, o++;
                continue;
            }
            if (i >= len || copy[i] != '{' || out_size - o < dlen || memcmp(out + o, directive, dlen) != 0)
                abort();
            o += dlen, inserted++;
        }
        if (i != len || inserted != want)
            abort();
        free(out);
    }
    if (memcmp(copy, data + 1, len) != 0)   /* the bytes are only read */
        abort();
    free(copy);
    return 0;
}

/* The one-sweep LSD radix sort (Adinets and Merrill, "Onesweep", 2022), after prims/sort.cl: one launch
 * counts the digits of every pass (clscan_sort_digits), then one launch a pass (clscan_sort_onesweep)
 * ranks each tile, publishes its digit counts, and finds where its keys of each digit go by looking
 * back over the tiles before it, with no histogram or scan launches between passes.
 *
 * The look-back's status is one 32-bit word a (tile, digit): the flag in the top two bits (0 nothing
 * yet, A the tile's count, P the count of every key of that digit up to and including the tile, plus
 * the keys of smaller digits in the whole pass), the count in the other 30 (the host takes this path
 * for n < 2^30 only). One word needs no ordering between words and no tags: the words (and the ticket
 * before them) are zero when a pass starts, the first pass's zeroed by the host and each later pass's,
 * in a second array, by the pass before it, each tile its own (the host's fill of 64 MiB a pass at
 * 2^28 took 44 us on the H200). The engine's tagged pieces (engine/lookback.clh) would take 16 bytes a
 * (tile, digit) where 4 do. The protocol is the engine's decoupled look-back: a tile
 * that waits too long on a predecessor counts that tile's digit from the pass's source itself, which
 * is never written during the pass, so a count recomputed is the count published. */
#define CLSCAN_SWEEP_A 0x40000000u
#define CLSCAN_SWEEP_P 0x80000000u
#define CLSCAN_SWEEP_COUNT 0x3fffffffu
#if defined(CLSCAN_SP_FORCE_FALLBACK)
#define CLSCAN_SWEEP_SPIN_LIMIT 0
#else
#define CLSCAN_SWEEP_SPIN_LIMIT 4096   /* rounds on an unpublished word before counting its tile */
#endif
/* Loads as in the engine: volatile where they go to L2 (NVIDIA), else atomics that change nothing. */
#if defined(CLSCAN_SP_VOLATILE_READS)
#define CLSCAN_SWEEP_LOAD(p) (*(volatile __global uint *)(p))
#else
#define CLSCAN_SWEEP_LOAD(p) atomic_add((volatile __global uint *)(p), 0u)
#endif
/* Digits of every pass the keys may take over [begin, end): the most a key type has. */
#define CLSCAN_SWEEP_DIGITS ((CLSCAN_KEY_BITS + CLSCAN_RADIX_BITS - 1) / CLSCAN_RADIX_BITS)

/* Where the digit i of [begin, end) starts: up from begin, the last one ending at end (as the host's
 * passes, src/prims/sort.c). */
uint clscan_sweep_shift(uint i, uint begin, uint end)
{
    const uint at = begin + i * CLSCAN_RADIX_BITS;
    return at + CLSCAN_RADIX_BITS > end ? end - CLSCAN_RADIX_BITS : at;
}

/* Counts key k's digits of [begin, end) in local_counts (a row of CLSCAN_RADIX a digit); returns the
 * bits in which it differs from first. */
clscan_key_t clscan_sweep_count_key(__local uint *local_counts, clscan_key_t k, clscan_key_t first, uint digits,
                                    uint begin, uint end)
{
    for (uint p = 0; p < digits; p++)
        atomic_inc(&local_counts[p * CLSCAN_RADIX + clscan_digit_of(k, clscan_sweep_shift(p, begin, end))]);
    return k ^ first;
}

/* counts[i * CLSCAN_RADIX + d] += the keys whose digit i is d, for every digit of [begin, end), and
 * counts[CLSCAN_SWEEP_DIGITS * CLSCAN_RADIX + 0, 1] |= the bits in which some key differs from key 0
 * (all zero before the launch; the host reads the bits back, as after clscan_sort_hist). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sort_digits(__global const clscan_key_t *keys, __global uint *counts, ulong n, uint begin, uint end,
                        uint flags)
{
    __local uint clscan_local[CLSCAN_SWEEP_DIGITS * CLSCAN_RADIX];
    __local uint clscan_differ[2];
    const uint lid = get_local_id(0), digits = (end - begin + CLSCAN_RADIX_BITS - 1) / CLSCAN_RADIX_BITS;
    for (uint c = lid; c < CLSCAN_SWEEP_DIGITS * CLSCAN_RADIX; c += CLSCAN_WG_SIZE)
        clscan_local[c] = 0;
    if (lid == 0)
        clscan_differ[0] = clscan_differ[1] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const clscan_key_t first = clscan_load_key(keys, 0, flags);
    clscan_key_t diff = 0;
    /* Eight keys a round are loaded before any is counted, so that their loads overlap: the loop of
     * one key a round took 619 us at 2^28 uint32 keys on the H200, this one 521 (bench/notebook.md,
     * 2026-11-29, twentieth session). */
    const ulong stride = get_global_size(0);
    ulong i = get_global_id(0);
    for (; i + 7 * stride < n; i += 8 * stride) {
        clscan_key_t k[8];
        for (uint q = 0; q < 8; q++)
            k[q] = clscan_load_key(keys, i + q * stride, flags);
        for (uint q = 0; q < 8; q++)
            diff |= clscan_sweep_count_key(clscan_local, k[q], first, digits, begin, end);
    }
    for (; i < n; i += stride)
        diff |= clscan_sweep_count_key(clscan_local, clscan_load_key(keys, i, flags), first, digits, begin, end);
    /* The varying bits as clscan_sort_hist ORs them, written out in the kernel: through a function
     * taking the local words, PoCL's build of clscan_sort_hist in groups of 256 crashed. */
    if ((uint)diff)
        atomic_or(&clscan_differ[0], (uint)diff);
#if CLSCAN_KEY_BITS == 64
    if ((uint)(diff >> 32))
        atomic_or(&clscan_differ[1], (uint)(diff >> 32));
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < digits * CLSCAN_RADIX; c += CLSCAN_WG_SIZE)
        if (clscan_local[c] != 0)
            atomic_add(&counts[c], clscan_local[c]);
    __global uint *varying = counts + CLSCAN_SWEEP_DIGITS * CLSCAN_RADIX;
    if (lid == 0 && clscan_differ[0] != 0)
        atomic_or(&varying[0], clscan_differ[0]);
    if (lid == 0 && clscan_differ[1] != 0)
        atomic_or(&varying[1], clscan_differ[1]);
}

/* The keys of digit d in tile j of the pass's source: the fallback's count. */
uint clscan_sweep_recount(__global const clscan_key_t *keys, ulong n, ulong j, uint d, uint shift, uint flags)
{
    const ulong base = j * CLSCAN_TILE;
    const uint len = n - base < CLSCAN_TILE ? (uint)(n - base) : CLSCAN_TILE;
    uint count = 0;
    for (uint i = 0; i < len; i++)
        count += clscan_digit_of(clscan_load_key(keys, base + i, flags), shift) == d;
    return count;
}

/* The keys of digits below d in the whole pass (its counts from clscan_sort_digits). */
uint clscan_sweep_below(__global const uint *pass_counts, uint d)
{
    uint sum = 0;
    for (uint e = 0; e < d; e++)
        sum += pass_counts[e];
    return sum;
}

/* Predecessors whose words a look-back round reads at once (one round trip for up to that many tiles).
 * On the H200 (2^28 uint32 keys) one a round took the sort 11.30 ms, 4 9.83, 8 9.64, 16 9.85
 * (bench/notebook.md, 2026-11-29): walks are long, since groups start in waves. */
#define CLSCAN_SWEEP_WINDOW 8

/* Where tile t's first key of digit d goes: the keys of smaller digits, and of digit d in tiles 0 .. t-1.
 * A round reads the words of the window of tiles below j at once (never below tile 0) and folds them
 * nearest first, through the first P or up to the first empty word; where the nearest is empty, that
 * word is read once more, and after CLSCAN_SWEEP_SPIN_LIMIT rounds without it the tile's digit is
 * counted from the source instead (a P published meanwhile taken instead). Forced, no round is read:
 * every tile is counted until a P of a tile other than the nearest, so the tests check the count. Each
 * work-item walks its own digit; nothing here waits on the rest of the group.
 * The shape is the one measured fastest on the H200 (2^28 uint32, against three launches a pass in the
 * same call): pairs 0.95 of their time, keys 1.02. The same reads written as one loop without the
 * second read took 0.98 and 1.02, and with the round in a function returning through pointers (8 bytes
 * of stack) 1.00 and 1.12 (bench/notebook.md, 2026-11-29, nineteenth session). */
uint clscan_sweep_look_back(__global const uint *status, __global const clscan_key_t *keys, ulong n, ulong t, uint d,
                            uint shift, uint flags, __global const uint *pass_counts)
{
    uint acc = 0, spins = 0;
    for (long j = (long)t - 1; j >= 0;) {
#if !defined(CLSCAN_SP_FORCE_FALLBACK)
        uint w[CLSCAN_SWEEP_WINDOW], used = 0;
        for (uint q = 0; q < CLSCAN_SWEEP_WINDOW; q++)
            w[q] = j - (long)q >= 0 ? CLSCAN_SWEEP_LOAD(&status[(ulong)(j - q) * CLSCAN_RADIX + d]) : 0u;
        for (; used < CLSCAN_SWEEP_WINDOW && j - (long)used >= 0; used++) {
            if (w[used] & CLSCAN_SWEEP_P)
                return acc + (w[used] & CLSCAN_SWEEP_COUNT);
            if (!(w[used] & CLSCAN_SWEEP_A))
                break;
            acc += w[used] & CLSCAN_SWEEP_COUNT;
        }
        if (used) {
            j -= used, spins = 0;
            continue;
        }
#endif
        const uint nearest = CLSCAN_SWEEP_LOAD(&status[(ulong)j * CLSCAN_RADIX + d]);
#if defined(CLSCAN_SP_FORCE_FALLBACK)
        if ((nearest & CLSCAN_SWEEP_P) && j + 1 != (long)t)
            return acc + (nearest & CLSCAN_SWEEP_COUNT);
#else
        if (nearest & CLSCAN_SWEEP_P)
            return acc + (nearest & CLSCAN_SWEEP_COUNT);
        if (nearest & CLSCAN_SWEEP_A) {
            acc += nearest & CLSCAN_SWEEP_COUNT, j--, spins = 0;
            continue;
        }
#endif
        if (++spins <= CLSCAN_SWEEP_SPIN_LIMIT)
            continue;
        const uint count = clscan_sweep_recount(keys, n, (ulong)j, d, shift, flags);
#if !defined(CLSCAN_SP_FORCE_FALLBACK)
        const uint late = CLSCAN_SWEEP_LOAD(&status[(ulong)j * CLSCAN_RADIX + d]);
        if (late & CLSCAN_SWEEP_P)
            return acc + (late & CLSCAN_SWEEP_COUNT);
#endif
        acc += count, j--, spins = 0;
    }
    return acc + clscan_sweep_below(pass_counts, d);
}

/* Tile t's words of the next pass (and, tile 0, its ticket) zeroed: no tile of this pass reads them, and
 * the next pass starts after this one ends. */
void clscan_sweep_clear(__global uint *next_status, ulong t)
{
    const uint lid = get_local_id(0);
    for (uint d = lid; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE)
        next_status[1 + t * CLSCAN_RADIX + d] = 0u;
    if (t == 0 && lid == 0)
        next_status[0] = 0u;
}

/* One LSD pass: tiles by ticket (status[0], zero at the start), tile t's words at status[1 + t * RADIX].
 * counts + digit * CLSCAN_RADIX: the pass's digit counts over the whole input (clscan_sort_digits). The
 * tile's counts are published as soon as the ranking has them; the look-back runs once the keys are in
 * digit order in local memory, which gives the tiles before that time to publish. Where the host
 * launched a group a tile, a group takes one and stops (no second ticket to find none left). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sort_onesweep(__global const clscan_key_t *keys, __global clscan_key_t *keys_out,
#if defined(CLSCAN_SORT_VALUES)
                          __global const clscan_value_t *values, __global clscan_value_t *values_out,
#endif
                          __global uint *status, __global uint *next_status, __global const uint *counts, uint digit,
                          ulong n, ulong num_tiles, uint shift, uint flags)
{
#if CLSCAN_WG_SIZE == 1
    /* Never launched so (the host takes one sweep in groups only); not compiling the ranking for a
     * group of one spares CPU builds its 8192-key private arrays. */
    (void)keys, (void)keys_out, (void)status, (void)next_status, (void)counts, (void)digit, (void)n, (void)num_tiles;
    (void)shift;
    (void)flags;
#if defined(CLSCAN_SORT_VALUES)
    (void)values, (void)values_out;
#endif
#else
    CLSCAN_SORT_TILE_STATE
    __local uint clscan_ticket;
    const uint lid = get_local_id(0);
    const int one_each = get_num_groups(0) >= num_tiles;
    __global uint *words = status + 1;
    __global const uint *pass_counts = counts + digit * CLSCAN_RADIX;
    for (;;) {
        if (lid == 0)
            clscan_ticket = atomic_inc(&status[0]);
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong t = clscan_ticket;   /* read by all before the ranking's first barrier */
        if (t >= num_tiles)
            break;
        const ulong base = t * CLSCAN_TILE;
        const uint len = n - base < CLSCAN_TILE ? (uint)(n - base) : CLSCAN_TILE;
        if (!(flags & CLSCAN_SORT_TRANSFORM_OUT))   /* a pass follows: its words, zeroed for it */
            clscan_sweep_clear(next_status, t);
        clscan_ranked r;
        clscan_rank_count(keys, base, len, shift, flags, clscan_tile, clscan_order, clscan_start, clscan_scratch,
                          clscan_counts, &r);
        uint total[(CLSCAN_RADIX + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE];
        for (uint d = lid, i = 0; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE, i++) {
            total[i] = clscan_rank_total(clscan_counts, clscan_start, d, len);
            atomic_xchg(&words[t * CLSCAN_RADIX + d], CLSCAN_SWEEP_A | total[i]);
        }
        clscan_rank_place(&r, ranked_values, base, len, clscan_tile, clscan_order, clscan_start, clscan_scratch,
                          clscan_counts);
        for (uint d = lid, i = 0; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE, i++) {
            const uint before = clscan_sweep_look_back(words, keys, n, t, d, shift, flags, pass_counts);
            atomic_xchg(&words[t * CLSCAN_RADIX + d], CLSCAN_SWEEP_P | (before + total[i]));
            clscan_base_of[d] = before - clscan_start[d];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        clscan_sort_write_tile(clscan_tile, clscan_order, clscan_digit_at, &r, clscan_base_of, keys_out,
#if defined(CLSCAN_SORT_VALUES)
                               values, values_out,
#endif
                               base, len, shift, flags);
        if (one_each)
            break;
        barrier(CLK_LOCAL_MEM_FENCE);   /* the tile and its tables are read before the next tile's */
    }
#endif
}

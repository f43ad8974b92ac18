/* Runs of equal consecutive keys (clscan_reduce_by_key, and clscan_run_length_encode on CPUs and from
 * 2^32 - 1 elements; clscan_unique, and run-length encoding on GPUs below that, are compactions,
 * compact.cl): a
 * program of their own over the segmented scans' keys and pairs (segmented.clh, segkeys.clh), built with
 * CLSCAN_SP_RUNS, so that the look-back carries clscan_run_carry, the value together with how many runs
 * start before. One launch, a single pass that reads the keys and values once: run r's key goes to
 * keys_out[r] from its head, and its reduction to out[r] from the head of run r + 1, where the running
 * value is run r whole (the last run's from element n - 1). Every tile but the first looks back: unlike
 * the segmented scan's, its prefix needs the run count of every tile before, so no tile publishes it
 * before its own look-back. Values in == NULL count ones (run lengths). GPUs gather a tile's outputs in
 * the values' stage by run and write them as a group, in order (where they fit); CPUs record each
 * work-item's heads as they first read its run (where they fit) and write each from the work-item that
 * found it. The GPU code and the kernel still test out against NULL, which it no longer is (unique was
 * keys alone here): without those tests NVIDIA's compiler gave the kernel 105-109 registers instead of
 * 80, and reduce by key took 1.58 ms instead of 1.42 (H100, 2^28). */

/* What out holds: the values' type; run lengths counted in uint (below 2^32 elements, the host's
 * CLSCAN_RUNS_LENGTHS32) widened to the caller's ulong as they are written. Counted in ulong, with the
 * pair scan and the tile of 8-byte values, they took 1.91 ms where they now take 1.29 (H100, 2^28). */
#if defined(CLSCAN_RUNS_LENGTHS32)
typedef ulong clscan_runs_out;
#else
typedef CLSCAN_T clscan_runs_out;
#endif

/* The look-back's fallback (lookback.clh): tile j's carry from the values (src; NULL: ones) and keys
 * (aux). Streams every run from global memory, whatever the device. */
clscan_run_carry clscan_sp_tile_aggregate(__global const void *src, __global const void *aux, ulong j, ulong2 sizes,
                                          __local void *scratch)
{
    const ulong first = j * CLSCAN_TILE + (ulong)get_local_id(0) * CLSCAN_ITEMS;
    clscan_seg_pair total;
    clscan_seg_wg_scan(clscan_seg_run_fold((__global const CLSCAN_T *)src, (__global const clscan_seg_mark *)aux, first,
                                           sizes.s0, 0),
                       (__local clscan_seg_scratch *)scratch, &total);
    return clscan_run_of(total);
}

#if defined(CLSCAN_ITEMS_STREAM)
/* CPUs: the work-item's run read from global memory; each head writes its key and the run before it its
 * value (running: the carry before the run's first element); element n - 1 the last run's value. */
void clscan_runs_write_read(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                            __global clscan_seg_mark *keys_out, __global clscan_runs_out *out, ulong first, ulong n,
                            clscan_run_carry running)
{
    const uint len = clscan_len_below(first, n, CLSCAN_ITEMS);
    ulong runs = clscan_run_count(running);
    CLSCAN_T value = clscan_run_value(running);
    for (uint i = 0; i < len; i++) {
        const ulong g = first + i;
        const uint head = clscan_seg_head_at(marks, g, 0);
        const CLSCAN_T x = CLSCAN_SELECT(in, in[g], CLSCAN_SEG_ONE);
        if (head) {
            if (runs > 0)
                out[runs - 1] = value;
            keys_out[runs++] = marks[g];
        }
        value = clscan_seg_step(value, x, head);
        if (g + 1 == n)
            out[runs - 1] = value;
    }
}

#if defined(CLSCAN_RUNS_RECORDS)
/* CPUs with CLSCAN_RUNS_RECORDS (the host's, from a quarter of the local memory): the first pass over
 * the work-item's run records each head's place in the run and the value of the run before it (from
 * the run's start for the first head) in the work-item's share of local memory, so that after the
 * look-back only the heads are visited, not the run again; where a run holds more heads than that
 * (many short runs), it is read again (clscan_runs_write_read). A work-item's share holds
 * CLSCAN_RUNS_RECORDS heads and a slot that every element writes, which only a head then claims: no
 * branch on whether an element is a head, which a CPU mispredicts. */
#define CLSCAN_RUNS_SHARE (CLSCAN_RUNS_RECORDS + 1)
typedef struct clscan_runs_record {
    uint place[CLSCAN_WG_SIZE * CLSCAN_RUNS_SHARE];
    CLSCAN_T value[CLSCAN_WG_SIZE * CLSCAN_RUNS_SHARE];
} clscan_runs_record;

/* The work-item's run from first as one pair (as clscan_seg_run_fold), recording its heads in rec;
 * the key before each element carried rather than read again. */
clscan_seg_pair clscan_runs_fold(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks, ulong first,
                                 ulong n, __local clscan_runs_record *rec)
{
    __local uint *places = rec->place + get_local_id(0) * CLSCAN_RUNS_SHARE;
    __local CLSCAN_T *values = rec->value + get_local_id(0) * CLSCAN_RUNS_SHARE;
    clscan_seg_pair acc = clscan_seg_none();
    const uint len = clscan_len_below(first, n, CLSCAN_ITEMS);
    clscan_seg_mark key = clscan_seg_key_before(marks, first, len);
    for (uint i = 0; i < len; i++) {
        const uint head = clscan_seg_head_carried(marks, first + i, &key);
        const uint slot = min(acc.head, (uint)CLSCAN_RUNS_RECORDS);
        const CLSCAN_T x = CLSCAN_SELECT(in, in[first + i], CLSCAN_SEG_ONE);
        places[slot] = i;
        values[slot] = acc.value;
        acc.head += head;
        acc.value = clscan_seg_step(acc.value, x, head);
    }
    return acc;
}

/* After the look-back: the recorded heads' keys and the values of the runs before them (the first
 * completed with running's, the carry before the run), and where the run holds element n - 1 the last
 * run's value; own is the run's pair. */
void clscan_runs_write(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                       __global clscan_seg_mark *keys_out, __global clscan_runs_out *out, ulong first, ulong n,
                       clscan_run_carry running, clscan_seg_pair own, __local const clscan_runs_record *rec)
{
    if (own.head > CLSCAN_RUNS_RECORDS) {
        clscan_runs_write_read(in, marks, keys_out, out, first, n, running);
    } else {
        __local const uint *places = rec->place + get_local_id(0) * CLSCAN_RUNS_SHARE;
        __local const CLSCAN_T *values = rec->value + get_local_id(0) * CLSCAN_RUNS_SHARE;
        const ulong r = clscan_run_count(running);
        const CLSCAN_T before = clscan_run_value(running);
        for (uint j = 0; j < own.head; j++) {
            keys_out[r + j] = marks[first + places[j]];
            if (r + j > 0)
                out[r + j - 1] = j ? values[j] : CLSCAN_OP(before, values[0]);
        }
        if (first < n && n - first <= CLSCAN_ITEMS)
            out[r + own.head - 1] = own.head ? own.value : CLSCAN_OP(before, own.value);
    }
}
#else
#define clscan_runs_write clscan_runs_write_read
#endif
#else
#if CLSCAN_TILE <= 65536
typedef ushort clscan_runs_place;   /* a head's place in its tile */
#else
typedef uint clscan_runs_place;
#endif
/* Where the values' stage (free once the tile is loaded) holds a tile's heads: the value of the run
 * before each (`heads` of them) and then each one's place, on a 4-byte boundary; 0 when they do not fit
 * (many short runs: more than about two thirds of the tile's elements heads at 4-byte values). */
uint clscan_runs_gathered(uint heads, int values)
{
    const ulong bytes = (ulong)heads * (values ? sizeof(CLSCAN_T) : 0), at = (bytes + 3) / 4 * 4;
    return at + (ulong)heads * sizeof(clscan_runs_place) <= CLSCAN_SEG_STAGE_BYTES;
}

/* GPUs: the work-item's held run (values v, head bits hm) from running, the carry before it. Each
 * head leaves the value of the run before it and its place in the tile in stage, by its index among
 * the tile's heads (tile_runs: the runs before the tile), and the group then writes the tile's keys
 * (read again at their places) and values in order, so that a warp's stores land together; where they
 * do not fit in stage (clscan_runs_gathered), each work-item writes its own. Element n - 1 writes the
 * last run's value itself. Ends past a barrier (stage is free again after the next tile's first
 * barrier). */
void clscan_runs_write(__global const clscan_seg_mark *marks, __global clscan_seg_mark *keys_out,
                       __global clscan_runs_out *out, ulong base, ulong n, const clscan_wg_held v[CLSCAN_WG_HELD],
                       const uint hm[CLSCAN_SEG_WORDS], clscan_run_carry running, ulong tile_runs, uint heads,
                       __local uchar *stage)
{
    const uint lid = get_local_id(0), first = lid * CLSCAN_ITEMS;
    const uint gather = clscan_runs_gathered(heads, out != 0);
    __local CLSCAN_T *values = (__local CLSCAN_T *)stage;
    __local clscan_runs_place *places =
        (__local clscan_runs_place *)(stage + (out ? ((ulong)heads * sizeof(CLSCAN_T) + 3) / 4 * 4 : 0));
    ulong r = clscan_run_count(running);
    CLSCAN_T value = clscan_run_value(running);
    /* A constant bound, so the loop unrolls and v and hm stay in registers (with a bound of the run's
     * length below n they went to memory: reduce by key 1.79 ms at 2^28 on the H100, 1.42 ms now).
     * Past n the head bits are 0 and v holds the identity: nothing changes. */
    for (uint i = 0; i < CLSCAN_ITEMS_HELD; i++) {
        if (CLSCAN_SEG_BIT(hm, i)) {
            if (gather) {
                places[r - tile_runs] = (clscan_runs_place)(first + i);
                if (out)
                    values[r - tile_runs] = value;
            } else {
                keys_out[r] = marks[base + first + i];
                if (out && r > 0)
                    out[r - 1] = value;
            }
            r++;
            value = CLSCAN_OP(CLSCAN_IDENTITY, v[i]);
        } else {
            value = CLSCAN_OP(value, v[i]);
        }
        if (out && base + first + i + 1 == n)
            out[r - 1] = value;
    }
    /* Every work-item passes the barrier, gathering or not: PoCL 3.1 ran the loop below with other
     * work-items' bounds when the function returned before it (gather is the same for the group). */
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = lid; gather && s < heads; s += CLSCAN_WG_SIZE) {
        keys_out[tile_runs + s] = marks[base + places[s]];
        if (out && tile_runs + s > 0)
            out[tile_runs + s - 1] = values[s];
    }
}
#endif

/* Over tiles taken from the launch's counter (lookback.clh): each publishes its carry, looks back for
 * the carry of the tiles before it (the first has none), publishes the sum, then writes its runs' keys
 * and values. The last tile leaves the number of runs in runs_out (the caller's buffer in the _async
 * forms, else the host reads it back). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_runs_single_pass(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                             __global clscan_seg_mark *keys_out, __global clscan_runs_out *out,
                             __global clscan_sp_word *status, __global uint *counters, ulong n, ulong num_tiles,
                             uint epoch, __global ulong *runs_out)
{
    __local uchar clscan_stage[CLSCAN_SEG_STAGE_BYTES] __attribute__((aligned(16)));
    __local clscan_seg_scratch clscan_scratch;
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next, clscan_first_head;
#if defined(CLSCAN_ITEMS_STREAM) && defined(CLSCAN_RUNS_RECORDS)
    __local clscan_runs_record clscan_rec;
#endif
    const uint lid = get_local_id(0);
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (t >= num_tiles)
            break;
        const ulong base = t * CLSCAN_TILE;
#if defined(CLSCAN_ITEMS_STREAM) && defined(CLSCAN_RUNS_RECORDS)
        const clscan_seg_pair own =
            clscan_runs_fold(out ? in : NULL, marks, base + (ulong)lid * CLSCAN_ITEMS, n, &clscan_rec);
        clscan_seg_pair total, excl = clscan_seg_wg_scan(own, &clscan_scratch, &total);
        (void)clscan_stage, (void)clscan_first_head;
#else
        clscan_wg_held v[CLSCAN_WG_HELD];
        uint hm[CLSCAN_SEG_WORDS];
        clscan_seg_pair total, excl = clscan_seg_tile_up(out ? in : NULL, marks, base, n, v, hm, clscan_stage,
                                                         &clscan_scratch, &clscan_first_head, &total, 0);
#endif
        clscan_run_carry prefix = clscan_run_none();
        if (t > 0) {
            if (lid == 0)
                clscan_sp_publish(status, t, CLSCAN_SP_FLAG_A, epoch, clscan_run_of(total));
            prefix = clscan_sp_look_back(in, marks, (ulong2)(n, 0), status, t, epoch, 0, &counters[2], &clscan_sh,
                                         &clscan_scratch);
        }
        const clscan_run_carry through = clscan_run_combine(prefix, clscan_run_of(total));
        if (lid == 0 && t + 1 < num_tiles)
            clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, through);
        if (lid == 0 && t + 1 == num_tiles)
            runs_out[0] = clscan_run_count(through);
        const clscan_run_carry running = clscan_run_combine(prefix, clscan_run_of(excl));
#if defined(CLSCAN_ITEMS_STREAM) && defined(CLSCAN_RUNS_RECORDS)
        clscan_runs_write(in, marks, keys_out, out, base + (ulong)lid * CLSCAN_ITEMS, n, running, own, &clscan_rec);
#elif defined(CLSCAN_ITEMS_STREAM)
        clscan_runs_write(in, marks, keys_out, out, base + (ulong)lid * CLSCAN_ITEMS, n, running);
#else
        clscan_runs_write(marks, keys_out, out, base, n, v, hm, running, clscan_run_count(prefix), total.head,
                          clscan_stage);
#endif
    }
}

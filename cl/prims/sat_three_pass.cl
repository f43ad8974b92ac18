/* Summed-area tables on GPUs by reduce-then-scan over tiles (three or four launches): every tile's
 * table seeded from above and from the left by sums made beforehand, a group walking a segment of
 * bands down a chunk; no group waits on another (its table pass may take each band in tiles of fewer
 * rows: CLSCAN_SAT_CARRY_ROWS). The image is read twice. */
/* ---- GPUs: reduce-then-scan, three or four launches ---------------------------------------------- */
/* The image in tiles of CLSCAN_SAT_ROWS x CLSCAN_WG_SIZE, tile t = b * chunks + c the chunk c of band b. The
 * launches before the last (clscan_sat_band_sums, then clscan_sat_middle, or clscan_sat_scan_sums and
 * clscan_sat_band_carries) leave it each tile's seeds: its columns' sums over the segments of bands above
 * (sums, a row a segment, scanned down the columns) and its rows' sums left of the tile from the top of the image
 * (edge(t, r): carries, CLSCAN_SAT_ROWS a tile). The passes over the image walk a
 * segment's tiles down a chunk, each group on its own: none waits on another.
 * sums has width + chunks columns and a row for every band but the last: in the first width columns
 * the segments' column sums (a row a segment), then the bands' chunk totals (a row a band). */

/* Column x of chunk c of band b (identity past the image's edge and past the last band). */
void clscan_sat_tile_column(__global const CLSCAN_T *in, uint b, uint c, ulong width, ulong height, uint num_bands,
                            CLSCAN_T col[CLSCAN_SAT_ROWS])
{
    clscan_sat_load_column(in, col, (ulong)b * CLSCAN_SAT_ROWS, b < num_bands ? clscan_sat_band_rows(b, height) : 0,
                           (ulong)c * CLSCAN_WG_SIZE + get_local_id(0), width);
}

/* Both passes over the image take tasks: task k is a segment of `seg` bands (segment k / chunks) down
 * chunk k % chunks, its tiles top to bottom in the table pass, bottom to top in the sums pass
 * (clscan_sat_sums_start). Group g takes the g-th task of its pass's order first, then the one each ticket
 * of the launch's counter gives it (clscan_sat_take_task), so that groups that find memory faster take more
 * and all end together. A column's sum over the segment so far stays in a register, so that only a
 * row of sums a segment, not a band, goes through memory and through clscan_sat_scan_sums. The host keeps
 * the tiles under 2^32: task, band and tile numbers are uint, whose divisions cost a fraction of
 * 64-bit ones. */

/* The first band and the chunk of task k (past the last task: a band past the last one). */
void clscan_sat_task_start(uint k, uint seg, uint chunks, uint *b, uint *c)
{
    const uint s = k / chunks;   /* no `%` beside the `/`: LLVM pairs them with a `freeze`, which Oclgrind cannot run */
    *b = s * seg, *c = k - s * chunks;
}

/* How many tasks there are: segments of seg bands, each down every chunk. */
uint clscan_sat_tasks(uint num_bands, uint seg, uint chunks)
{
    return (num_bands + seg - 1) / seg * chunks;
}

/* The tile a group takes after band b of its task (chunk c, bands up to b1): the next band down, else
 * the first tile of task kn, the group's next. Returns whether it starts a task. */
int clscan_sat_next_tile(uint kn, uint b, uint b1, uint c, uint seg, uint chunks, uint *nb, uint *nc)
{
    if (b + 1 < b1) {
        *nb = b + 1, *nc = c;
        return 0;
    }
    clscan_sat_task_start(kn, seg, chunks, nb, nc);
    return 1;
}

/* The number, in its pass's order, of the group's next task: groups + a ticket from the launch's
 * counter (every work-item gets it; a barrier of its own, since a task of one tile reads it before
 * any other). Group g starts with number g, without a ticket. clscan_sp_take_tile without its second
 * barrier: the task's tiles' barriers come between this read and the next write. */
uint clscan_sat_take_task(__global uint *counters, uint epoch, __local uint *next)
{
    if (get_local_id(0) == 0)
        *next = atomic_inc(&counters[epoch & 1]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return get_num_groups(0) + *next;   /* read before the task's tiles' barriers: rewritten after them */
}

/* The task of number j in the sums pass's order: the last task first (the table pass takes them
 * first to last), so that what the sums pass read last is what the table pass reads first; past the
 * last task, a number past it. */
#define CLSCAN_SAT_SUMS_TASK(j, tasks) ((j) < (tasks) ? (tasks) - 1 - (j) : (tasks))

/* The tile the sums pass starts task k with: its bottom band, past the last band when there is no
 * task k. The sums pass walks each segment up, so that what it read last, still in L2 when the table
 * pass starts, is the top of every segment, where the table pass starts: float 8192 x 8192 on the
 * H100 took 316-318 us against 319-322 walking down (bench/notebook.md). */
void clscan_sat_sums_start(uint k, uint tasks, uint seg, uint chunks, uint num_bands, uint *b, uint *c)
{
    clscan_sat_task_start(k, seg, chunks, b, c);
    if (k < tasks)
        *b = min(*b + seg, num_bands) - 1;
}

/* A tile's sums (a task's tiles in turn): sums[s][x] = column x summed over segment s's bands (every
 * segment but the last), sums[b][width + c] = band b's total over chunk c (every band but the last),
 * and carries[t * CLSCAN_SAT_ROWS + r] = the sum of rows 0 .. r of the band over the chunk (every band). The
 * band's CLSCAN_SAT_ROWS loads go out at once (clscan_sat_load_column, unrolled), where the fallback's
 * clscan_sat_band_column walks a runtime number of rows. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_band_sums(__global const CLSCAN_T *in, __global CLSCAN_T *sums, __global CLSCAN_T *carries,
                          ulong width, ulong height, uint num_bands, uint seg, __global uint *counters, uint epoch)
{
    __local CLSCAN_T clscan_tile[CLSCAN_LOCAL_SAT_TILE(CLSCAN_SAT_ROWS, CLSCAN_WG_SIZE)];
    __local CLSCAN_T clscan_runs[CLSCAN_WG_SIZE];
    __local uint clscan_next;
    const uint lid = get_local_id(0), chunks = (uint)((width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE);
    const uint tasks = clscan_sat_tasks(num_bands, seg, chunks);
    const ulong stride = width + chunks;
    CLSCAN_T col[CLSCAN_SAT_ROWS];
    uint j = get_group_id(0), nb, nc;
    clscan_sp_launch_start(counters, epoch);
    clscan_sat_sums_start(CLSCAN_SAT_SUMS_TASK(j, tasks), tasks, seg, chunks, num_bands, &nb, &nc);
    clscan_sat_tile_column(in, nb, nc, width, height, num_bands, col);
    while (j < tasks) {
        const uint k = CLSCAN_SAT_SUMS_TASK(j, tasks), jn = clscan_sat_take_task(counters, epoch, &clscan_next);
        const uint s = k / chunks, c = k - s * chunks, b0 = s * seg, b1 = min(b0 + seg, num_bands);
        const ulong x = (ulong)c * CLSCAN_WG_SIZE + lid;
        CLSCAN_T down = CLSCAN_IDENTITY;   /* column x over the segment's bands so far */
        for (uint i = b1 - b0; i-- > 0;) {
            const uint b = b0 + i;
            const ulong t = (ulong)b * chunks + c;
            down = CLSCAN_OP(down, clscan_sat_column_prefix(col));
            /* The tile goes to local memory (read there after the barrier, rewritten only after
             * the next tile's barriers), then the next tile's loads go into the same registers
             * and land while this one's rows are added up: no second set of registers for them. */
            for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
                clscan_tile[CLSCAN_PAD(r * CLSCAN_WG_SIZE + lid)] = col[r];
            if (b > b0)
                nb = b - 1, nc = c;
            else
                clscan_sat_sums_start(CLSCAN_SAT_SUMS_TASK(jn, tasks), tasks, seg, chunks, num_bands, &nb, &nc);
            clscan_sat_tile_column(in, nb, nc, width, height, num_bands, col);
            barrier(CLK_LOCAL_MEM_FENCE);   /* the tile in local memory */
            /* Row r's prefix summed along the chunk: each run's total, then the runs of a row. */
            clscan_runs[lid] = clscan_sat_run_total(clscan_tile);
            barrier(CLK_LOCAL_MEM_FENCE);   /* every run's total; the tile read */
            if (lid < CLSCAN_SAT_ROWS) {
                CLSCAN_T edge = CLSCAN_IDENTITY;
                for (uint q = 0; q < CLSCAN_SAT_SEGS; q++)
                    edge = CLSCAN_OP(edge, clscan_runs[lid * CLSCAN_SAT_SEGS + q]);
                carries[t * CLSCAN_SAT_ROWS + lid] = edge;
                if (lid == CLSCAN_SAT_ROWS - 1 && b + 1 < num_bands)
                    sums[b * stride + width + c] = edge;
            }
            /* runs[] is next written after the next tile's first barrier, which its readers pass
             * after reading it. */
        }
        if (b1 < num_bands && x < width)
            sums[s * stride + x] = down;
        j = jn;
    }
}

/* The inclusive scan down each column of sums (rows `stride` apart), in place: columns below width
 * have seg_rows rows (the segments' column sums), the rest band_rows (the bands' chunk totals). A
 * group takes `cols` columns (a power of two dividing CLSCAN_WG_SIZE; runs of a row, coalesced) cut into
 * CLSCAN_WG_SIZE / cols parts of CLSCAN_SAT_SCAN_PART rows. Each work-item holds its part in registers (its loads go
 * out together, not one row after the last), the parts' totals are scanned in local memory, and each
 * part is written back from its prefix. Taller arrays take several such blocks of rows, each
 * column's sum carried from block to block; the host picks narrower groups for them, so that blocks
 * are few. */
/* clscan_sat_scan_sums's work on columns 0 .. end-1, as group `group` of `groups` (part_total: CLSCAN_WG_SIZE
 * elements of local memory). */
void clscan_sat_scan_columns(__global CLSCAN_T *sums, ulong stride, ulong end, ulong width, ulong seg_rows,
                             ulong band_rows, uint cols, ulong group, ulong groups, __local CLSCAN_T *part_total)
{
    const uint lid = get_local_id(0), part = lid / cols, c = lid - part * cols, parts = CLSCAN_WG_SIZE / cols;
    for (ulong x0 = group * cols; x0 < end; x0 += groups * cols) {
        const ulong x = x0 + c;
        /* The same number of blocks for the whole group (its barriers), each column its own rows. */
        const ulong rows = x0 + cols > width ? band_rows : seg_rows;
        const ulong mine = x >= end ? 0 : x < width ? seg_rows : band_rows;
        CLSCAN_T carry = CLSCAN_IDENTITY;   /* the column's sum over the blocks above */
        for (ulong y0 = 0; y0 < rows; y0 += (ulong)parts * CLSCAN_SAT_SCAN_PART) {
            const ulong r0 = y0 + part * CLSCAN_SAT_SCAN_PART;
            CLSCAN_T v[CLSCAN_SAT_SCAN_PART], acc = CLSCAN_IDENTITY;
            for (uint i = 0; i < CLSCAN_SAT_SCAN_PART; i++) {
                v[i] = r0 + i < mine ? sums[(r0 + i) * stride + x] : CLSCAN_IDENTITY;
                acc = CLSCAN_OP(acc, v[i]);
            }
            part_total[lid] = acc;
            barrier(CLK_LOCAL_MEM_FENCE);
            acc = carry;
            for (uint q = 0; q < parts; q++) {   /* a select, not a loop of `part` rounds: no lane waits */
                const CLSCAN_T t = part_total[q * cols + c];
                acc = q < part ? CLSCAN_OP(acc, t) : acc;
                carry = CLSCAN_OP(carry, t);
            }
            for (uint i = 0; i < CLSCAN_SAT_SCAN_PART; i++) {
                acc = CLSCAN_OP(acc, v[i]);
                if (r0 + i < mine)
                    sums[(r0 + i) * stride + x] = acc;
            }
            barrier(CLK_LOCAL_MEM_FENCE);   /* part_total is read before the next block overwrites it */
        }
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_scan_sums(__global CLSCAN_T *sums, ulong stride, ulong width, ulong seg_rows, ulong band_rows,
                          uint cols)
{
    __local CLSCAN_T clscan_part_total[CLSCAN_WG_SIZE];
    clscan_sat_scan_columns(sums, stride, stride, width, seg_rows, band_rows, cols, get_group_id(0),
                            get_num_groups(0), clscan_part_total);
}

/* Tile (b, c)'s term for row r: the bands above b over chunk c, and band b's rows 0 .. r over it.
 * The first comes from row b-1 of the scanned chunk totals (src 1: above_g), from local memory (src
 * 2: above_l, clscan_sat_middle), or is none (src 0: the first band). */
CLSCAN_T clscan_sat_edge_term(int src, __global const CLSCAN_T *above_g, __local const CLSCAN_T *above_l,
                              __global const CLSCAN_T *edges, ulong c, uint r)
{
    const CLSCAN_T mine = edges[c * CLSCAN_SAT_ROWS + r];
    return src == 1 ? CLSCAN_OP(above_g[c], mine) : src == 2 ? CLSCAN_OP(above_l[c], mine) : mine;
}

/* Band b's carries: carries[t * CLSCAN_SAT_ROWS + r] becomes the sum over the image's rows 0 .. b * CLSCAN_SAT_ROWS
 * + r of the columns left of tile t = (b, c), the exclusive scan along the band's tiles of
 * clscan_sat_edge_term. Work-item (part, r) takes a run of the chunks in row r (a band's terms are few:
 * CLSCAN_SAT_ROWS a chunk). part_total: CLSCAN_WG_SIZE elements of local memory. */
void clscan_sat_carry_band(ulong b, ulong chunks, int src, __global const CLSCAN_T *above_g,
                           __local const CLSCAN_T *above_l, __global CLSCAN_T *carries,
                           __local CLSCAN_T *part_total)
{
    const uint lid = get_local_id(0), part = lid / CLSCAN_SAT_ROWS, r = lid - part * CLSCAN_SAT_ROWS,
               parts = CLSCAN_WG_SIZE / CLSCAN_SAT_ROWS;
    const ulong len = (chunks + parts - 1) / parts, c0 = min(chunks, part * len), c1 = min(chunks, c0 + len);
    __global CLSCAN_T *edges = carries + b * chunks * CLSCAN_SAT_ROWS;
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (ulong c = c0; c < c1; c++)
        acc = CLSCAN_OP(acc, clscan_sat_edge_term(src, above_g, above_l, edges, c, r));
    part_total[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = CLSCAN_IDENTITY;
    for (uint q = 0; q < part; q++)
        acc = CLSCAN_OP(acc, part_total[q * CLSCAN_SAT_ROWS + r]);
    for (ulong c = c0; c < c1; c++) {
        const CLSCAN_T term = clscan_sat_edge_term(src, above_g, above_l, edges, c, r);
        edges[c * CLSCAN_SAT_ROWS + r] = acc;
        acc = CLSCAN_OP(acc, term);
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* part_total is read before it is written again */
}

/* Every band's carries (clscan_sat_carry_band), a group a band, from the scanned chunk totals. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_band_carries(__global const CLSCAN_T *sums, __global CLSCAN_T *carries, ulong width, ulong num_bands)
{
    __local CLSCAN_T clscan_part_total[CLSCAN_WG_SIZE];
    const ulong chunks = (width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE, stride = width + chunks;
    for (ulong b = get_group_id(0); b < num_bands; b += get_num_groups(0))
        clscan_sat_carry_band(b, chunks, b > 0, sums + (b > 0 ? b - 1 : 0) * stride + width, clscan_part_total,
                              carries, clscan_part_total);
}

/* above[c] = chunk c's total over bands 0 .. b-1, added up from the unscanned chunk totals (column
 * width + c of sums, a row a band): work-item (p, c) takes bands p, p + parts, ..., then the parts
 * are added up in local memory. chunks <= CLSCAN_WG_SIZE. */
#define CLSCAN_SAT_ABOVE_BATCH 16     /* loads in flight a work-item (8 and 32 were no faster: docs/design.md) */
void clscan_sat_above_chunks(__global const CLSCAN_T *sums, ulong stride, ulong width, ulong chunks, ulong b,
                             __local CLSCAN_T *above, __local CLSCAN_T *part_total)
{
    const uint lid = get_local_id(0), parts = CLSCAN_WG_SIZE / (uint)chunks, p = lid / (uint)chunks;
    const uint c = lid - p * (uint)chunks;
    CLSCAN_T acc = CLSCAN_IDENTITY;
    if (p < parts)
        for (ulong j0 = p; j0 < b; j0 += CLSCAN_SAT_ABOVE_BATCH * parts) {
            CLSCAN_T v[CLSCAN_SAT_ABOVE_BATCH];   /* loads that go out together, not one after the last */
            for (uint i = 0; i < CLSCAN_SAT_ABOVE_BATCH; i++) {
                const ulong j = j0 + i * parts;
                v[i] = j < b ? sums[j * stride + width + c] : CLSCAN_IDENTITY;
            }
            for (uint i = 0; i < CLSCAN_SAT_ABOVE_BATCH; i++)
                acc = CLSCAN_OP(acc, v[i]);
        }
    part_total[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < chunks) {
        acc = CLSCAN_IDENTITY;
        for (uint q = 0; q < parts; q++)
            acc = CLSCAN_OP(acc, part_total[q * chunks + lid]);
        above[lid] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* above[] written; part_total read */
}

/* clscan_sat_scan_sums and clscan_sat_band_carries in one launch, where the host finds the chunk totals few
 * (chunks <= CLSCAN_WG_SIZE, and bands x chunks small): groups below num_bands each carry their band, adding
 * up the chunk totals above it themselves, so that nothing waits on the scan; the rest scan the
 * segments' column sums (seg_rows rows, `cols` columns a group). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_middle(__global CLSCAN_T *sums, __global CLSCAN_T *carries, ulong width, ulong num_bands,
                       ulong seg_rows, uint cols)
{
    __local CLSCAN_T clscan_part_total[CLSCAN_WG_SIZE];
    __local CLSCAN_T clscan_above[CLSCAN_WG_SIZE];
    const ulong chunks = (width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE, stride = width + chunks, g = get_group_id(0);
    if (g >= num_bands) {   /* a whole group: its barriers */
        clscan_sat_scan_columns(sums, stride, width, width, seg_rows, seg_rows, cols, g - num_bands,
                                get_num_groups(0) - num_bands, clscan_part_total);
        return;
    }
    if (g > 0)
        clscan_sat_above_chunks(sums, stride, width, chunks, g, clscan_above, clscan_part_total);
    clscan_sat_carry_band(g, chunks, g > 0 ? 2 : 0, sums, clscan_above, carries, clscan_part_total);
}

/* What the tile of chunk c of band b needs from memory: column x of its rows; for work-items below
 * CLSCAN_SAT_ROWS, row lid's sum left of the tile (with tiles of part of a band, CLSCAN_SAT_SUB > 1, from the
 * carries of band b / CLSCAN_SAT_SUB of CLSCAN_SAT_CARRY_ROWS rows); and at a task's first tile (first), the
 * column's seed, its sum over the segments above. Nothing past the last band. */
void clscan_sat_tile_load(__global const CLSCAN_T *in, __global const CLSCAN_T *sums,
                          __global const CLSCAN_T *carries, uint b, uint c, int first, uint seg, ulong width,
                          ulong height, uint num_bands, CLSCAN_T col[CLSCAN_SAT_ROWS], CLSCAN_T *seed,
                          CLSCAN_T *edge)
{
    const uint lid = get_local_id(0), chunks = (uint)((width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE);
    const ulong x = (ulong)c * CLSCAN_WG_SIZE + lid;
    const int live = b < num_bands;
    clscan_sat_tile_column(in, b, c, width, height, num_bands, col);
    *seed = live && first && b > 0 && x < width ? sums[(ulong)(b / seg - 1) * (width + chunks) + x] : CLSCAN_IDENTITY;
    const ulong row = (ulong)(b & (CLSCAN_SAT_SUB - 1)) * CLSCAN_SAT_ROWS + lid;
    *edge = live && lid < CLSCAN_SAT_ROWS
                ? carries[((ulong)(b / CLSCAN_SAT_SUB) * chunks + c) * CLSCAN_SAT_CARRY_ROWS + row] : CLSCAN_IDENTITY;
}

/* The table, a task at a time, each tile seeded from above (the segments above, then the tiles above
 * it in the segment, summed in a register) and from the left (carries); each group loads its next
 * tile while it scans this one. num_bands and seg count tiles of CLSCAN_SAT_ROWS rows, CLSCAN_SAT_SUB a band of
 * the launches before. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_seeded_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global const CLSCAN_T *sums,
                             __global const CLSCAN_T *carries, ulong width, ulong height, uint num_bands, uint seg,
                             __global uint *counters, uint epoch)
{
    __local CLSCAN_T clscan_tile[CLSCAN_LOCAL_SAT_TILE(CLSCAN_SAT_ROWS, CLSCAN_WG_SIZE)];
    __local CLSCAN_T clscan_runs[CLSCAN_WG_SIZE];
    __local CLSCAN_T clscan_carry[CLSCAN_SAT_ROWS];
    __local uint clscan_next;
    const uint lid = get_local_id(0), chunks = (uint)((width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE);
    const uint tasks = clscan_sat_tasks(num_bands, seg, chunks);
    CLSCAN_T col[CLSCAN_SAT_ROWS], ahead[CLSCAN_SAT_ROWS], seed, seed_ahead, edge, edge_ahead;
    uint k = get_group_id(0), nb, nc;
    clscan_sp_launch_start(counters, epoch);
    clscan_sat_task_start(k, seg, chunks, &nb, &nc);
    clscan_sat_tile_load(in, sums, carries, nb, nc, 1, seg, width, height, num_bands, col, &seed, &edge);
    while (k < tasks) {
        const uint kn = clscan_sat_take_task(counters, epoch, &clscan_next);
        const uint s = k / chunks, c = k - s * chunks, b1 = min(s * seg + seg, num_bands);
        const ulong x = (ulong)c * CLSCAN_WG_SIZE + lid;
        for (uint b = s * seg; b < b1; b++) {
            const CLSCAN_T total = clscan_sat_column_prefix(col);
            const int first = clscan_sat_next_tile(kn, b, b1, c, seg, chunks, &nb, &nc);
            clscan_sat_tile_load(in, sums, carries, nb, nc, first, seg, width, height, num_bands, ahead,
                                 &seed_ahead, &edge_ahead);
            /* The last tile's readers of carry[] passed its last barrier before this work-item got here. */
            if (lid < CLSCAN_SAT_ROWS)
                clscan_carry[lid] = edge;
            clscan_sat_chunk(out, col, seed, (ulong)b * CLSCAN_SAT_ROWS, clscan_sat_band_rows(b, height), x, width,
                             0, clscan_tile, clscan_runs, clscan_carry);
            for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
                col[r] = ahead[r];
            seed = first ? seed_ahead : CLSCAN_OP(seed, total);
            edge = edge_ahead;
        }
        k = kn;
    }
}

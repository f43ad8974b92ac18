/* The keyed override of clscan_tuning.h: a table of values that is NULL until something is set (so
 * normal use carries no knobs), the parse of $CLSCAN_TUNING, and the read-only figures the tests
 * and the tuner ask for. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[CLSCAN_TUNE_KEY_COUNT] = {
    "wg_size", "items", "items_mode", "portable", "force_fallback", "sp_groups", "reduce_strided",
    "sort_radix_bits", "sat_path", "sat_band", "sat_segment", "sat_tile", "sat_wide", "sat_separate",
    "subgroups", "dump_source", "scratch_bytes", "runs_count64", "hist_merge", "sp_fold",
    "sp_by_id", "sort_onesweep", "max_regs"};

const char *clscan_tuning_key_name(clscan_tuning_key key)
{
    return (unsigned)key < CLSCAN_TUNE_KEY_COUNT ? key_names[key] : NULL;
}

long clscan__tuned(const clscan_context *ctx, clscan_tuning_key key)
{
    return ctx->override && (unsigned)key < CLSCAN_TUNE_KEY_COUNT ? ctx->override[key] : 0;
}

/* Lock held (or the context not yet shared). */
static clscan_status set_value(clscan_context *ctx, clscan_tuning_key key, long value)
{
    if ((unsigned)key >= CLSCAN_TUNE_KEY_COUNT)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_tuning_set: unknown key %d", (int)key);
    if (!ctx->override && value == 0)
        return CLSCAN_SUCCESS;
    if (!ctx->override && !(ctx->override = calloc(CLSCAN_TUNE_KEY_COUNT, sizeof *ctx->override)))
        return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "no host memory for the tuning override");
    ctx->override[key] = value;
    return CLSCAN_SUCCESS;
}

/* The sub-group path is a device fact: probed again under the new choice. */
static clscan_status resubgroup(clscan_context *ctx)
{
    const char *call = "";
    clscan__device_info info;
    cl_int err = clscan__device_probe(ctx->device, &info, clscan__tuned(ctx, CLSCAN_TUNE_SUBGROUPS), &call);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, call, err);
    ctx->info.subgroups = info.subgroups;
    return CLSCAN_SUCCESS;
}

clscan_status clscan_tuning_set(clscan_context *ctx, clscan_tuning_key key, long value)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = set_value(ctx, key, value);
    if (st == CLSCAN_SUCCESS && key == CLSCAN_TUNE_SUBGROUPS)
        st = resubgroup(ctx);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

long clscan_tuning_get(const clscan_context *ctx, clscan_tuning_key key)
{
    if (!ctx)
        return 0;
    clscan_context *shared = (clscan_context *)ctx;
    pthread_mutex_lock(&shared->lock);
    long value = clscan__tuned(ctx, key);
    pthread_mutex_unlock(&shared->lock);
    return value;
}

void clscan_tuning_reset(clscan_context *ctx)
{
    if (!ctx)
        return;
    pthread_mutex_lock(&ctx->lock);
    long sg = clscan__tuned(ctx, CLSCAN_TUNE_SUBGROUPS);
    if (ctx->override)
        memset(ctx->override, 0, CLSCAN_TUNE_KEY_COUNT * sizeof *ctx->override);
    if (sg)
        resubgroup(ctx);
    pthread_mutex_unlock(&ctx->lock);
}

void clscan__override_free(clscan_context *ctx)
{
    free(ctx->override);
    ctx->override = NULL;
}

/* "name=value" of one entry into *key and *value; 0 when the entry is not of that form. */
static int parse_entry(const char *entry, size_t len, clscan_tuning_key *key, long *value)
{
    const char *eq = memchr(entry, '=', len);
    if (!eq)
        return 0;
    for (int k = 0; k < CLSCAN_TUNE_KEY_COUNT; k++)
        if (strlen(key_names[k]) == (size_t)(eq - entry) && strncmp(entry, key_names[k], (size_t)(eq - entry)) == 0) {
            char digits[32];
            size_t n = len - (size_t)(eq - entry) - 1;
            if (n == 0 || n >= sizeof digits)
                return 0;
            memcpy(digits, eq + 1, n);
            digits[n] = '\0';
            char *end = NULL;
            *value = strtol(digits, &end, 10);
            *key = (clscan_tuning_key)k;
            return *end == '\0';
        }
    return 0;
}

clscan_status clscan__override_from_env(clscan_context *ctx, const char *text, char *err, size_t err_len)
{
    while (text && *text) {
        size_t len = strcspn(text, ",");
        clscan_tuning_key key = CLSCAN_TUNE_KEY_COUNT;
        long value = 0;
        if (len > 0 && !parse_entry(text, len, &key, &value)) {
            snprintf(err, err_len, "CLSCAN_TUNING: \"%.*s\" is not name=integer with a name of clscan_tuning.h",
                     (int)(len < 64 ? len : 64), text);
            return CLSCAN_INVALID_ARGUMENT;
        }
        if (len > 0 && set_value(ctx, key, value) != CLSCAN_SUCCESS) {
            snprintf(err, err_len, "no host memory for the tuning override");
            return CLSCAN_OUT_OF_MEMORY;
        }
        text += len + (text[len] == ',');
    }
    return CLSCAN_SUCCESS;
}

clscan_status clscan_tuning_fallbacks(clscan_context *ctx, unsigned long *count)
{
    if (!ctx || !count)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CLSCAN_SUCCESS;
    cl_uint c[3] = {0, 0, 0};
    if (ctx->sp_counters)
        st = clscan__read_back(ctx, ctx->sp_counters, 0, sizeof c, c, "fallback count");
    *count = c[2];
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_tuning_cache_stats clscan_tuning_cache_counters(const clscan_context *ctx)
{
    clscan_tuning_cache_stats s = {0, 0, 0, 0};
    if (ctx)
        s = (clscan_tuning_cache_stats){ctx->stats.source_builds, ctx->stats.binary_loads, ctx->stats.binary_writes,
                                        ctx->stats.binary_rejects};
    return s;
}

// clscan-peer-cub: CUB (CUDA's device-wide primitives) timed on clscan-bench's operations and data
// (bench/peers/README.md), on CUDA device 0. Each operation is CUB's own call for it, with its temporary
// storage allocated once outside the timing (CUB's documented two-phase use); counts that clscan returns
// to the host (kept, runs) are copied back inside the timing, as clscan's calls do. CUB's partition puts
// the unflagged elements in reverse order, which the check allows; it is the one difference in contract.
#include "peer_common.h"
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct wrap_add {   // int32 addition that wraps, as clscan's CLSCAN_ADD
    __host__ __device__ int operator()(const int &a, const int &b) const
    {
        return (int)((unsigned)a + (unsigned)b);
    }
};

bool cuda_ok(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        std::fprintf(stderr, "clscan-peer-cub: %s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

// A count CUB wrote to the device, read back (part of what is timed, as clscan returns it).
int count_of(const int *d)
{
    int c = -1;
    cudaMemcpy(&c, d, sizeof c, cudaMemcpyDeviceToHost);
    return c;
}

struct bench {
    clscan__peer_options opt;
    FILE *csv;
    char device[256], driver[64];
    std::vector<double> t;
    void *temp = nullptr;
    size_t temp_bytes = 0;
    int wrong = 0;

    // Room for the temporary storage a call asks for (the call with a null pointer sizes it).
    template <class F> bool reserve(F call)
    {
        size_t need = 0;
        if (!cuda_ok(call(nullptr, need), "sizing the temporary storage"))
            return false;
        if (need <= temp_bytes)
            return true;
        cudaFree(temp);
        temp_bytes = 0;
        if (!cuda_ok(cudaMalloc(&temp, need), "cudaMalloc"))
            return false;
        temp_bytes = need;
        return true;
    }

    // The median of opt.runs calls + synchronize after two warm-ups; -1 on an error.
    template <class F> double time(F call)
    {
        if (!reserve(call))
            return -1;
        for (int r = -2; r < opt.runs; r++) {
            const double t0 = clscan__bench_seconds();
            size_t bytes = temp_bytes;
            if (!cuda_ok(call(temp, bytes), "a CUB call") || !cuda_ok(cudaDeviceSynchronize(), "synchronize"))
                return -1;
            if (r >= 0)
                t[r] = clscan__bench_seconds() - t0;
        }
        return clscan__bench_median(t.data(), opt.runs) * 1e3;
    }

    // time() of a call that leaves a count in count on the device, read back into got inside the timing.
    template <class F> double time_counted(F call, const int *count, int &got)
    {
        return time([&](void *tmp, size_t &bytes) {
            cudaError_t e = call(tmp, bytes);
            if (tmp && e == cudaSuccess)
                got = count_of(count);
            return e;
        });
    }

    void row(const char *op, size_t n, double ms, bool ok)
    {
        ok = ok && ms > 0;
        wrong += !ok;
        clscan__peer_row(csv, "CUB", device, driver, op, n, ms, ok);
    }
};

template <class T> T *upload(const T *host, size_t count)
{
    T *d = nullptr;
    if (!cuda_ok(cudaMalloc(&d, count * sizeof(T) + 16), "cudaMalloc"))
        std::exit(3);
    if (host)
        cudaMemcpy(d, host, count * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <class T> bool same(const T *d, const T *want, size_t count)
{
    std::vector<T> h(count);
    return cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess &&
           (count == 0 || std::memcmp(h.data(), want, count * sizeof(T)) == 0);
}

void poison(void *d, size_t bytes)
{
    cudaMemset(d, 0xA5, bytes);
}

void scans(bench &b, const clscan__peer_data &d)
{
    const int n = (int)d.n;
    std::vector<int32_t> want(d.n);
    int32_t *in = upload(d.values, d.n), *out = upload<int32_t>(nullptr, d.n);
    unsigned char *flags = upload(d.flags, d.n);
    int *count = upload<int>(nullptr, 1);
    clscan__peer_ref_scan(d.values, d.n, want.data());
    poison(out, d.n * 4);
    double ms = b.time([&](void *tmp, size_t &bytes) { return cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n); });
    b.row("scan", d.n, ms, same(out, want.data(), d.n));

    int32_t sum = 0;
    ms = b.time([&](void *tmp, size_t &bytes) {
        cudaError_t e = cub::DeviceReduce::Reduce(tmp, bytes, in, out, n, wrap_add(), 0);
        if (tmp && e == cudaSuccess)
            e = cudaMemcpy(&sum, out, 4, cudaMemcpyDeviceToHost);
        return e;
    });
    b.row("reduce", d.n, ms, sum == clscan__peer_ref_sum(d.values, d.n));

    const size_t kept = clscan__peer_ref_compact(d.values, d.flags, d.n, want.data());
    int got = -1;
    poison(out, d.n * 4);
    ms = b.time_counted([&](void *tmp, size_t &bytes) {
        return cub::DeviceSelect::Flagged(tmp, bytes, in, flags, out, count, n);
    }, count, got);
    b.row("compact", d.n, ms, got == (int)kept && same(out, want.data(), kept));

    const size_t flagged = clscan__peer_ref_partition(d.fam_values, d.fam_half, d.n, want.data());
    int32_t *values = upload(d.fam_values, d.n);
    unsigned char *half = upload(d.fam_half, d.n);
    poison(out, d.n * 4);
    ms = b.time_counted([&](void *tmp, size_t &bytes) {
        return cub::DevicePartition::Flagged(tmp, bytes, values, half, out, count, n);
    }, count, got);
    std::vector<int32_t> part(d.n);
    bool ok = got == (int)flagged && cudaMemcpy(part.data(), out, d.n * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
              std::memcmp(part.data(), want.data(), flagged * 4) == 0;
    for (size_t i = flagged; ok && i < d.n; i++)   // CUB: the unflagged ones in reverse order
        ok = part[i] == want[d.n - 1 - (i - flagged)];
    b.row("partition", d.n, ms, ok);
    cudaFree(in), cudaFree(out), cudaFree(flags), cudaFree(count), cudaFree(values), cudaFree(half);
}

void sorts(bench &b, const clscan__peer_data &d)
{
    const int n = (int)d.n;
    std::vector<uint32_t> want(d.n), index(d.n), iota(d.n);
    for (size_t i = 0; i < d.n; i++)
        iota[i] = (uint32_t)i;
    uint32_t *keys = upload(d.keys, d.n), *out = upload<uint32_t>(nullptr, d.n);
    uint32_t *vals = upload(iota.data(), d.n), *vals_out = upload<uint32_t>(nullptr, d.n);

    clscan__peer_ref_sort(d.keys, d.n, 0, 0, want.data(), index.data());
    poison(out, d.n * 4);
    double ms = b.time([&](void *tmp, size_t &bytes) { return cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, out, n); });
    b.row("sort", d.n, ms, same(out, want.data(), d.n));
    poison(out, d.n * 4), poison(vals_out, d.n * 4);
    ms = b.time([&](void *tmp, size_t &bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, out, vals, vals_out, n);
    });
    b.row("sort_by_key", d.n, ms, same(out, want.data(), d.n) && same(vals_out, index.data(), d.n));

    clscan__peer_ref_sort(d.keys, d.n, 1, 0, want.data(), index.data());
    poison(out, d.n * 4);
    ms = b.time([&](void *tmp, size_t &bytes) {
        return cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, keys, out, n);
    });
    b.row("sort_descending", d.n, ms, same(out, want.data(), d.n));

    clscan__peer_ref_sort(d.keys, d.n, 0, 1, want.data(), index.data());
    poison(out, d.n * 4);
    ms = b.time([&](void *tmp, size_t &bytes) { return cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, out, n, 0, 16); });
    b.row("sort_bits_0_16", d.n, ms, same(out, want.data(), d.n));
    cudaFree(keys), cudaFree(out), cudaFree(vals), cudaFree(vals_out);
}

void runs(bench &b, const clscan__peer_data &d)
{
    const int n = (int)d.n;
    std::vector<int32_t> want(d.n), sums(d.n);
    std::vector<uint32_t> run_keys(d.n);
    std::vector<uint64_t> lengths(d.n);
    uint32_t *keys = upload(d.fam_keys, d.n), *keys_out = upload<uint32_t>(nullptr, d.n);
    int32_t *values = upload(d.fam_values, d.n), *out = upload<int32_t>(nullptr, d.n);
    int *lens = upload<int>(nullptr, d.n), *count = upload<int>(nullptr, 1);
    int got = -1;

    clscan__peer_ref_scan_by_key(d.fam_keys, d.fam_values, d.n, want.data());
    poison(out, d.n * 4);
    double ms = b.time([&](void *tmp, size_t &bytes) {
        return cub::DeviceScan::InclusiveSumByKey(tmp, bytes, keys, values, out, n);
    });
    b.row("scan_by_key", d.n, ms, same(out, want.data(), d.n));

    const size_t r = clscan__peer_ref_runs(d.fam_keys, d.fam_values, d.n, run_keys.data(), sums.data(), lengths.data());
    poison(out, d.n * 4), poison(keys_out, d.n * 4);
    ms = b.time_counted([&](void *tmp, size_t &bytes) {
        return cub::DeviceReduce::ReduceByKey(tmp, bytes, keys, keys_out, values, out, count, wrap_add(), n);
    }, count, got);
    b.row("reduce_by_key", d.n, ms, got == (int)r && same(keys_out, run_keys.data(), r) && same(out, sums.data(), r));

    std::vector<int> want_lens(r);
    for (size_t i = 0; i < r; i++)
        want_lens[i] = (int)lengths[i];
    poison(keys_out, d.n * 4), poison(lens, d.n * 4);
    ms = b.time_counted([&](void *tmp, size_t &bytes) {
        return cub::DeviceRunLengthEncode::Encode(tmp, bytes, keys, keys_out, lens, count, n);
    }, count, got);
    b.row("run_length_encode", d.n, ms, got == (int)r && same(keys_out, run_keys.data(), r) && same(lens, want_lens.data(), r));

    poison(keys_out, d.n * 4);
    ms = b.time_counted([&](void *tmp, size_t &bytes) {
        return cub::DeviceSelect::Unique(tmp, bytes, keys, keys_out, count, n);
    }, count, got);
    b.row("unique", d.n, ms, got == (int)r && same(keys_out, run_keys.data(), r));
    cudaFree(keys), cudaFree(keys_out), cudaFree(values), cudaFree(out), cudaFree(lens), cudaFree(count);
}

void reductions(bench &b, const clscan__peer_data &d)
{
    const int n = (int)d.n, segs = (int)d.segs;
    std::vector<int> offsets(d.segs + 1), counts(256);
    for (size_t s = 0; s <= d.segs; s++)
        offsets[s] = (int)d.offsets[s];
    std::vector<int32_t> want(d.segs);
    clscan__peer_ref_segmented_sum(d.fam_values, d.offsets, d.segs, want.data());
    int32_t *values = upload(d.fam_values, d.n), *out = upload<int32_t>(nullptr, d.segs);
    int *offs = upload(offsets.data(), d.segs + 1), *hist = upload<int>(nullptr, 256);
    poison(out, d.segs * 4);
    double ms = b.time([&](void *tmp, size_t &bytes) {
        return cub::DeviceSegmentedReduce::Reduce(tmp, bytes, values, out, segs, offs, offs + 1, wrap_add(), 0);
    });
    b.row("segmented_reduce", d.n, ms, same(out, want.data(), d.segs));

    uint64_t want_counts[256];
    clscan__peer_ref_histogram(d.bytes, d.n, want_counts);
    for (int i = 0; i < 256; i++)
        counts[i] = (int)want_counts[i];
    uint8_t *bytes_in = upload(d.bytes, d.n);
    poison(hist, 256 * 4);
    ms = b.time([&](void *tmp, size_t &bytes) {
        return cub::DeviceHistogram::HistogramEven(tmp, bytes, bytes_in, hist, 257, 0, 255, n);
    });
    b.row("histogram_uint8_256", d.n, ms, same(hist, counts.data(), 256));
    cudaFree(values), cudaFree(out), cudaFree(offs), cudaFree(hist), cudaFree(bytes_in);
}

} // namespace

int main(int argc, char **argv)
{
    clscan__peer_options opt;
    if (!clscan__peer_parse(argc, argv, "CUB's scan, reduce, selections, sorts, by-key and segmented operations", &opt))
        return 2;
    cudaDeviceProp prop;
    int driver = 0;
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "no CUDA device"))
        return 3;
    cudaDriverGetVersion(&driver);
    bench b{opt, opt.csv ? std::fopen(opt.csv, "w") : nullptr, {0}, {0}, std::vector<double>(opt.runs)};
    std::snprintf(b.device, sizeof b.device, "%s", prop.name);
    std::snprintf(b.driver, sizeof b.driver, "CUDA %d.%d, CUB %d.%d.%d", driver / 1000, driver % 1000 / 10,
                  CUB_VERSION / 100000, CUB_VERSION / 100 % 1000, CUB_VERSION % 100);
    clscan__peer_csv_header(b.csv);
    std::printf("CUB on %s (%s)\n", b.device, b.driver);
    for (int k = opt.min_log; k <= opt.max_log; k++) {
        const size_t n = (size_t)1 << k;
        if (n * 24 > prop.totalGlobalMem || n > (size_t)1 << 30)   // the largest op's buffers; int counts
            break;
        clscan__peer_data d;
        if (!clscan__peer_data_make(&d, n)) {
            std::fprintf(stderr, "clscan-peer-cub: no host memory for 2^%d elements\n", k);
            return 3;
        }
        scans(b, d), sorts(b, d), runs(b, d), reductions(b, d);
        clscan__peer_data_free(&d);
    }
    cudaFree(b.temp);
    if (b.csv)
        std::fclose(b.csv);
    if (b.wrong)
        std::fprintf(stderr, "clscan-peer-cub: %d results did not verify\n", b.wrong);
    return b.wrong ? 1 : 0;
}

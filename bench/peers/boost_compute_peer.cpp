// clscan-peer-boost: Boost.Compute timed on clscan-bench's operations and data (bench/peers/README.md),
// on any OpenCL device. Each call is what a Boost.Compute user writes for the operation: its own
// algorithm where it has one, else the shortest composition of them (the compaction by flags: a scan of
// the flags and scatter_if, which is how its copy_if works inside). Operations it lacks (segmented and
// by-key scans, run-length encoding, histograms, bit-range sorts) are not timed.
#include "peer_common.h"
#include <boost/compute/algorithm/accumulate.hpp>
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/exclusive_scan.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/reduce_by_key.hpp>
#include <boost/compute/algorithm/scatter_if.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/algorithm/unique_copy.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/functional/operator.hpp>
#include <boost/version.hpp>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace bc = boost::compute;

namespace {

struct bench {
    bc::device dev;
    bc::context ctx;
    bc::command_queue q;
    clscan__peer_options opt;
    FILE *csv;
    std::vector<double> t;
    int wrong = 0;

    // The median of opt.runs runs of fn + finish, after prepare (untimed) before each; -1 on an error.
    double time(const std::function<void()> &fn, const std::function<void()> &prepare = [] {})
    {
        try {
            for (int r = -2; r < opt.runs; r++) {
                prepare();
                q.finish();
                const double t0 = clscan__bench_seconds();
                fn();
                q.finish();
                if (r >= 0)
                    t[r] = clscan__bench_seconds() - t0;
            }
        } catch (const std::exception &e) {
            std::fprintf(stderr, "clscan-peer-boost: %s\n", e.what());
            return -1;
        }
        return clscan__bench_median(t.data(), opt.runs) * 1e3;
    }

    void row(const char *op, size_t n, double ms, bool ok)
    {
        ok = ok && ms > 0;
        wrong += !ok;
        clscan__peer_row(csv, "Boost.Compute", dev.name().c_str(), dev.driver_version().c_str(), op, n, ms, ok);
    }

    template <class T> std::vector<T> read(const bc::vector<T> &v, size_t count)
    {
        std::vector<T> h(count);
        if (count)
            bc::copy(v.begin(), v.begin() + count, h.begin(), q);
        return h;
    }
};

// The device whose name contains part, or the first GPU, else the first device.
bc::device pick(const char *part)
{
    std::vector<bc::device> all = bc::system::devices();
    for (const bc::device &d : all)
        if (part ? d.name().find(part) != std::string::npos : d.type() == CL_DEVICE_TYPE_GPU)
            return d;
    if (part || all.empty())
        throw std::runtime_error(std::string("no OpenCL device") + (part ? std::string(" named like ") + part : ""));
    return all.front();
}

void scans(bench &b, const clscan__peer_data &d)
{
    const size_t n = d.n;
    std::vector<int32_t> want(n), got(n);
    bc::vector<int32_t> in(d.values, d.values + n, b.q), out(n, b.ctx);
    clscan__peer_ref_scan(d.values, n, want.data());
    double ms = b.time([&] { bc::inclusive_scan(in.begin(), in.end(), out.begin(), b.q); });
    b.row("scan", n, ms, ms > 0 && b.read(out, n) == want);

    int32_t sum = 0;
    ms = b.time([&] { sum = bc::accumulate(in.begin(), in.end(), int32_t(0), b.q); });
    b.row("reduce", n, ms, sum == clscan__peer_ref_sum(d.values, n));

    // Compaction by flags: their exclusive scan gives each kept element its place.
    bc::vector<unsigned char> flags(d.flags, d.flags + n, b.q);
    bc::vector<uint32_t> place(n, b.ctx);
    size_t kept = 0;
    ms = b.time([&] {
        bc::copy(flags.begin(), flags.end(), place.begin(), b.q);
        bc::exclusive_scan(place.begin(), place.end(), place.begin(), b.q);
        bc::scatter_if(in.begin(), in.end(), place.begin(), flags.begin(), out.begin(), b.q);
        kept = (size_t)(place.end() - 1).read(b.q) + d.flags[n - 1];
    });
    const size_t want_kept = clscan__peer_ref_compact(d.values, d.flags, n, want.data());
    got = b.read(out, kept == want_kept ? kept : 0);
    b.row("compact", n, ms, kept == want_kept && std::memcmp(got.data(), want.data(), kept * 4) == 0);
}

void sorts(bench &b, const clscan__peer_data &d)
{
    const size_t n = d.n;
    std::vector<uint32_t> want(n), index(n);
    bc::vector<uint32_t> src(d.keys, d.keys + n, b.q), keys(n, b.ctx), values(n, b.ctx), iota(n, b.ctx);
    std::vector<uint32_t> h(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (uint32_t)i;
    bc::copy(h.begin(), h.end(), iota.begin(), b.q);
    auto restore = [&] { bc::copy(src.begin(), src.end(), keys.begin(), b.q); };
    auto restore_pairs = [&] { restore(); bc::copy(iota.begin(), iota.end(), values.begin(), b.q); };

    clscan__peer_ref_sort(d.keys, n, 0, 0, want.data(), index.data());
    double ms = b.time([&] { bc::sort(keys.begin(), keys.end(), b.q); }, restore);
    b.row("sort", n, ms, ms > 0 && b.read(keys, n) == want);
    ms = b.time([&] { bc::sort_by_key(keys.begin(), keys.end(), values.begin(), b.q); }, restore_pairs);
    // Boost.Compute's radix sort by key is stable: the values must be the stable order's indices.
    b.row("sort_by_key", n, ms, ms > 0 && b.read(keys, n) == want && b.read(values, n) == index);
    clscan__peer_ref_sort(d.keys, n, 1, 0, want.data(), index.data());
    ms = b.time([&] { bc::sort(keys.begin(), keys.end(), bc::greater<uint32_t>(), b.q); }, restore);
    b.row("sort_descending", n, ms, ms > 0 && b.read(keys, n) == want);
}

void runs(bench &b, const clscan__peer_data &d)
{
    const size_t n = d.n;
    std::vector<uint32_t> run_keys(n);
    std::vector<int32_t> sums(n);
    std::vector<uint64_t> lengths(n);
    const size_t r = clscan__peer_ref_runs(d.fam_keys, d.fam_values, n, run_keys.data(), sums.data(), lengths.data());
    run_keys.resize(r), sums.resize(r);
    bc::vector<uint32_t> keys(d.fam_keys, d.fam_keys + n, b.q), keys_out(n, b.ctx);
    bc::vector<int32_t> values(d.fam_values, d.fam_values + n, b.q), sums_out(n, b.ctx);
    size_t count = 0;
    double ms = b.time([&] {
        auto ends = bc::reduce_by_key(keys.begin(), keys.end(), values.begin(), keys_out.begin(), sums_out.begin(), b.q);
        count = (size_t)(ends.first - keys_out.begin());
    });
    b.row("reduce_by_key", n, ms, count == r && b.read(keys_out, r) == run_keys && b.read(sums_out, r) == sums);
    ms = b.time([&] { count = (size_t)(bc::unique_copy(keys.begin(), keys.end(), keys_out.begin(), b.q) - keys_out.begin()); });
    b.row("unique", n, ms, count == r && b.read(keys_out, r) == run_keys);
}

} // namespace

int main(int argc, char **argv)
{
    clscan__peer_options opt;
    if (!clscan__peer_parse(argc, argv, "Boost.Compute's scan, reduce, compaction, sorts, reduce_by_key and unique", &opt))
        return 2;
    try {
        bc::device dev = pick(opt.device);
        bc::context ctx(dev);
        bench b{dev, ctx, bc::command_queue(ctx, dev), opt, opt.csv ? std::fopen(opt.csv, "w") : nullptr,
                std::vector<double>(opt.runs)};
        clscan__peer_csv_header(b.csv);
        std::printf("Boost.Compute %d.%d on %s (driver %s)\n", BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000,
                    dev.name().c_str(), dev.driver_version().c_str());
        for (int k = opt.min_log; k <= opt.max_log; k++) {
            const size_t n = (size_t)1 << k;
            if ((cl_ulong)n * 16 > dev.global_memory_size()) // keys, values and their copies
                break;
            clscan__peer_data d;
            if (!clscan__peer_data_make(&d, n)) {
                std::fprintf(stderr, "clscan-peer-boost: no host memory for 2^%d elements\n", k);
                return 3;
            }
            scans(b, d), sorts(b, d), runs(b, d);
            clscan__peer_data_free(&d);
        }
        if (b.csv)
            std::fclose(b.csv);
        if (b.wrong)
            std::fprintf(stderr, "clscan-peer-boost: %d results did not verify\n", b.wrong);
        return b.wrong ? 1 : 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "clscan-peer-boost: %s\n", e.what());
        return 3;
    }
}

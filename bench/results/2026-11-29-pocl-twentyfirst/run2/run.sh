for r in 1 2 3 4 5 6 7 8; do
  CLSCAN_CACHE_DIR=/tmp/base30/cache /tmp/base30/build/clscan-bench --auto-only --types uint32,float --min-log 22 --max-log 22 --runs 15 > cmp-base-22-$r.txt 2>&1
  /tmp/b2/clscan-bench --auto-only --ops sort --types uint32,float --min-log 22 --max-log 22 --runs 15 > cmp-new-22-$r.txt 2>&1
done
python3 /work/main/scripts/bench-table.py --sides base,new cmp-*-*-*.txt > table.txt 2>&1

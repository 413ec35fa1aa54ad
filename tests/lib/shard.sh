# Sourced by the long test scripts (tests/cli/run.sh, tests/conformance/run.sh):
# SERVAL_TEST_SHARD=K/N (default 1/1) gives this run every Nth unit of work
# from the Kth, so CTest can run a suite as N tests side by side. in_shard is
# called once per unit, in the same order in every shard, and is true for
# this shard's share.
SHARD=${SERVAL_TEST_SHARD:-1/1}
SHARD_K=${SHARD%/*}
SHARD_N=${SHARD#*/}
if ! [[ "$SHARD_K" =~ ^[0-9]+$ && "$SHARD_N" =~ ^[0-9]+$ ]] || [ "$SHARD_K" -lt 1 ] || [ "$SHARD_K" -gt "$SHARD_N" ]; then
    echo "SERVAL_TEST_SHARD must be K/N with 1 <= K <= N, not $SHARD" >&2
    exit 2
fi
SHARD_UNIT=0
in_shard() {
    SHARD_UNIT=$((SHARD_UNIT + 1))
    [ $(((SHARD_UNIT - 1) % SHARD_N + 1)) = "$SHARD_K" ]
}

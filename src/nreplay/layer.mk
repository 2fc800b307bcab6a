# The NFS trace replay as a workload (mk/rules.mk: a workload's layer): it
# builds the trace's image and shares the replays' base (replaybase), not
# the block replay.
WORKLOAD_LAYERS += nreplay
DEPS_nreplay  := nreplay replaybase load ctl image trace nfs rpc common

# The NFS trace replay as a workload (mk/rules.mk: a workload's layer); it
# builds the trace's image and reuses the block replay's points and loop.
WORKLOAD_LAYERS += nreplay
DEPS_nreplay  := nreplay replay load ctl image trace nfs rpc common

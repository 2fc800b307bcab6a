# The block and POSIX trace replay as a workload (mk/rules.mk: a
# workload's layer); it reads traces, so trace stays below it.
WORKLOAD_LAYERS += replay
DEPS_replay   := replay replaybase load ctl trace nfs rpc common

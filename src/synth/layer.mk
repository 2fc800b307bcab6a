# The SFS 3.0 mix as a workload (mk/rules.mk: a workload's layer).
WORKLOAD_LAYERS += synth
DEPS_synth    := synth load ctl nfs rpc common

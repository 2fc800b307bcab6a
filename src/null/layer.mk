# The null workload (mk/rules.mk: a workload's layer): NFS NULL calls at the
# requested rate, the smallest workload there is and a template for new ones.
WORKLOAD_LAYERS += null
DEPS_null     := null load ctl nfs rpc common
